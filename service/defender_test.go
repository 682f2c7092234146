package service_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
)

// defenderGame plays a Small World game between alice and bob (in lang, the clock at
// *now) up to bob's conquest of a region of alice's, who holds two more: at bob's
// `done` alice must redeploy the tokens she took back. It returns the fixture and
// the region bob took.
func defenderGame(t *testing.T, lang i18n.Lang, now *time.Time, before ...string) (*fixture, string) {
	t.Helper()
	reg := games.Registry()
	reg["tally"] = testgame.Tally{}
	f := newFixtureOptions(t, reg, func(o *service.Options) { o.Clock = func() time.Time { return *now } })
	id, err := f.svc.CreateGame(context.Background(), service.NewGame{Kind: "smallworld", Seed: 7, Settings: service.Settings{Lang: lang},
		Players: []engine.Player{{Name: "alice", Email: "alice@" + domain}, {Name: "bob", Email: "bob@" + domain}}})
	if err != nil {
		t.Fatal(err)
	}
	f.game = id
	f.reply["alice"], f.reply["bob"] = f.svc.ReplyAddress(id, 0), f.svc.ReplyAddress(id, 1)
	alice, bob := "alice@"+domain, "bob@"+domain
	for _, c := range before {
		f.play("alice", alice, c)
	}
	f.play("alice", alice, "pick 1")
	for range 3 {
		f.play("alice", alice, f.legalWith("alice", "conquer"))
	}
	f.play("alice", alice, "done")
	f.play("bob", bob, "pick 1")
	target := f.conquestOf("bob", "alice")
	if target == "" {
		t.Fatal("bob cannot reach alice's regions")
	}
	f.play("bob", bob, target)
	f.play("bob", bob, "done")
	return f, strings.TrimPrefix(target, "conquer ")
}

// TestDefender_askedBriefly: a defender who must redeploy is asked out of turn with
// the response deadline (2 hours), and their mail says who took which region, what
// is done if they do not answer and by when, and the standing order, once (their
// account does not end with the ask again, as the others' does); `done` says where the tokens go; the player who waits is told by when; when
// the deadline passes the tokens are placed and the game goes on.
func TestDefender_askedBriefly(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f, region := defenderGame(t, i18n.Italian, &now)
	l := f.load(f.game)
	if !engine.Responding(l.State, "alice") {
		t.Fatalf("alice is not asked to redeploy: to act %v", l.State.ToAct())
	}
	d := l.Deadlines()
	if len(d) != 1 || d[0].Player != "alice" || d[0].Due.Sub(now) != 2*time.Hour {
		t.Fatalf("deadlines %+v, want alice's in 2h", d)
	}
	mail := oneLine(f.lastMailTo("alice@" + domain))
	for _, want := range []string{
		"bob ha conquistato la tua regione " + region + ": rischiera i segnalini che hai in mano",
		"Tocca a te — entro dom 22 nov 14:00 UTC",
		"Se non rispondi in tempo, vengono piazzati automaticamente: +",
		"Perché succeda così ogni volta, invia: rischiera sempre automatico",
		"fatto # i tuoi segnalini in mano (",
	} {
		if !strings.Contains(mail, want) {
			t.Errorf("alice's mail lacks %q:\n%s", want, mail)
		}
	}
	if strings.Contains(mail, "segnalini persi negli attacchi") { // the ask, said again at the end of her account
		t.Errorf("alice's mail says twice that she must redeploy:\n%s", mail)
	}
	waiting := oneLine(f.lastMailTo("bob@" + domain))
	for _, want := range []string{"In attesa di alice", "alice ha tempo fino a dom 22 nov 14:00 UTC per rispondere.",
		"alice deve rischierare sulle sue regioni i segnalini persi negli attacchi"} {
		if !strings.Contains(waiting, want) {
			t.Errorf("bob's mail lacks %q:\n%s", want, waiting)
		}
	}
	now = now.Add(2*time.Hour + time.Minute)
	if _, err := f.svc.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	l = f.load(f.game)
	if engine.Responding(l.State, "alice") || l.State.Turn() != 2 {
		t.Fatalf("after the deadline alice is still asked (turn %d)", l.State.Turn())
	}
	ms := f.gameMailsTo("alice@" + domain)
	for _, m := range ms[len(ms)-2:] { // the deadline's notice and her state mail
		if body := oneLine(m.Body); !strings.Contains(body, "i segnalini in mano di alice sono stati piazzati automaticamente: +") {
			t.Errorf("alice's mail does not say where her tokens went:\n%s", body)
		}
	}
}

// TestDefender_standingOrder: "redeploy always auto" (Italian "rischiera sempre
// automatico") places a defender's tokens at once: the game does not wait for them.
func TestDefender_standingOrder(t *testing.T) {
	for _, tc := range []struct {
		lang  i18n.Lang
		order string
	}{{i18n.English, "redeploy always auto"}, {i18n.Italian, "rischiera sempre automatico"}} {
		t.Run(string(tc.lang), func(t *testing.T) {
			now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
			f, _ := defenderGame(t, tc.lang, &now, tc.order)
			l := f.load(f.game)
			if engine.Responding(l.State, "alice") || l.State.Turn() != 2 {
				t.Fatalf("alice's standing order did not answer: to act %v, turn %d", l.State.ToAct(), l.State.Turn())
			}
			if l.Settings.Prefs["alice"].Respond != service.OrderAuto {
				t.Errorf("alice's order is %q", l.Settings.Prefs["alice"].Respond)
			}
		})
	}
}

// TestBid_askedBriefly: an Empire player's secret bid is asked with the response
// deadline and says what is bid for them; "respond auto" bids 0 for them at once.
func TestBid_askedBriefly(t *testing.T) {
	f := newGameFixture(t, "empire", service.Settings{}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	f.play("bob", "bob@"+domain, "respond auto")
	r := rand.New(rand.NewPCG(1, 2))
	for step := 0; step < 40; step++ {
		l := f.load(f.game)
		if engine.Responding(l.State, "alice") {
			break
		}
		who := l.State.ToAct()[0]
		var cmd string
		for _, e := range l.State.Legal(who) {
			if cmd = selfplay.Fill(e, r); cmd != "" {
				break
			}
		}
		f.play(who, who+"@"+domain, cmd)
	}
	l := f.load(f.game)
	if !engine.Responding(l.State, "alice") || engine.Responding(l.State, "bob") {
		t.Fatalf("bid phase: alice asked %v, bob asked %v (to act %v); want alice asked, bob's bid made by his order",
			engine.Responding(l.State, "alice"), engine.Responding(l.State, "bob"), l.State.ToAct())
	}
	if d := l.Deadlines(); len(d) != 1 || d[0].Player != "alice" || d[0].Due.Sub(d[0].Start) != 2*time.Hour {
		t.Errorf("deadlines %+v, want alice's 2h after the bid phase began", d)
	}
	if mail := oneLine(f.lastMailTo("alice@" + domain)); !strings.Contains(mail, "Every player bids coins in secret for the first turn") || !strings.Contains(mail, ", you bid 0 coins.") {
		t.Errorf("alice's mail does not say why she bids and what is bid otherwise:\n%s", mail)
	}
}
