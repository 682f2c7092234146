package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/service"
)

// regionOwners returns the owner of each region of a Small World game, by id.
func (f *fixture) regionOwners() map[int]string {
	f.t.Helper()
	l, err := f.svc.Load(context.Background(), f.game)
	if err != nil {
		f.t.Fatal(err)
	}
	b, _ := json.Marshal(l.State.View(""))
	var v struct {
		Regions []struct {
			ID    int     `json:"id"`
			Owner *string `json:"owner"`
		} `json:"regions"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		f.t.Fatal(err)
	}
	out := map[int]string{}
	for _, r := range v.Regions {
		if r.Owner != nil {
			out[r.ID] = *r.Owner
		}
	}
	return out
}

// play sends one command by mail and fails unless it was applied.
func (f *fixture) play(player, addr, cmd string) {
	f.t.Helper()
	if res := f.receive(f.mail(addr, f.reply[player], cmd+"\n")); res.Status != "applied" {
		f.t.Fatalf("%s: %s: %s %s", player, cmd, res.Status, res.Reason)
	}
}

// TestAccount_defenderIsTold: when bob conquers a region of alice's, alice's next
// mail says, in words and marked as hitting her, who attacked which region with
// which race and what she lost — not just "bob: conquer N".
func TestAccount_defenderIsTold(t *testing.T) {
	f, target := smallWorldAttack(t)
	alice, bob := "alice@"+domain, "bob@"+domain
	before := len(f.gameMailsTo(alice))
	f.play("bob", bob, target)
	f.play("bob", bob, "done")
	got := f.gameMailsTo(alice)[before:]
	if len(got) == 0 {
		t.Fatal("alice got no mail after bob's turn")
	}
	body := strings.Join(strings.Fields(got[len(got)-1].Body), " ") // undo the wrapping
	region := strings.TrimPrefix(target, "conquer ")
	for _, want := range []string{"! bob (", "conquered region " + region + " from alice (", "alice lost 1 token,"} {
		if !strings.Contains(body, want) {
			t.Errorf("alice's mail does not say %q:\n%s", want, got[len(got)-1].Body)
		}
	}
}

// TestAccount_endOfGame: the mail that ends a game gives the final scores with their
// breakdown, attaches the game's archive as GAME.json — a document that replays to
// the same final state, without the players' addresses — says how to replay it, and
// no longer says where moves go.
func TestAccount_endOfGame(t *testing.T) {
	f := newGameFixture(t, "smallworld", service.Settings{}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	addr := map[string]string{"alice": "alice@" + domain, "bob": "bob@" + domain}
	conquests := 0
	for i := 0; ; i++ {
		if i > 400 {
			t.Fatal("the game did not end in 400 commands")
		}
		l, err := f.svc.Load(context.Background(), f.game)
		if err != nil {
			t.Fatal(err)
		}
		if l.State.Finished() {
			break
		}
		p := l.State.ToAct()[0]
		cmd := ""
		for _, c := range l.State.Legal(p) {
			switch {
			case engine.IsPattern(c):
			case c == "pick 1" || (strings.HasPrefix(c, "conquer ") && !strings.HasSuffix(c, "roll") && conquests < 2):
				cmd = c
			case c == "done" && cmd == "":
				cmd = c
			}
		}
		if strings.HasPrefix(cmd, "conquer") {
			conquests++
		} else {
			conquests = 0
		}
		if cmd == "" {
			t.Fatalf("%s has nothing to play: %v", p, l.State.Legal(p))
		}
		f.play(p, addr[p], cmd)
	}
	mails := f.gameMailsTo(addr["bob"])
	last := mails[len(mails)-1]
	body := last.Body
	for _, want := range []string{"Final scores:", "  - alice: ", "  - bob: ", "regions: ", "power abilities: ",
		"The game's record is attached (" + f.game + ".json)"} {
		if !strings.Contains(body, want) {
			t.Errorf("the last mail does not say %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "your moves go to") {
		t.Errorf("the end-of-game mail still says where moves go:\n%s", body)
	}
	raw := f.lastRawTo(addr["bob"])
	name, data := attachment(t, raw)
	if name != f.game+".json" {
		t.Fatalf("attachment %q, want %s.json", name, f.game)
	}
	var a engine.Archive
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatalf("the attachment is not an archive: %v", err)
	}
	if bytes.Contains(data, []byte("@"+domain)) {
		t.Errorf("the attached archive has the players' addresses:\n%s", data)
	}
	// Small World hides its stacks' order and the seed from the players (engine.Redact):
	// their copy says so and does not replay; the host's export does.
	if !slices.Equal(a.Redacted, []string{"outcome.powers", "outcome.races", "setup.seed"}) || !strings.Contains(body, "cannot be replayed") {
		t.Errorf("the attached archive leaves out %v; the mail says:\n%s", a.Redacted, body)
	}
	if _, err := engine.Replay(games.Registry(), &a, -1); !errors.Is(err, engine.ErrRedacted) {
		t.Errorf("the redacted copy replays: %v", err)
	}
	host, _ := f.svc.Load(context.Background(), f.game)
	st, err := engine.Replay(games.Registry(), host.Archive(), -1)
	if err != nil {
		t.Fatalf("the host's archive does not replay: %v", err)
	}
	l, _ := f.svc.Load(context.Background(), f.game)
	if st.Hash() != l.State.Hash() {
		t.Errorf("the attached archive replays to another state")
	}
}

// attachment returns the name and bytes of a mail's attachment.
func attachment(t *testing.T, raw []byte) (string, []byte) {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			t.Fatal("the mail has no attachment")
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*gomail.AttachmentHeader); ok {
			name, _ := h.Filename()
			b, err := io.ReadAll(p.Body)
			if err != nil {
				t.Fatal(err)
			}
			return name, b
		}
	}
}

// lastRawTo returns the last mail queued to addr, as sent.
func (f *fixture) lastRawTo(addr string) []byte {
	f.t.Helper()
	rows, err := f.st.Outbox(context.Background(), "", "")
	if err != nil {
		f.t.Fatal(err)
	}
	var raw []byte
	for _, r := range rows {
		if strings.EqualFold(r.To[0], addr) {
			raw = r.Raw
		}
	}
	return raw
}
