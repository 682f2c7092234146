package daemon

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/turnmail/turnmail/store"
)

// TestWatchOutbox: mail queued through another Store on the same database file —
// what turnmail new or import does from another process — wakes the daemon's
// sender (its Store's Notify); a poll that finds nothing new does not.
func TestWatchOutbox(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	file := filepath.Join(t.TempDir(), "t.db")
	open := func() *store.Store {
		st, err := store.Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	daemonStore, cliStore := open(), open()
	polls := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchOutboxTicks(ctx, daemonStore, polls)
	}()
	wake := daemonStore.Notify()
	polls <- time.Time{} // nothing queued yet
	polls <- time.Time{}
	select {
	case <-wake:
		t.Fatal("woken with nothing queued")
	default:
	}
	raw := []byte("From: turnmail@example.org\r\nTo: ann@example.org\r\nMessage-ID: <a@example.org>\r\nSubject: x\r\n\r\nhello\r\n")
	if err := cliStore.Enqueue(ctx, store.OutMail{From: "turnmail@example.org", To: []string{"ann@example.org"}, Raw: raw}); err != nil {
		t.Fatal(err)
	}
	polls <- time.Time{}
	polls <- time.Time{} // the first poll's wake has happened when the second is taken
	select {
	case <-wake:
	default:
		t.Fatal("mail queued by another process did not wake the sender")
	}
	cancel()
	<-done
}
