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
