package mailserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

func TestServer_SMTPToIMAP(t *testing.T) {
	srv := newTestServer(t, nil)
	msg := testMessage("alice@example.org", "turnmail+tok3n@"+testDomain, "move 1", "conquer 12\r\n.dotted line\r\nend")
	if err := sendSMTP(srv.SMTPAddr(), nil, "alice@example.org", []string{"turnmail+tok3n@" + testDomain}, msg); err != nil {
		t.Fatalf("send: %v", err)
	}

	c := dialIMAP(t, srv.IMAPAddr(), "turnmail@"+testDomain, DefaultPassword, nil)
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sel.NumMessages, uint32(1); got != want {
		t.Fatalf("EXISTS = %d, want %d", got, want)
	}
	msgs := fetchAll(t, c)
	if len(msgs) != 1 {
		t.Fatalf("got %d messages, want 1", len(msgs))
	}
	got := body(msgs[0])
	if !strings.HasPrefix(got, "Delivered-To: turnmail+tok3n@"+testDomain+"\r\nReturn-Path: <alice@example.org>\r\nReceived: from client.test ([127.0.0.1])\r\n\tby "+testDomain) {
		t.Errorf("trace headers missing or out of order:\n%s", got)
	}
	// The Received header ends in "for <rcpt>; date\r\n"; then the message
	// follows byte for byte (the SMTP dot-stuffing undone).
	if _, rest, ok := strings.Cut(got, "\tfor <turnmail+tok3n@"+testDomain+">; "); !ok || !strings.HasSuffix(rest, "\r\n"+msg) || strings.Count(rest, "\r\n") != strings.Count(msg, "\r\n")+1 {
		t.Errorf("message bytes changed:\n%q\nwant suffix\n%q", got, msg)
	}
	if msgs[0].UID != 1 {
		t.Errorf("UID = %d, want 1", msgs[0].UID)
	}
	if len(msgs[0].Flags) != 0 {
		t.Errorf("flags = %v after BODY.PEEK[], want none", msgs[0].Flags)
	}

	// BODY[] without PEEK sets \Seen and reports it.
	fetched, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{
		BodySection: []*imap.FetchItemBodySection{{Specifier: imap.PartSpecifierHeader}},
		Envelope:    true,
	}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	if f := fetched[0].Flags; !slices.Contains(f, imap.FlagSeen) {
		t.Errorf("flags after BODY[HEADER] = %v, want \\Seen", f)
	}
	if env := fetched[0].Envelope; env == nil || env.Subject != "move 1" || env.MessageID != "move-1@test" {
		t.Errorf("envelope = %+v", env)
	}
}

