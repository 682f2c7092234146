package service_test

import (
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
)

// lastBody is the body of the last mail to addr ("" when there is none).
func (f *fixture) lastBody(addr string) string {
	m := f.mailsTo(addr)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1].Body
}

// TestLobbyLang_playerSetting: once a player chose Italian for themselves (lingua it
// in a game), the lobby answers them in Italian even to English words, in a game
// that names no language; the other player still reads English.
func TestLobbyLang_playerSetting(t *testing.T) {
	f := newFixture(t, 100)
	alice, bob := "alice@"+domain, "bob@"+domain
	if res := f.receive(f.mail(alice, f.reply["alice"], "lingua it\n")); res.Status != service.StatusApplied {
		t.Fatalf("lingua it: %+v", res)
	}
	f.receive(f.mail(alice, svcAddr, "games\n"))
	f.receive(f.mail(bob, svcAddr, "games\n"))
	const italian = "scrivi aiuto per i comandi" // the lobby answer's footer
	if got := f.lastBody(alice); !strings.Contains(got, italian) {
		t.Errorf("alice's lobby answer is not in Italian:\n%s", got)
	}
	if got := f.lastBody(bob); strings.Contains(got, italian) {
		t.Errorf("bob's lobby answer is in Italian:\n%s", got)
	}
	// Each mail says its language (RFC 3282), for clients and screen readers.
	for addr, want := range map[string]string{alice: "it", bob: "en"} {
		ms := f.mailsTo(addr)
		if got := ms[len(ms)-1].Header.Get("Content-Language"); got != want {
			t.Errorf("the lobby answer to %s has Content-Language %q, want %q", addr, got, want)
		}
	}
}

// TestSetLang: the host may change a running game's language (set lang=it|en); the
// change is recorded, survives a reload, and the players read the game's mail in it;
// a bad value is refused. The host's own answers stay in the host's language, not
// the game's.
func TestSetLang(t *testing.T) {
	f := newFixture(t, 100)
	g := f.hostedGame(hostAddr, "")
	if res := f.asHost(hostAddr, g, "set "+g+" lang=it\n"); res.Status != service.StatusApplied {
		t.Fatalf("set lang=it: %+v", res)
	}
	if lang := f.load(g).Settings.Lang; lang != "it" {
		t.Fatalf("game language %q after set lang=it", lang)
	}
	alice := "alice@" + domain
	f.receive(f.mail(alice, f.svc.ReplyAddress(g, 0), "bogus\n"))
	if got := f.lastBody(alice); !strings.Contains(got, "sconosciuto") && !strings.Contains(got, "Non ") {
		t.Errorf("alice's answer in a game set to Italian is not Italian:\n%s", got)
	}
	// a host command to the host address, in English, is answered in English
	f.asHost(hostAddr, g, "resume "+g+"\n")
	if got := f.lastBody(hostAddr); !strings.Contains(got, "The game is not paused.") {
		t.Errorf("the host's answer is not in English:\n%s", got)
	}
	if res := f.asHost(hostAddr, g, "set "+g+" lang=fr\n"); res.Status != service.StatusRejected {
		t.Errorf("set lang=fr: %+v", res)
	}
	f.asHost(hostAddr, g, "set "+g+" lang=en\n")
	if lang := f.load(g).Settings.Lang; lang != "en" {
		t.Errorf("game language %q after set lang=en", lang)
	}
}

// TestWhen_serviceLanguage: with the service's default language Italian, dates in a
// game that names no language (and a player who chose none) are Italian; the
// history says the day once, over its events, and a time once for the events of
// the same minute.
func TestWhen_serviceLanguage(t *testing.T) {
	f := newFixtureOptions(t, engine.Registry{"tally": testgame.Tally{}}, func(o *service.Options) {
		o.RepliesPerHour, o.Language = 100, "it"
	})
	alice, bob := "Alice@"+domain, "Bob@"+domain
	f.receive(f.mail(alice, f.reply["alice"], "add 2\n"))
	f.receive(f.mail(bob, f.reply["bob"], "add 3\n"))
	f.receive(f.mail(alice, f.reply["alice"], "history\n"))
	got := f.lastBody(alice)
	if !strings.Contains(got, "dom 22 novembre (UTC)\n  1. ") {
		t.Errorf("history with the service's default Italian has no Italian day over its events:\n%s", got)
	}
	if strings.Count(got, "22 nov") != 1 || strings.Count(got, "12:00") != 1 {
		t.Errorf("the history repeats the day or the time:\n%s", got)
	}
}

// TestSay_italian: di is the Italian say, to all (di TESTO) and to one (di GIOCATORE
// TESTO); the log keeps the canonical say/tell, and a player who reads Italian is
// answered in Italian.
func TestSay_italian(t *testing.T) {
	sc := scenario{
		name: "di",
		steps: []step{
			{from: "alice", body: "lingua it\n", status: "applied"},
			{from: "alice", body: "di ciao a tutti\n", status: "applied", mail: map[string]string{
				"bob": "alice says:\n    ciao a tutti\n", "carol": "alice says:\n    ciao a tutti\n",
			}},
			{from: "alice", body: "Dì bob alleati?\n", status: "applied", mail: map[string]string{
				"bob": "alice says (to you only):\n    alleati?",
			}, noMail: map[string]string{"carol": "alleati"}},
			{from: "alice", body: "di\n", status: "rejected", reason: "dì vuole un messaggio"},
			{from: "alice", body: "di alice io?\n", status: "rejected", reason: "Non puoi dire qualcosa a te stesso"},
		},
		wantToAct: "alice",
		wantLog: []string{
			`admin alice: {"admin":"lang","value":"it"}`,
			`admin alice: {"admin":"say","text":"ciao a tutti"}`,
			`admin alice: {"admin":"tell","player":"bob","text":"alleati?"}`,
		},
	}
	sc.run(t)
}

