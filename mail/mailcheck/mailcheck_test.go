package mailcheck

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"

	"github.com/turnmail/turnmail/mail/mailserver"
	"github.com/turnmail/turnmail/store"
)

// embedded starts the embedded mail servers on loopback, where every mailbox's
// password is "secret".
func embedded(t *testing.T) *mailserver.Server {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := mailserver.New(st.DB(), &mailserver.Options{WriteTx: st.WriteTx, Domain: "example.test", Password: "secret",
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestCheck: each way a login can fail is named by its step — a name that does not
// resolve (DNS), a closed port (connect), TLS toward a plain-text server (TLS), a
// wrong password (login) — and a right password passes, for IMAP and SMTP.
func TestCheck(t *testing.T) {
	srv := embedded(t)
	closed := closedPort(t)
	user := "turnmail@example.test"
	checks := map[string]func(context.Context, Server) error{"IMAP": IMAP, "SMTP": SMTP}
	addrs := map[string]string{"IMAP": srv.IMAPAddr(), "SMTP": srv.SMTPAddr()}
	tests := []struct {
		name     string
		server   func(proto string) Server
		wantStep string // "" means the check passes
	}{
		{"works", func(p string) Server {
			return Server{Addr: addrs[p], Security: "plain", Username: user, Password: "secret"}
		}, ""},
		{"unknown host", func(p string) Server {
			return Server{Addr: "no-such-host.invalid:993", Security: "tls", Username: user, Password: "secret"}
		}, StepDNS},
		{"closed port", func(p string) Server {
			return Server{Addr: closed, Security: "plain", Username: user, Password: "secret"}
		}, StepConnect},
		{"TLS to a plain server", func(p string) Server {
			return Server{Addr: addrs[p], Security: "tls", Username: user, Password: "secret"}
		}, StepTLS},
		{"STARTTLS to a server without it", func(p string) Server {
			return Server{Addr: addrs[p], Security: "starttls", Username: user, Password: "secret"}
		}, StepTLS},
		{"wrong password", func(p string) Server {
			return Server{Addr: addrs[p], Security: "plain", Username: user, Password: "wrong"}
		}, StepLogin},
	}
	for proto, check := range checks {
		for _, tt := range tests {
			t.Run(proto+"/"+tt.name, func(t *testing.T) {
				err := check(context.Background(), tt.server(proto))
				if tt.wantStep == "" {
					if err != nil {
						t.Fatalf("check failed: %v", err)
					}
					return
				}
				var ce *Error
				if !errors.As(err, &ce) || ce.Step != tt.wantStep {
					t.Fatalf("error %v, want the step %s", err, tt.wantStep)
				}
			})
		}
	}
}
