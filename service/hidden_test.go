package service_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
)

// hiddenForms are the ways a list of card ids can be written in a mail or an
// archive: a JSON list, a text list, a line of ids.
func hiddenForms(ids []string) []string {
	return []string{`"` + strings.Join(ids, `","`) + `"`, strings.Join(ids, ", "), strings.Join(ids, " ")}
}

// queuedMail is a mail queued to one address, as its reader reads it.
type queuedMail struct {
	id       int64
	to, body string
}

// queued returns the mails queued since the outbox row *seen, and moves *seen on.
func queued(t *testing.T, f *fixture, seen *int64) []queuedMail {
	t.Helper()
	rows, err := f.st.Outbox(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	var out []queuedMail
	for _, r := range rows {
		if r.ID <= *seen {
			continue
		}
		*seen = r.ID
		m, err := parse.Parse(r.Raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, queuedMail{r.ID, r.To[0], m.Body})
	}
	return out
}

// TestHiddenInformation plays a dungeoneer game through the service, mail by mail,
// and reads every mail queued to a player or observer: none contains another
// player's hand or a run of the deck's order, and no archive a player or observer
// receives has the seed or the outcomes of the shuffles and random discards, while
// the host's export has them all.
func TestHiddenInformation(t *testing.T) {
	reg := engine.Registry{"tally": testgame.Tally{}, "dungeoneer": dungeoneer.Game{}}
	f := newFixtureRegistry(t, 100000, reg)
	ctx := context.Background()
	names := []string{"ann", "bob", "cid"}
	ng := service.NewGame{Kind: "dungeoneer", Seed: 42}
	for _, n := range names {
		ng.Players = append(ng.Players, engine.Player{Name: n, Email: n + "@" + domain})
	}
	id, err := f.svc.CreateGame(ctx, ng)
	if err != nil {
		t.Fatal(err)
	}
	seen := int64(0)
	check := func(l *service.Loaded) {
		t.Helper()
		full := l.State.View("").(dungeoneer.View)
		for _, r := range queued(t, f, &seen) {
			for _, p := range full.Players {
				if strings.EqualFold(r.to, p.Name+"@"+domain) || len(p.Hand) < 2 {
					continue // one's own hand is one's own
				}
				for _, form := range hiddenForms(p.Hand) {
					if strings.Contains(r.body, form) {
						t.Fatalf("mail %d to %s contains %s's hand %q", r.id, r.to, p.Name, form)
					}
				}
			}
		}
	}
	for n := 0; n < 120; n++ {
		l, err := f.svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		check(l)
		toAct := l.State.ToAct()
		if len(toAct) == 0 {
			break
		}
		who := toAct[0]
		legal := l.State.Legal(who)
		cmd := selfplay.Fill(legal[n%len(legal)], rand.New(rand.NewPCG(1, uint64(n))))
		for _, c := range legal { // keep the game moving: close phases soon
			if c == "done" || c == "pass" || strings.HasPrefix(c, "quest ") {
				cmd = c
			}
		}
		seat := 0
		for _, p := range l.Seats() {
			if p.Name == who {
				seat = p.Seat
			}
		}
		line := cmd
		res := f.receive(f.mail(who+"@"+domain, f.svc.ReplyAddress(id, seat), line))
		if res.Status != service.StatusApplied {
			t.Fatalf("%s: %q: %s %s", who, cmd, res.Status, res.Reason)
		}
	}
	l, err := f.svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	host := l.Archive()
	hostJSON, _ := json.Marshal(host)
	deck := host.SetupOutcomes["deck"]
	if len(deck) == 0 || !strings.Contains(string(hostJSON), `"seed"`) {
		t.Fatalf("the host's archive lacks the deck order or the seed: %s", hostJSON[:200])
	}
	var order []string
	_ = json.Unmarshal(deck, &order)
	for _, viewer := range append(names, engine.Observer) {
		b := service.ArchiveFile(f.svc, l, viewer)
		if b == nil {
			t.Fatalf("no archive for %s", viewer)
		}
		for _, leak := range append(hiddenForms(order[20:24]), `"seed":`, `"deck":`, `"reshuffle`, `"discard":`, `"discard.`, `"maps":`, `"quests":`) {
			if strings.Contains(string(b), leak) {
				t.Errorf("%s's archive contains %s", viewer, leak)
			}
		}
		if !strings.Contains(string(b), `"redacted"`) {
			t.Errorf("%s's archive does not say what it leaves out", viewer)
		}
	}
}

// TestHiddenInformation_mapInView plays the placement round of a game with the map in
// view (map=view) through the service and reads every mail queued to a player or
// observer: none shows a map card another player holds — by its line in a list of
// cards or in a build command — but those the reader passed on to that player; no
// archive a player or observer receives has the deal, while the host's has it.
func TestHiddenInformation_mapInView(t *testing.T) {
	reg := engine.Registry{"tally": testgame.Tally{}, "dungeoneer": dungeoneer.Game{}}
	f := newFixtureRegistry(t, 100000, reg)
	ctx := context.Background()
	names := []string{"ann", "bob", "cid"}
	ng := service.NewGame{Kind: "dungeoneer", Seed: 42, Options: map[string]json.RawMessage{"map": json.RawMessage(`"view"`)}}
	for _, n := range names {
		ng.Players = append(ng.Players, engine.Player{Name: n, Email: n + "@" + domain})
	}
	id, err := f.svc.CreateGame(ctx, ng)
	if err != nil {
		t.Fatal(err)
	}
	seen, mails := int64(0), 0
	check := func(l *service.Loaded) {
		t.Helper()
		full := l.State.View("").(dungeoneer.View).Complete
		b, _ := json.Marshal(full)
		var held struct {
			Seats []struct {
				Name   string   `json:"name"`
				Maps   []string `json:"maps"`
				Passed []string `json:"passed"`
			} `json:"seats"`
		}
		if err := json.Unmarshal(b, &held); err != nil {
			t.Fatal(err)
		}
		for _, r := range queued(t, f, &seen) {
			mails++
			var passed []string // what the reader passed on, which it knows
			for _, s := range held.Seats {
				if strings.EqualFold(r.to, s.Name+"@"+domain) {
					passed = s.Passed
				}
			}
			for _, s := range held.Seats {
				if strings.EqualFold(r.to, s.Name+"@"+domain) {
					continue
				}
				for _, c := range s.Maps {
					card, _ := dungeoneer.Card(c)
					if slices.Contains(passed, c) {
						continue
					}
					for _, leak := range []string{c + " " + card.Name.En + " (", "build " + c + " "} {
						if strings.Contains(r.body, leak) {
							t.Fatalf("mail %d to %s shows %s of %s's map cards: %q", r.id, r.to, c, s.Name, leak)
						}
					}
				}
			}
		}
	}
	for n := 0; ; n++ {
		l, err := f.svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		check(l)
		if v := l.State.View("").(dungeoneer.View); v.Phase != "layout" {
			if n < 19 {
				t.Fatalf("the placement round ended after %d placements", n)
			}
			break
		}
		who := l.State.ToAct()[0]
		seat := 0
		for _, p := range l.Seats() {
			if p.Name == who {
				seat = p.Seat
			}
		}
		entry := l.State.Legal(who)[0]
		if n == 0 {
			// The line copied whole, its choice of rotations left in: refused, with
			// how to send it.
			res := f.receive(f.mail(who+"@"+domain, f.svc.ReplyAddress(id, seat), entry))
			if want := "still has a choice in it: send the line with one of the values of <"; res.Status != service.StatusRejected || !strings.Contains(res.Reason, want) {
				t.Fatalf("%q sent as listed: %s %q, want rejected with %q", entry, res.Status, res.Reason, want)
			}
		}
		cmd := selfplay.Fill(entry, rand.New(rand.NewPCG(1, 1)))
		if res := f.receive(f.mail(who+"@"+domain, f.svc.ReplyAddress(id, seat), cmd)); res.Status != service.StatusApplied {
			t.Fatalf("%s: %q: %s %s", who, cmd, res.Status, res.Reason)
		}
	}
	if mails < 20 {
		t.Fatalf("only %d mails read", mails)
	}
	l, err := f.svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Archive().SetupOutcomes["maps"]) == 0 {
		t.Fatal("the host's archive lacks the deal")
	}
	for _, viewer := range append(names, engine.Observer) {
		b := service.ArchiveFile(f.svc, l, viewer)
		if strings.Contains(string(b), `"maps":`) || strings.Contains(string(b), `"seed":`) {
			t.Errorf("%s's archive has the deal or the seed", viewer)
		}
	}
}
