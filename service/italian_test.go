package service_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
)

// notLanguage are the words of a mail that are no language: options (typed in
// English in every language: deadline=48h, expiry=skip|pause), paths and time zones,
// and the host's shell commands.
var notLanguage = regexp.MustCompile("\\S*[=|/@]\\S*|`[^`]*`")

// english returns the English words langcheck finds in an Italian text.
func english(text string) []string {
	return langcheck.English(notLanguage.ReplaceAllString(text, " "), nil)
}

// TestSettingsDescribe: the settings, as mails list them, in English (durations as
// they are typed) and in Italian (in words).
func TestSettingsDescribe(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		st     service.Settings
		en, it []string
	}{
		{"defaults", service.Settings{},
			[]string{"deadline: 1d after the turn begins", "reminders: 12h, 1h before the deadline", "when a deadline passes: skip", "vacation: up to 14 days per player"},
			[]string{"scadenza: 1 giorno dopo l'inizio del turno", "promemoria: 12 ore, 1 ora prima della scadenza",
				"alla scadenza: si salta la mossa e la partita va avanti (expiry=skip)", "vacanza: fino a 14 giorni per giocatore"}},
		{"everything", service.Settings{Deadline: "weekdays 20:00 Europe/Rome", Remind: []string{"90m", "1m"}, Expiry: service.ExpiryPause,
			VacationDays: 1, MaxPlayers: 3, List: "club@example.org", TZ: "Europe/Rome", Lang: i18n.Italian, Private: true},
			[]string{"deadline: weekdays 20:00 Europe/Rome (at least 12h after the turn begins)", "reminders: 1h30m, 1m before the deadline",
				"when a deadline passes: pause", "vacation: up to 1 day per player", "seats: 3", "mailing list: club@example.org",
				"times shown in: Europe/Rome", "language: Italian", "private: by invitation only"},
			[]string{"scadenza: nei giorni feriali alle 20:00 Europe/Rome (almeno 12 ore dopo l'inizio del turno)",
				"promemoria: 1 ora e 30 minuti, 1 minuto prima della scadenza", "alla scadenza: la partita va in pausa (expiry=pause)",
				"vacanza: fino a 1 giorno per giocatore", "posti: 3", "mailing list: club@example.org", "orari nel fuso: Europe/Rome",
				"lingua: italiano", "privata: solo su invito"}},
		{"daily, replace, no reminders", service.Settings{Deadline: "daily 9:30", Remind: []string{"none"}, Expiry: service.ExpiryReplace},
			[]string{"deadline: daily 09:30 UTC (at least 12h after the turn begins)", "reminders: none", "when a deadline passes: replace", "vacation: up to 14 days per player"},
			[]string{"scadenza: ogni giorno alle 09:30 UTC (almeno 12 ore dopo l'inizio del turno)", "promemoria: nessuno",
				"alla scadenza: all'organizzatore si chiede un sostituto (expiry=replace)", "vacanza: fino a 14 giorni per giocatore"}},
		{"no deadline", service.Settings{Deadline: "none"},
			[]string{"deadline: none", "no deadline, so no reminders"},
			[]string{"scadenza: nessuna", "senza scadenza, quindi senza promemoria"}},
		{"hours", service.Settings{Deadline: "36h", Remind: []string{"2h"}},
			[]string{"deadline: 36h after the turn begins", "reminders: 2h before the deadline", "when a deadline passes: skip", "vacation: up to 14 days per player"},
			[]string{"scadenza: 36 ore dopo l'inizio del turno", "promemoria: 2 ore prima della scadenza",
				"alla scadenza: si salta la mossa e la partita va avanti (expiry=skip)", "vacanza: fino a 14 giorni per giocatore"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.st.Describe(tr, i18n.English); !slices.Equal(got, c.en) {
				t.Errorf("English:\n%q\nwant\n%q", got, c.en)
			}
			got := c.st.Describe(tr, i18n.Italian)
			if !slices.Equal(got, c.it) {
				t.Errorf("Italian:\n%q\nwant\n%q", got, c.it)
			}
			if found := english(strings.Join(got, "\n")); len(found) > 0 {
				t.Errorf("English in the Italian settings: %q", found)
			}
		})
	}
}

