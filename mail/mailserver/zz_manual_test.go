package mailserver

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestManualServe(t *testing.T) {
	if os.Getenv("MANUAL") == "" {
		t.Skip()
	}
	db := openTestDB(t, "/tmp/manual.db")
	srv, err := New(db, &Options{IMAPAddr: "127.0.0.1:11143", SMTPAddr: "127.0.0.1:12525"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Second)
	srv.Close()
}