// TestLobbyNew_optionErrorItalian: a bad option of a new game opened in Italian is
// explained in Italian, the engine's own words included.
func TestLobbyNew_optionErrorItalian(t *testing.T) {
	reg := games.Registry()
	reg["tally"] = testgame.Tally{}
	f := newFixtureWith(t, reg)
	ann := "ann@" + domain
	f.receive(f.mail(ann, svcAddr, "nuova smallworld map=atlantide\n"))
	got := f.lastBody(ann)
	for _, want := range []string{"map=atlantide: si scrive map=smallworld-2p|", "Non è stato creato nulla"} {
		if !strings.Contains(got, want) {
			t.Errorf("the answer lacks %q:\n%s", want, got)
		}
	}
	f.receive(f.mail(ann, svcAddr, "nuova dungeoneer map=vista\n"))
	if got := f.lastBody(ann); !strings.Contains(got, "map=vista: si scrive map=explore|view") {
		t.Errorf("the answer lacks the Italian of Dungeoneer's option error:\n%s", got)
	}
}

// TestInGame_italianAnswers: the answers to in-game commands that cannot be done are
// in the reader's Italian, the reasons the service or the settings give included.
func TestInGame_italianAnswers(t *testing.T) {
	f := newFixture(t, 100)
	alice := "alice@" + domain
	f.receive(f.mail(alice, f.reply["alice"], "lingua it\n"))
	for _, c := range []struct{ body, want string }{
		{"rispondi mai\n", "Questo gioco non ha risposte fuori turno."},
		{"fuso Marte/Olimpo\n", `"marte/olimpo" non è un fuso orario`},
		{"partite\n", "partite è un comando dell'indirizzo del servizio"},
	} {
		f.receive(f.mail(alice, f.reply["alice"], c.body))
		got := f.lastBody(alice)
		if !strings.Contains(got, c.want) {
			t.Errorf("answer to %q lacks %q:\n%s", c.body, c.want, got)
		}
		if left := langcheck.English(got, nil); len(left) > 0 {
			t.Errorf("answer to %q has English: %q\n%s", c.body, left, got)
		}
	}
}

// TestEveryCommand_italian sends every service command in its Italian words — alone,
// with a word it does not take and with too many — in a game and to the lobby, from a
// player who reads Italian (a new game for each command, so that none changes what
// the next one meets): no answer holds an English word.
func TestEveryCommand_italian(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	alice := "alice@" + domain
	answers, words := 0, tr.Words(i18n.ServiceDomain)
	for _, w := range words {
		if w[0] == "lang" {
			continue // would change the reader's language
		}
		f := newFixture(t, 1000)
		f.receive(f.mail(alice, f.reply["alice"], "lingua it\n"))
		for _, line := range []string{w[1], w[1] + " xq", w[1] + " xq yq zq wq"} {
			for _, to := range []string{f.reply["alice"], svcAddr} {
				before := len(f.mailsTo(alice))
				f.receive(f.mail(alice, to, line+"\n"))
				ms := f.mailsTo(alice)
				if len(ms) == before {
					continue // no answer (the how-to is sent once a day)
				}
				m := ms[len(ms)-1]
				answers++
				if left := langcheck.English(m.Subject+"\n"+m.Body, nil); len(left) > 0 {
					t.Errorf("answer to %q (to %s) has English: %q\n%s", line, to, left, m.Body)
				}
			}
		}
	}
	if answers < 3*len(words) {
		t.Errorf("only %d answers to %d commands: the test reads too little", answers, 6*len(words))
	}
}

// TestLobbyNew_italianOptionNames: a game opened in Italian may name its options in
// Italian too (lingua=, giocatori=, scadenza=); they are stored as the canonical
// settings.
func TestLobbyNew_italianOptionNames(t *testing.T) {
	f := newFixture(t, 100)
	ann := "ann@" + domain
	before := f.gameIDs()
	if res := f.receive(f.mail(ann, svcAddr, "nuova tally lingua=en giocatori=2 scadenza=48h\n")); res.Status != service.StatusApplied {
		t.Fatalf("nuova with Italian option names: %+v\n%s", res, f.lastBody(ann))
	}
	var id string
	for g := range f.gameIDs() {
		if !before[g] {
			id = g
		}
	}
	if id == "" {
		t.Fatalf("no game opened:\n%s", f.lastBody(ann))
	}
	st := f.load(id).Settings
	if st.Lang != "en" || st.MaxPlayers != 2 || st.Deadline != "48h" {
		t.Errorf("settings %+v: want lang en, 2 players, deadline 48h", st)
	}
}
