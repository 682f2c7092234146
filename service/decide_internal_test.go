package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/store"
)

// TestDecide_failures: decide, the one step that decides a mail, quarantines a
// mail whose reading panicked (no notice: nothing of it was read) or whose deciding
// failed for good, and returns a failure that is not the mail's (we are stopping)
// so that the mail is offered again.
func TestDecide_failures(t *testing.T) {
	t.Parallel()
	s, _ := pagesService(t, Settings{})
	ctx := context.Background()
	in := s.prepareInbox(store.InboxMsg{Raw: []byte("From: ann@games.example\r\n\r\nadd 1\r\n")})
	panicked := fmt.Errorf("%w: reading a mail: boom", ErrPanic)
	res, b, err := s.decide(ctx, in, route{failed: panicked})
	if err != nil || res.Status != StatusFailed || !strings.Contains(res.Reason, "boom") {
		t.Errorf("a mail whose reading panicked: %+v, %v; want it quarantined", res, err)
	}
	if len(b.Commits) != 1 || len(b.Commits[0].Outbox) != 0 {
		t.Errorf("a mail whose reading panicked is answered: %+v", b)
	}
	if _, _, err := s.decide(ctx, in, route{failed: context.Canceled}); !errors.Is(err, context.Canceled) {
		t.Errorf("stopping: %v, want the mail offered again", err)
	}
	early := Result{Status: StatusIgnored, Reason: "auto-generated mail: auto-replied"}
	if res, _, err := s.decide(ctx, in, route{early: early}); err != nil || res != early {
		t.Errorf("a mail decided from the mail alone: %+v, %v", res, err)
	}
}

// TestQuarantine_tellsOnlyTheSeat: the writer of a quarantined mail to a seat's
// reply address is told only when the mail proves the seat (seatClaim, as
// authenticate checks it): not a forged From, not a dead reply address.
func TestQuarantine_tellsOnlyTheSeat(t *testing.T) {
	t.Parallel()
	s, game := pagesService(t, Settings{})
	ctx := context.Background()
	for _, tc := range []struct {
		name, from string
		seat       int
		told       bool
	}{
		{"the seat's own address", "ann@games.example", 0, true},
		{"a forged From", "eve@evil.test", 0, false},
		{"another player's From", "ben@games.example", 0, false},
		{"an epoch not the seat's", "ann@games.example", epochStride, false},
	} {
		raw := "From: " + tc.from + "\r\nTo: " + s.ReplyAddress(game, tc.seat) + "\r\nSubject: hi\r\nMessage-ID: <q@games.example>\r\n\r\nadd 1\r\n"
		in := s.prepareInbox(store.InboxMsg{Raw: []byte(raw)})
		res, c := s.quarantine(ctx, in, s.route(in), errors.New("injected"))
		if res.Status != StatusFailed || res.GameID != game {
			t.Errorf("%s: %+v", tc.name, res)
		}
		if told := len(c.Outbox) == 1 && strings.EqualFold(c.Outbox[0].To[0], tc.from); told != tc.told || len(c.Outbox) > 1 {
			t.Errorf("%s: %d notices (to the writer: %v), want told %v", tc.name, len(c.Outbox), told, tc.told)
		}
	}
}