// TestLobby_italian: a newcomer who writes the lobby commands in Italian is
// answered in Italian — help, the games, a rules summary, a game opened, errors —
// and so are the mails their commands cause: the host's notices, the confirmation
// request of a join in Italian and the answer to its sì. No English is left in
// them; an English writer still reads English.
func TestLobby_italian(t *testing.T) {
	f := newFixtureWith(t, games.Registry())
	ada, dan, eve := "ada@"+domain, "dan@"+domain, "eve@"+domain
	check := func(name, to string, want ...string) {
		t.Helper()
		body := f.lastBody(to)
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: no %q in:\n%s", name, w, body)
			}
		}
		if found := english(body); len(found) > 0 {
			t.Errorf("%s: English %q in:\n%s", name, found, body)
		}
	}

	before := f.gameIDs()
	if res := f.receive(f.mail(ada, svcAddr, "aiuto\npartite\nregole smallworld\nnuova tally deadline=2d\n")); res.Status != service.StatusApplied {
		t.Fatalf("Italian lobby mail: %+v", res)
	}
	check("help, games, rules, new", ada, "aiuto                           questo elenco", "regole GIOCO [NOME]", "Non c'è nessuna partita aperta",
		"Small World (2–5 giocatori)", "Comandi: prendi N, conquista R", "Ne sei l'organizzatore e giochi come ada",
		"scadenza: 2 giorni dopo l'inizio del turno", "unisciti ", "scrivi aiuto per i comandi")
	var id string
	for g := range f.gameIDs() {
		if !before[g] {
			id = g
		}
	}
	if lang := f.load(id).Settings.Lang; lang != i18n.Italian {
		t.Fatalf("a game opened in Italian has the language %q", lang)
	}

	f.receive(f.mail(dan, svcAddr, "unisciti "+id+"\n"))
	check("the confirmation request", dan, "Qualcuno ha chiesto a turnmail", "    unisciti "+id, "Se eri tu, rispondi a questa mail con sì")
	if res := f.confirm(dan, "Sì, grazie"); res.Status != service.StatusApplied {
		t.Fatalf("sì: %+v", res)
	}
	check("the answer to sì", dan, "Giochi nella partita "+id, "esci "+id)
	check("the host's notice", ada, "dan ("+dan+") ora gioca nella tua partita "+id, "Falla iniziare con: inizia "+id)

	f.receive(f.mail(dan, svcAddr, "nuova tally deadline=presto\nnuova scacchi\nunisciti zz-0000\nregole\n"))
	check("errors", dan, "deadline=presto: usa una durata", "Non è stato creato nulla", `non esiste il gioco "scacchi"`,
		"Non esiste la partita zz-0000", "Scrivi regole GIOCO")

	f.asHost(ada, id, "imposta "+id+" deadline=48h remind=6h\n")
	check("set", ada, "Le impostazioni della partita "+id+" ora sono:", "promemoria: 6 ore prima della scadenza")
	f.asHost(ada, id, "inizia "+id+"\n")
	check("start", ada, "La partita "+id+" (tally) è iniziata con ada, dan")

	f.receive(f.mail(eve, svcAddr, "games\n"))
	if body := f.lastBody(eve); !strings.Contains(body, "write help for the commands") {
		t.Errorf("an English writer is answered in Italian:\n%s", body)
	}
}

