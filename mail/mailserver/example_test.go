package mailserver_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	_ "modernc.org/sqlite"

	"github.com/turnmail/turnmail/mail/mailserver"
)

// A mail loop in one process: a message delivered to a game address lands in
// the turnmail mailbox, where an IMAP client reads it.
func Example() {
	dir, err := os.MkdirTemp("", "mailserver-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "turnmail.db")+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	srv, err := mailserver.New(db, &mailserver.Options{
		IMAPAddr: "127.0.0.1:0",
		SMTPAddr: "127.0.0.1:0",
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if err := srv.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	msg := "From: alice@example.org\r\nSubject: Re: your turn\r\n\r\nconquer 12\r\n"
	if err := srv.Deliver(ctx, "turnmail+t0k3n@"+srv.Domain(), []byte(msg)); err != nil {
		log.Fatal(err)
	}

	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("turnmail@"+srv.Domain(), mailserver.DefaultPassword).Wait(); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		log.Fatal(err)
	}
	msgs, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msgs[0].UID, msgs[0].Envelope.Subject)
	// Output: 1 Re: your turn
}