func TestServer_IdleWakesOnDelivery(t *testing.T) {
	srv := newTestServer(t, nil)
	exists := make(chan uint32, 16)
	c := dialIMAP(t, srv.IMAPAddr(), "turnmail@"+testDomain, DefaultPassword, &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					exists <- *data.NumMessages
				}
			},
		},
	})
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}

	// A delivery between the last command and IDLE must not be missed.
	if err := srv.Deliver(context.Background(), "turnmail+a@"+testDomain, []byte(testMessage("a@x.org", "t", "early", "x"))); err != nil {
		t.Fatal(err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	wait := func(want uint32) {
		t.Helper()
		select {
		case n := <-exists:
			if n != want {
				t.Fatalf("EXISTS %d, want %d", n, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no EXISTS %d while idling", want)
		}
	}
	wait(1)

	start := time.Now()
	if err := sendSMTP(srv.SMTPAddr(), nil, "b@x.org", []string{"turnmail+b@" + testDomain}, testMessage("b@x.org", "t", "late", "y")); err != nil {
		t.Fatal(err)
	}
	wait(2)
	t.Logf("woken %v after the SMTP transaction started", time.Since(start))

	if err := idle.Close(); err != nil {
		t.Fatal(err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := len(fetchAll(t, c)); got != 2 {
		t.Errorf("got %d messages after IDLE, want 2", got)
	}
}

func TestServer_MoveToProcessed(t *testing.T) {
	srv := newTestServer(t, nil)
	ctx := context.Background()
	for i := range 3 {
		if err := srv.Deliver(ctx, "turnmail@"+testDomain, []byte(testMessage("a@x.org", "t", fmt.Sprint("m", i), "x"))); err != nil {
			t.Fatal(err)
		}
	}
	c := dialIMAP(t, srv.IMAPAddr(), "turnmail@"+testDomain, DefaultPassword, nil)
	for _, name := range []string{"Processed", "Rejected"} {
		if err := c.Create(name, nil).Wait(); err != nil {
			t.Fatalf("CREATE %s: %v", name, err)
		}
	}
	if err := c.Create("Processed", nil).Wait(); err == nil {
		t.Error("CREATE of an existing mailbox succeeded")
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	// Moving into a missing mailbox says TRYCREATE.
	_, err := c.Move(imap.UIDSetNum(2), "Nowhere").Wait()
	var imapErr *imap.Error
	if !errors.As(err, &imapErr) || imapErr.Code != imap.ResponseCodeTryCreate {
		t.Errorf("MOVE to a missing mailbox: %v, want NO [TRYCREATE]", err)
	}

	moved, err := c.Move(imap.UIDSetNum(2), "Processed").Wait()
	if err != nil {
		t.Fatalf("UID MOVE: %v", err)
	}
	status, err := c.Status("Processed", &imap.StatusOptions{UIDValidity: true, NumMessages: true, UIDNext: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if moved.UIDValidity != status.UIDValidity || moved.SourceUIDs.String() != "2" || moved.DestUIDs.String() != "1" {
		t.Errorf("COPYUID = %d %v %v, want %d 2 1", moved.UIDValidity, moved.SourceUIDs, moved.DestUIDs, status.UIDValidity)
	}
	if *status.NumMessages != 1 || status.UIDNext != 2 {
		t.Errorf("Processed: %d messages, UIDNEXT %d; want 1, 2", *status.NumMessages, status.UIDNext)
	}

	var inbox []imap.UID
	for _, m := range fetchAll(t, c) {
		inbox = append(inbox, m.UID)
	}
	if !slices.Equal(inbox, []imap.UID{1, 3}) {
		t.Errorf("INBOX UIDs after MOVE = %v, want [1 3]", inbox)
	}

	if _, err := c.Select("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs := fetchAll(t, c)
	if len(msgs) != 1 || msgs[0].UID != 1 || !strings.Contains(body(msgs[0]), "Subject: m1") {
		t.Fatalf("Processed holds %d messages; want m1 with UID 1", len(msgs))
	}
	if !slices.Contains(msgs[0].Flags, imap.FlagFlagged) {
		t.Errorf("flags after MOVE = %v, want \\Flagged kept", msgs[0].Flags)
	}

	// COPY keeps the source and allocates new UIDs in the target.
	copied, err := c.Copy(imap.UIDSetNum(1), "Rejected").Wait()
	if err != nil {
		t.Fatal(err)
	}
	if copied.DestUIDs.String() != "1" {
		t.Errorf("COPY DestUIDs = %v, want 1", copied.DestUIDs)
	}
	if got := len(fetchAll(t, c)); got != 1 {
		t.Errorf("Processed holds %d messages after COPY, want 1", got)
	}
}

func TestServer_RestartKeepsMailFlagsAndUIDs(t *testing.T) {
	srv := newTestServer(t, nil)
	ctx := context.Background()
	user := "alice@" + testDomain
	for i := range 3 {
		if err := srv.Deliver(ctx, user, []byte(testMessage("b@x.org", user, fmt.Sprint("m", i), "x"))); err != nil {
			t.Fatal(err)
		}
	}
	c := dialIMAP(t, srv.IMAPAddr(), user, DefaultPassword, nil)
	if err := c.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	before, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	store := func(uid imap.UID, op imap.StoreFlagsOp, flags ...imap.Flag) {
		t.Helper()
		if err := c.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: op, Flags: flags, Silent: true}, nil).Close(); err != nil {
			t.Fatal(err)
		}
	}
	store(1, imap.StoreFlagsAdd, imap.FlagSeen, imap.FlagAnswered, "$TurnmailDone")
	store(2, imap.StoreFlagsSet, `\deleted`, imap.FlagFlagged)
	store(1, imap.StoreFlagsDel, imap.FlagAnswered)
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.UIDSetNum(3), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	c.Close()

	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	srv = startTestServer(t, srv.path, nil)
	if err := srv.Deliver(ctx, user, []byte(testMessage("b@x.org", user, "after", "x"))); err != nil {
		t.Fatal(err)
	}

	c = dialIMAP(t, srv.IMAPAddr(), user, DefaultPassword, nil)
	after, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if after.UIDValidity != before.UIDValidity {
		t.Errorf("UIDVALIDITY changed over restart: %d -> %d", before.UIDValidity, after.UIDValidity)
	}
	if after.UIDNext != 5 {
		t.Errorf("UIDNEXT = %d, want 5 (UIDs are never reused)", after.UIDNext)
	}
	msgs := fetchAll(t, c)
	type row struct {
		uid   imap.UID
		flags string
	}
	var got []row
	for _, m := range msgs {
		got = append(got, row{m.UID, fmt.Sprint(m.Flags)})
	}
	want := []row{{1, "[$TurnmailDone \\Seen]"}, {4, "[]"}}
	if !slices.Equal(got, want) {
		t.Errorf("INBOX after restart = %v, want %v", got, want)
	}
	if _, err := c.Select("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if msgs := fetchAll(t, c); len(msgs) != 1 || msgs[0].UID != 1 || !strings.Contains(body(msgs[0]), "Subject: m2") {
		t.Errorf("Processed after restart: %d messages", len(msgs))
	}
}

func TestServer_AddressRouting(t *testing.T) {
	service := "turnmail@" + testDomain
	srv := newTestServer(t, &Options{Service: service})
	tests := []struct {
		rcpt, login string
	}{
		{"turnmail+abc123@" + testDomain, "turnmail@" + testDomain},
		{"Turnmail+XYZ@TurnMail.LocalHost", "TURNMAIL@turnmail.localhost"},
		{"bob@" + testDomain, "bob"}, // a bare login is at the embedded domain
		{"carol+x+y@example.org", "carol@example.org"},
		{"dave@example.net", "Dave@Example.NET"},
	}
	counts := make(map[string]int)
	for _, tt := range tests {
		// Mail for other domains comes from the service, logged in.
		auth := sasl.NewPlainClient("", service, DefaultPassword)
		if err := sendSMTP(srv.SMTPAddr(), auth, "sender@x.org", []string{tt.rcpt}, testMessage("sender@x.org", tt.rcpt, "hi", tt.rcpt)); err != nil {
			t.Fatalf("send to %s: %v", tt.rcpt, err)
		}
		addr, _ := srv.accountAddress(tt.login)
		counts[addr]++
	}
	for _, tt := range tests {
		t.Run(tt.rcpt, func(t *testing.T) {
			c := dialIMAP(t, srv.IMAPAddr(), tt.login, DefaultPassword, nil)
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			msgs := fetchAll(t, c)
			addr, _ := srv.accountAddress(tt.login)
			if len(msgs) != counts[addr] {
				t.Fatalf("%s holds %d messages, want %d", tt.login, len(msgs), counts[addr])
			}
			found := false
			for _, m := range msgs {
				found = found || strings.Contains(body(m), "Delivered-To: "+strings.Trim(tt.rcpt, "<>")+"\r\n")
			}
			if !found {
				t.Errorf("no message with Delivered-To: %s", tt.rcpt)
			}
		})
	}
}

// imapLogin dials addr and returns the outcome of LOGIN user password.
func imapLogin(t *testing.T, addr, user, password string) error {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Login(user, password).Wait()
}

func TestServer_Login(t *testing.T) {
	srv := newTestServer(t, &Options{Password: "s3cret"})
	tests := []struct {
		user, password string
		ok             bool
	}{
		{"alice@" + testDomain, "s3cret", true},
		{"ALICE@TURNMAIL.LOCALHOST", "s3cret", true},
		{"alice", "s3cret", true},
		{"alice@" + testDomain, "wrong", false},
		{"alice@" + testDomain, "", false},
		{"alice@" + testDomain, "S3CRET", false},
		{"", "s3cret", false},
		{"@" + testDomain, "s3cret", false},
	}
	for _, tt := range tests {
		t.Run(tt.user+"/"+tt.password, func(t *testing.T) {
			err := imapLogin(t, srv.IMAPAddr(), tt.user, tt.password)
			if tt.ok && err != nil {
				t.Errorf("login refused: %v", err)
			}
			if !tt.ok {
				var imapErr *imap.Error
				if !errors.As(err, &imapErr) || imapErr.Code != imap.ResponseCodeAuthenticationFailed {
					t.Errorf("login: %v, want NO [AUTHENTICATIONFAILED]", err)
				}
			}
		})
	}
}

// TestServer_PasswordFor: with PasswordFor each mailbox opens with its own
// password only, over IMAP and SMTP AUTH; a plus-address logs in to its base
// mailbox; a mailbox without a password is locked.
func TestServer_PasswordFor(t *testing.T) {
	passwords := map[string]string{"turnmail@" + testDomain: "svc-pw", "alice@" + testDomain: "alice-pw"}
	srv := newTestServer(t, &Options{Password: "shared", PasswordFor: func(addr string) string { return passwords[addr] }})
	tests := []struct {
		user, password string
		ok             bool
	}{
		{"turnmail@" + testDomain, "svc-pw", true},
		{"turnmail+g1.0.abc@" + testDomain, "svc-pw", true},
		{"turnmail@" + testDomain, "alice-pw", false},
		{"turnmail@" + testDomain, "shared", false},
		{"alice@" + testDomain, "alice-pw", true},
		{"Alice", "alice-pw", true},
		{"alice@" + testDomain, "svc-pw", false},
		{"bob@" + testDomain, "", false},
		{"bob@" + testDomain, "shared", false},
	}
	for _, tt := range tests {
		t.Run(tt.user+"/"+tt.password, func(t *testing.T) {
			if err := imapLogin(t, srv.IMAPAddr(), tt.user, tt.password); (err == nil) != tt.ok {
				t.Errorf("imap login: %v, want ok %v", err, tt.ok)
			}
			msg := testMessage("a@x.org", "b@x.org", "s", "x")
			err := sendSMTP(srv.SMTPAddr(), sasl.NewPlainClient("", tt.user, tt.password), "a@x.org", []string{"b@" + testDomain}, msg)
			var smtpErr *smtp.SMTPError
			if tt.ok && err != nil || !tt.ok && (!errors.As(err, &smtpErr) || smtpErr.Code != 535) {
				t.Errorf("smtp auth: %v, want ok %v", err, tt.ok)
			}
		})
	}
}

func TestServer_SMTP(t *testing.T) {
	srv := newTestServer(t, &Options{Password: "pw", MaxMessageBytes: 2000})
	big := testMessage("a@x.org", "b@x.org", "big", strings.Repeat("0123456789\r\n", 300))
	small := testMessage("a@x.org", "b@x.org", "small", "x")
	tests := []struct {
		name     string
		auth     sasl.Client
		from     string
		to       []string
		msg      string
		wantCode int // 0: accepted; 5: any permanent failure
	}{
		{"loopback without auth", nil, "a@x.org", []string{"b@" + testDomain}, small, 0},
		{"null sender", nil, "", []string{"b@" + testDomain}, small, 0},
		{"auth plain", sasl.NewPlainClient("", "a@x.org", "pw"), "a@x.org", []string{"b@" + testDomain}, small, 0},
		{"auth plain wrong password", sasl.NewPlainClient("", "a@x.org", "nope"), "a@x.org", []string{"b@" + testDomain}, small, 535},
		{"too large", nil, "a@x.org", []string{"b@" + testDomain}, big, 552},
		{"recipient without domain", nil, "a@x.org", []string{"no-at-sign"}, small, 5},
		{"recipient address literal", nil, "a@x.org", []string{"a@[127.0.0.1]"}, small, 553},
		{"bad sender", nil, "a b@x.org", []string{"b@" + testDomain}, small, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sendSMTP(srv.SMTPAddr(), tt.auth, tt.from, tt.to, tt.msg)
			var smtpErr *smtp.SMTPError
			switch {
			case tt.wantCode == 0 && err != nil:
				t.Errorf("refused: %v", err)
			case tt.wantCode == 5 && (!errors.As(err, &smtpErr) || smtpErr.Code/100 != 5):
				t.Errorf("got %v, want a permanent failure", err)
			case tt.wantCode > 5 && (!errors.As(err, &smtpErr) || smtpErr.Code != tt.wantCode):
				t.Errorf("got %v, want code %d", err, tt.wantCode)
			}
		})
	}

	// Several recipients get one copy each, each with its own Delivered-To.
	to := []string{"b+1@" + testDomain, "b+2@" + testDomain, "c@" + testDomain}
	if err := sendSMTP(srv.SMTPAddr(), nil, "a@x.org", to, small); err != nil {
		t.Fatal(err)
	}
	c := dialIMAP(t, srv.IMAPAddr(), "b@"+testDomain, "pw", nil)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs := fetchAll(t, c)
	if len(msgs) != 5 {
		t.Fatalf("b holds %d messages, want 5", len(msgs))
	}
	for i, rcpt := range to[:2] {
		if !strings.HasPrefix(body(msgs[3+i]), "Delivered-To: "+rcpt+"\r\n") {
			t.Errorf("message %d lacks Delivered-To: %s", 3+i, rcpt)
		}
	}
	if !strings.Contains(body(msgs[3]), "\r\nReturn-Path: <a@x.org>\r\n") || !strings.Contains(body(msgs[1]), "\r\nReturn-Path: <>\r\n") {
		t.Errorf("the envelope sender is not recorded as Return-Path")
	}
	if !strings.Contains(body(msgs[2]), "with ESMTPA") {
		t.Errorf("authenticated submission not marked ESMTPA")
	}
}

func TestServer_AppendSearchExpungeList(t *testing.T) {
	srv := newTestServer(t, nil)
	c := dialIMAP(t, srv.IMAPAddr(), "erin@"+testDomain, DefaultPassword, nil)

	appendMsg := func(box, msg string, flags ...imap.Flag) *imap.AppendData {
		t.Helper()
		cmd := c.Append(box, int64(len(msg)), &imap.AppendOptions{Flags: flags, Time: time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)})
		if _, err := cmd.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Close(); err != nil {
			t.Fatal(err)
		}
		data, err := cmd.Wait()
		if err != nil {
			t.Fatalf("APPEND: %v", err)
		}
		return data
	}
	a1 := appendMsg("INBOX", testMessage("x@y.org", "erin", "first game", "pick 3"), imap.FlagSeen)
	a2 := appendMsg("INBOX", testMessage("z@y.org", "erin", "second", "conquer 12 roll"))
	if a1.UID != 1 || a2.UID != 2 || a1.UIDValidity == 0 {
		t.Errorf("APPENDUID = %+v %+v", a1, a2)
	}
	if err := c.Create("Games/Small World", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	appendMsg("Games/Small World", testMessage("x@y.org", "erin", "third", "x"))

	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	if want := []string{"Games", "Games/Small World", "INBOX"}; !slices.Equal(names, want) {
		t.Errorf("LIST = %v, want %v", names, want)
	}

	status, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true, NumUnseen: true, UIDNext: true, Size: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if *status.NumMessages != 2 || *status.NumUnseen != 1 || status.UIDNext != 3 || *status.Size == 0 {
		t.Errorf("STATUS = messages %d unseen %d uidnext %d", *status.NumMessages, *status.NumUnseen, status.UIDNext)
	}

	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	searches := []struct {
		name     string
		criteria imap.SearchCriteria
		want     []imap.UID
	}{
		{"all", imap.SearchCriteria{}, []imap.UID{1, 2}},
		{"unseen", imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, []imap.UID{2}},
		{"body", imap.SearchCriteria{Body: []string{"CONQUER"}}, []imap.UID{2}},
		{"text in header", imap.SearchCriteria{Text: []string{"first game"}}, []imap.UID{1}},
		{"header from", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "From", Value: "z@y.org"}}}, []imap.UID{2}},
		{"uid range", imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 2, Stop: 0}}}}, []imap.UID{2}},
		{"since", imap.SearchCriteria{Since: time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC)}, nil},
		{"not seen or from x", imap.SearchCriteria{Or: [][2]imap.SearchCriteria{{
			{NotFlag: []imap.Flag{imap.FlagSeen}}, {Header: []imap.SearchCriteriaHeaderField{{Key: "From", Value: "x@y.org"}}},
		}}}, []imap.UID{1, 2}},
	}
	for _, tt := range searches {
		t.Run("search "+tt.name, func(t *testing.T) {
			data, err := c.UIDSearch(&tt.criteria, nil).Wait()
			if err != nil {
				t.Fatal(err)
			}
			if got := data.AllUIDs(); !slices.Equal(got, tt.want) {
				t.Errorf("UID SEARCH = %v, want %v", got, tt.want)
			}
		})
	}

	if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	expunged, err := c.Expunge().Collect()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(expunged, []uint32{1}) {
		t.Errorf("EXPUNGE reported %v, want [1]", expunged)
	}
	if msgs := fetchAll(t, c); len(msgs) != 1 || msgs[0].UID != 2 {
		t.Errorf("after EXPUNGE: %d messages", len(msgs))
	}

	// EXAMINE is read-only: no implicit \Seen, no STORE.
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fetch(imap.UIDSetNum(2), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged}}, nil).Close(); err == nil {
		t.Error("STORE on an EXAMINEd mailbox succeeded")
	}
	if msgs := fetchAll(t, c); len(msgs[0].Flags) != 0 {
		t.Errorf("flags after EXAMINE + FETCH BODY[] = %v, want none", msgs[0].Flags)
	}

	if err := c.Rename("Games", "Old Games", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("Old Games/Small World").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("INBOX").Wait(); err == nil {
		t.Error("DELETE INBOX succeeded")
	}
	list, err = c.List("", "%", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	if want := []string{"INBOX", "Old Games"}; !slices.Equal(names, want) {
		t.Errorf("LIST %% = %v, want %v", names, want)
	}
}

func TestServer_ConcurrentClients(t *testing.T) {
	srv := newTestServer(t, nil)
	user := "turnmail@" + testDomain
	var expunges sync.Map
	newClient := func(name string) *imapclient.Client {
		return dialIMAP(t, srv.IMAPAddr(), user, DefaultPassword, &imapclient.Options{
			UnilateralDataHandler: &imapclient.UnilateralDataHandler{
				Expunge: func(seq uint32) { expunges.Store(name, seq) },
			},
		})
	}
	a, b := newClient("a"), newClient("b")
	for _, c := range []*imapclient.Client{a, b} {
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
	}

	// Deliveries from several SMTP clients at once while both IMAP clients
	// read.
	const senders, perSender = 4, 5
	var wg sync.WaitGroup
	errs := make(chan error, senders)
	for i := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range perSender {
				msg := testMessage("p@x.org", user, fmt.Sprintf("s%d-%d", i, j), "x")
				if err := sendSMTP(srv.SMTPAddr(), nil, "p@x.org", []string{user}, msg); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 10 {
			if err := b.Noop().Wait(); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	eventually(t, 5*time.Second, "both clients to see all messages", func() bool {
		return a.Noop().Wait() == nil && b.Noop().Wait() == nil &&
			a.Mailbox().NumMessages == senders*perSender && b.Mailbox().NumMessages == senders*perSender
	})
	msgsA, msgsB := fetchAll(t, a), fetchAll(t, b)
	if len(msgsA) != senders*perSender || len(msgsB) != len(msgsA) {
		t.Fatalf("a sees %d messages, b sees %d; want %d", len(msgsA), len(msgsB), senders*perSender)
	}
	for i, m := range msgsA {
		if m.UID != imap.UID(i+1) || body(m) != body(msgsB[i]) {
			t.Fatalf("message %d differs between clients or has UID %d", i, m.UID)
		}
	}

	// a flags and moves the first message; b learns it on its next command.
	if err := a.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Move(imap.UIDSetNum(1), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := b.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
	if seq, ok := expunges.Load("b"); !ok || seq.(uint32) != 1 {
		t.Errorf("b got EXPUNGE %v, want 1", seq)
	}
	if seq, ok := expunges.Load("a"); !ok || seq.(uint32) != 1 {
		t.Errorf("a got EXPUNGE %v, want 1", seq)
	}
	if got := b.Mailbox().NumMessages; got != senders*perSender-1 {
		t.Errorf("b counts %d messages after the move, want %d", got, senders*perSender-1)
	}
}

func TestServer_DeliverAndClose(t *testing.T) {
	path := t.TempDir() + "/t.db"
	db := openTestDB(t, path)
	srv, err := New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if srv.IMAPAddr() != "" || srv.Domain() != DefaultDomain {
		t.Errorf("IMAPAddr before Start = %q, Domain = %q", srv.IMAPAddr(), srv.Domain())
	}
	// Deliver works before Start; bare LF becomes CRLF.
	if err := srv.Deliver(context.Background(), "x@y.org", []byte("Subject: s\n\nbody\n")); err != nil {
		t.Fatal(err)
	}
	if err := srv.Deliver(context.Background(), "not an address", []byte("x")); !errors.Is(err, ErrBadAddress) {
		t.Errorf("Deliver to a bad address: %v, want ErrBadAddress", err)
	}
	if err := srv.Deliver(context.Background(), "x@y.org", make([]byte, DefaultMaxMessageBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Deliver of a huge message: %v, want ErrTooLarge", err)
	}
	var raw []byte
	if err := db.QueryRow(`SELECT raw FROM mbox_messages`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if got, want := string(raw), "Delivered-To: x@y.org\r\nSubject: s\r\n\r\nbody\r\n"; got != want {
		t.Errorf("stored %q, want %q", got, want)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v, want ErrClosed", err)
	}
	if err := srv.Deliver(context.Background(), "x@y.org", []byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Deliver after Close: %v, want ErrClosed", err)
	}
	if err := srv.Start(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v, want ErrClosed", err)
	}
}

func TestAccountAddress(t *testing.T) {
	srv := &Server{opts: (&Options{}).withDefaults()}
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"turnmail+TOKEN@turnmail.localhost", "turnmail@turnmail.localhost", true},
		{"Alice@Example.ORG", "alice@example.org", true},
		{"<bob+x@example.org>", "bob@example.org", true},
		{"carol", "carol@turnmail.localhost", true},
		{"+only@x.org", "+only@x.org", true},
		{"", "", false},
		{"@x.org", "", false},
		{"a@", "", false},
		{"a b@x.org", "", false},
		{"a@b@c", "", false},
		{`"q"@x.org`, "", false},
	}
	for _, tt := range tests {
		got, err := srv.accountAddress(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("accountAddress(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// TestServer_WriteTx: with Options.WriteTx every write of the server (account
// creation, delivery) runs through it, and a failing WriteTx fails the write.
func TestServer_WriteTx(t *testing.T) {
	db := openTestDB(t, t.TempDir()+"/t.db")
	var mu sync.Mutex
	calls := 0
	var fail error
	writeTx := func(ctx context.Context, f func(*sql.Tx) error) error {
		mu.Lock()
		calls++
		err := fail
		mu.Unlock()
		if err != nil {
			return err
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := f(tx); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	}
	srv, err := New(db, &Options{WriteTx: writeTx})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.Deliver(context.Background(), "x@y.org", []byte("Subject: s\r\n\r\nbody\r\n")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if calls == 0 {
		t.Error("Deliver did not write through WriteTx")
	}
	fail = errors.New("store closed")
	mu.Unlock()
	if err := srv.Deliver(context.Background(), "x@y.org", []byte("Subject: t\r\n\r\nbody\r\n")); err == nil {
		t.Error("Deliver succeeded although WriteTx failed")
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM mbox_messages`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d messages stored (%v), want 1", n, err)
	}
}