// TestInGame_italianNotices: a player who reads Italian gets the in-game answers
// in Italian, with the commands in Italian words: the undo request and its
// consent, the history (moves, settings, the undo in words), the resignation's
// confirmation line, which resigns when sent back. The other player reads English.
func TestInGame_italianNotices(t *testing.T) {
	sc := scenario{
		name:    "italian notices",
		players: []string{"alice", "bob"},
		steps: []step{
			{from: "alice", body: "lingua it\n", status: "applied"},
			{from: "alice", body: "add 5\n", status: "applied"},
			{from: "bob", body: "add 2\n", status: "applied"},
			{from: "alice", body: "annulla\n", status: "applied", mail: map[string]string{
				"alice": "Hai chiesto di annullare la mossa «bob: add 2». Sarà annullata quando avranno accettato: bob.",
				"bob":   "alice asks to take back the last move (bob: add 2).",
			}},
			{from: "bob", body: "accept\n", status: "applied"},
			{from: "alice", body: "vacanza 2026-12-24 2026-12-27\n", status: "applied", mail: map[string]string{
				"alice": "La tua vacanza dal gio 24 dicembre al dom 27 dicembre è registrata",
			}},
			{from: "alice", body: "storia\n", status: "applied", mail: map[string]string{
				"alice": "alice ha chiesto di annullare l'ultima mossa",
			}},
			{from: "alice", body: "abbandona la partita\n", status: "applied", mail: map[string]string{
				"alice": "    abbandona la partita conferma ",
			}},
			{from: "alice", body: "{code:alice}\n", status: "applied", mail: map[string]string{
				"bob": "alice resigned from game",
			}},
		},
	}
	g := newTurnGame(t, "host", sc.players...)
	for i, s := range sc.steps {
		g.play(i+1, s)
	}
	notices := map[string]string{} // alice's notices that stand alone (no state), by a phrase of theirs
	for _, m := range g.mails {
		for _, mark := range []string{"eventi della partita", "La tua vacanza", "abbandona la partita conferma"} {
			if _, seen := notices[mark]; !seen && m.To[0].Address == g.addr("alice") && strings.Contains(m.Body, mark) {
				notices[mark] = m.Body // the first: later state mails quote the line
			}
		}
	}
	for _, want := range []string{"alice legge le mail in italiano", "alice ha chiesto di annullare l'ultima mossa", "bob ha accettato di annullare la mossa",
		"annullata con il consenso di bob: bob: add 2", "alice: add 5"} {
		if !strings.Contains(notices["eventi della partita"], want) {
			t.Errorf("no %q in the Italian history:\n%s", want, notices["eventi della partita"])
		}
	}
	if len(notices) != 3 {
		t.Fatalf("alice got %d of the 3 notices", len(notices))
	}
	for _, body := range notices {
		if found := english(strings.ReplaceAll(body, "lingua it", "")); len(found) > 0 {
			t.Errorf("English %q in alice's Italian notice:\n%s", found, body)
		}
	}
}

// TestDeadlineNotices_italian: in an Italian game the reminder, the deadline that
// passed (skipped on the player's behalf, then handed to the host for a
// substitute) and the settings told to the host are in Italian, with Italian dates,
// durations and commands.
func TestDeadlineNotices_italian(t *testing.T) {
	f := newSchedFixture(t, 1)
	id := f.games[0]
	f.host("set", 0, "lang=it")
	last := func(addr string) string {
		t.Helper()
		rows, err := f.st.Outbox(context.Background(), "", "")
		if err != nil {
			t.Fatal(err)
		}
		for i := len(rows) - 1; i >= 0; i-- {
			m, err := parse.Parse(rows[i].Raw, nil)
			if err != nil {
				t.Fatal(err)
			}
			if strings.EqualFold(m.To[0].Address, addr) {
				return m.Body
			}
		}
		t.Fatalf("no mail to %s", addr)
		return ""
	}
	want := func(name, body string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !strings.Contains(body, p) {
				t.Errorf("%s: no %q in:\n%s", name, p, body)
			}
		}
		if found := english(body); len(found) > 0 {
			t.Errorf("%s: English %q in:\n%s", name, found, body)
		}
	}
	want("settings to the host", last(schedHost), "L'organizzatore ha cambiato le impostazioni della partita "+id+" (imposta lang=it)",
		"scadenza: 1 giorno dopo l'inizio del turno", "lingua: italiano")

	f.now = f.now.Add(12 * time.Hour)
	f.tick()
	want("reminder", last("alice@"+domain), "Promemoria: la tua mossa nella partita "+id+" (tally) scade lun 23 nov 09:00 UTC (tra 12 ore).",
		"Rispondi a questa mail con i tuoi comandi.")

	f.now = f.now.Add(12 * time.Hour)
	f.tick()
	want("deadline skipped", last("alice@"+domain), "La tua scadenza nella partita "+id+" è passata (lun 23 nov 09:00 UTC). Al posto tuo turnmail ha giocato:\n  - pass") // tally tells nothing and has no Italian words

	f.host("set", 0, "expiry=replace")
	f.now = f.now.Add(24 * time.Hour)
	f.tick()
	want("deadline replace", last(schedHost), "La scadenza di bob nella partita "+id+" è passata (mar 24 nov 09:00 UTC).", "    sostituisci "+id+" bob INDIRIZZO")
}
