package templates

import (
	"github.com/turnmail/turnmail/templates/doc"

	"html"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
)

// italianFrame are state mails and refusals of a game without a section of its own
// (the generic view), in Italian: every part of the frame that any game's mail has —
// what was applied and refused, what happened (an undo among it), the deadline, the
// legal commands, waiting, the end with scores and the archive, observers.
var italianFrame = []struct {
	name, kind string
	data       any
}{
	{"state-it", "state", State{
		Game: playGame, Player: "ann", ToAct: []string{"ann"}, YourTurn: true, Lang: "it",
		Applied: []Line{{N: 1, Text: "aggiungi 3"}}, Error: &LineError{Line: Line{N: 2, Text: "aggiungi 99"}, Reason: "99 non è tra 1 e 9"},
		Moves: []Move{{Seq: 3, Player: "ben", Command: "aggiungi 2"}, {Seq: 4, Kind: "undo", Command: "ben ha annullato aggiungi 2"}},
		Legal: []string{"aggiungi <1-9>"}, Deadline: "mar 24 nov 21:00 UTC",
		View:    map[string]any{"turn": 2.0, "players": []any{map[string]any{"name": "ann", "score": 3.0}, map[string]any{"name": "ben", "score": 1.0}}},
		ReplyTo: "turnmail+ta-k3p2.0.xxxx@example.org",
	}},
	{"state-it-cut", "state", State{
		Game: playGame, Player: "ben", ToAct: []string{"ann"}, Lang: "it", Applied: []Line{{N: 7, Text: "aggiungi 1"}}, AppliedCut: 6,
		Moves: []Move{{Seq: 9, Player: "ann", Command: "aggiungi 1"}}, MovesCut: 20, Legal: []string{"di <testo>"},
		View: map[string]any{"turn": 3.0, "players": []any{map[string]any{"name": "ben", "score": 4.0}}},
	}},
	{"state-it-observer", "state", State{
		Game: playGame, Observer: true, ToAct: []string{"ann"}, Lang: "it", Opening: true,
		View: map[string]any{"turn": 1.0, "players": []any{map[string]any{"name": "ann", "score": 0.0}}},
	}},
	{"state-it-finished", "state", State{
		Game: playGame, Player: "ann", Finished: true, Winners: []string{"ann"}, Lang: "it",
		Scores:  []Score{{Player: "ann", Total: 12, Parts: []string{"regioni: 10", "bonus: 2"}}, {Player: "ben", Total: 9}},
		Archive: &Attachment{Name: "ta-k3p2.json"},
		View:    map[string]any{"turn": 9.0, "players": []any{map[string]any{"name": "ann", "score": 12.0}}},
	}},
	{"state-it-redacted", "state", State{
		Game: playGame, Player: "ben", Finished: true, Winners: []string{"ann", "ben"}, Lang: "it", Archive: &Attachment{Name: "ta-k3p2.json", Redacted: true},
		View: map[string]any{"turn": 9.0, "players": []any{map[string]any{"name": "ben", "score": 12.0}}},
	}},
	{"refusal-it", "refusal", Refusal{
		Game: playGame, Player: "ann", Lang: "it", Applied: []Line{{N: 1, Text: "aggiungi 3"}},
		Error: &LineError{Line: Line{N: 2, Text: "aggiungi 99"}, Reason: "99 non è tra 1 e 9"},
		Legal: []string{"aggiungi <1-9>"}, ReplyTo: "turnmail+ta-k3p2.0.xxxx@example.org",
		ToAct: []string{"ann"}, YourTurn: true, Deadline: "sab 28 nov 17:00 UTC",
		View: map[string]any{"turn": 2.0, "players": []any{map[string]any{"name": "ann", "score": 3.0}}},
	}},
	{"refusal-it-typo", "refusal", Refusal{
		Game: playGame, Player: "ann", Lang: "it",
		Error: &LineError{Line: Line{N: 1, Text: "agiungi 3", Suggest: "aggiungi 3"}, Reason: `"agiungi" non è un comando: intendevi aggiungi 3?`},
		Legal: []string{"aggiungi <1-9>"}, ReplyTo: "turnmail+ta-k3p2.0.xxxx@example.org", ToAct: []string{"ann"}, YourTurn: true,
	}},
	{"refusal-it-waiting", "refusal", Refusal{
		Game: playGame, Player: "ben", Lang: "it", Reason: "La partita è in pausa.", ToAct: []string{"ann"},
	}},
}

// TestRender_italianFrame renders the frame of the state mails and refusals in
// Italian: no English word in the subject, the text or the HTML (whose page says
// lang="it"); the first samples are golden.
func TestRender_italianFrame(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range italianFrame {
		t.Run(s.name, func(t *testing.T) {
			subject, text, htmlPart := renderMail(t, set, s.kind, s.data)
			for part, body := range map[string]string{"subject": subject, "text": text, "html": htmlTextOf(htmlPart)} {
				if left := langcheck.English(body, nil); len(left) > 0 {
					t.Errorf("English in the %s: %q\n%s", part, left, body)
				}
			}
			if !strings.Contains(htmlPart, `<html lang="it">`) {
				t.Errorf("the HTML part is not marked Italian:\n%s", htmlPart[:200])
			}
			if err := checkHTML(htmlPart); err != nil {
				t.Errorf("HTML part: %v", err)
			}
			if s.name == "state-it" || s.name == "refusal-it" || s.name == "state-it-finished" {
				golden(t, filepath.Join("testdata", s.name+".golden"), "Subject: "+subject+"\n\n"+text)
				golden(t, filepath.Join("testdata", s.name+".html.golden"), htmlPart)
			}
		})
	}
}

// htmlMarkup matches the markup of an HTML part.
var htmlMarkup = regexp.MustCompile(`(?s)<style>.*?</style>|<[^>]*>`)

// htmlTextOf returns the words of an HTML part: its text without markup, entities
// decoded.
func htmlTextOf(h string) string { return html.UnescapeString(htmlMarkup.ReplaceAllString(h, "\n")) }

// italianData are the fields of the notice samples that the service fills in the
// reader's language (settings, dates, commands, history, messages): an Italian reader's
// notices carry them in Italian.
var italianData = map[string]func(*Notice){
	"held": func(n *Notice) {
		n.Text = "Alcune mail per te sono state trattenute (risposte alle tue mail): turnmail ne invia solo un certo numero all'ora, perché la posta non giri mai all'infinito.\n\nLa posta riprende sab 28 nov 21:00 UTC. Le tue mosse ricevono sempre risposta; scrivi stato nella mail di una partita per riceverne lo stato."
	},
	"text":  func(n *Notice) { n.Text = "A cy@example.org è stato chiesto di confermare." },
	"rule":  func(n *Notice) { n.Text = "Uomini Ratto (razza): nessuna abilità: la loro forza è il numero." },
	"error": func(n *Notice) { n.Text = "Non esiste la partita zz-0000; scrivi partite per l'elenco." },
	"created": func(n *Notice) {
		n.Lines = []string{"scadenza: 2 giorni dopo l'inizio del turno", "promemoria: 12 ore, 1 ora prima della scadenza"}
	},
	"confirm-invite": func(n *Notice) { n.Lines = []string{"scadenza: 1 giorno dopo l'inizio del turno"} },
	"confirm-self":   func(n *Notice) { n.Lines = []string{"unisciti ta-k3p2", "osserva ta-k3p2"} },
	"done":           func(n *Notice) { n.Text = "pausa" },
	"failed-lobby":   func(n *Notice) { n.Text = "nuova tally" }, // the writer's own words
	"settings": func(n *Notice) {
		n.Lines = []string{"scadenza: 2 giorni dopo l'inizio del turno", "alla scadenza: la partita va in pausa (expiry=pause)"}
	},
	"settings-changed": func(n *Notice) {
		n.Text, n.Due = "imposta deadline=48h expiry=pause", "mer 25 nov 09:00 UTC"
		n.Lines = []string{"scadenza: 2 giorni dopo l'inizio del turno", "alla scadenza: la partita va in pausa (expiry=pause)"}
	},
	"history": func(n *Notice) {
		n.Moves = []Move{{Seq: 1, Player: "ann", Command: "add 3", Day: "dom 22 novembre (UTC)", Time: "12:00"},
			{Seq: 2, Player: "ann", Command: "chiede di annullare l'ultima mossa", Kind: "admin", Day: "dom 22 novembre (UTC)", Time: "12:00"},
			{Seq: 3, Command: "con il consenso di ben si annulla ann: add 3", Kind: "undo", Day: "lun 23 novembre (UTC)", Time: "09:30"}}
	},
	"resign-confirm": func(n *Notice) { n.Text = "abbandona la partita conferma abcdefgh" },
	"reminder":       func(n *Notice) { n.Text = "12 ore" },
	"vacation":       func(n *Notice) { n.Text, n.Due = "dal 2026-12-24 al 2026-12-27", "lun 28 dic 12:00 UTC" },
	"chat": func(n *Notice) {
		n.Moves = []Move{{Player: "ann", Command: "In bocca al lupo! <b>davvero</b>"}, {Player: "ann", Command: "alleati?", Kind: "private"}}
	},
	"said": func(n *Notice) { n.Moves = []Move{{Player: "ben, cy", Command: "In bocca al lupo!"}} },
}

// italianExtra are notice kinds the golden samples leave out, in Italian.
var italianExtra = map[string]Notice{
	"rule-it":          {Kind: "rule", Game: Game{Kind: "smallworld", Title: "Small World"}, Text: "Uomini Ratto (razza): nessuna abilità: la loro forza è il numero."},
	"paused-service":   {Kind: "paused", Game: playGame, To: "ben", Actor: "the service"},
	"pending-game":     {Kind: "pending", Game: noticeGame},
	"rules-necro":      {Kind: "rules", Game: Game{Kind: "necromancer", Title: "Small World: Necromancer Island"}},
	"rules-under":      {Kind: "rules", Game: Game{Kind: "underground", Title: "Small World Underground"}},
	"rules-empire":     {Kind: "rules", Game: Game{Kind: "empire", Title: "Eight-Minute Empire: Legends"}},
	"rules-dungeoneer": {Kind: "rules", Game: Game{Kind: "dungeoneer"}},
	"rules-tally":      {Kind: "rules", Game: Game{Kind: "tally", Title: "tally"}},
	"rules-unknown":    {Kind: "rules", Game: Game{Kind: "chess", Title: "chess"}},
	"created-list":     {Kind: "created", Game: noticeGame, Player: "ann", Address: "club@lists.example.org", HostReply: "turnmail+ta-k3p2.host.xxxx@example.org"},
	"started-nobody":   {Kind: "started", Game: noticeGame},
	"failed-host-bare": {Kind: "failed-host", Game: playGame, Address: "ben@example.org", Text: "boom"},
	"failed-game":      {Kind: "failed", Game: playGame, Host: ""},
	"legal-nothing":    {Kind: "legal", Game: playGame, To: "ann", ToAct: []string{"ben"}},
	"games-seats":      {Kind: "games", Games: []GameInfo{{Game: noticeGame, Status: "open", Count: 1}}},
}

// italianSamples are every notice sample and extra kind, a lobby answer and a how-to,
// as an Italian reader gets them.
func italianSamples() []struct {
	name, kind string
	data       any
} {
	type sample = struct {
		name, kind string
		data       any
	}
	var out []sample
	add := func(name string, n Notice) {
		n.Lang, n.Service = "it", "turnmail@example.org"
		if n.ReplyTo == "" {
			n.ReplyTo = "turnmail@example.org"
		}
		if n.When != "" || n.Kind == "confirm" {
			n.When = "lun 30 nov 12:00 UTC UTC"
		}
		if n.Due != "" {
			n.Due = "lun 23 nov 13:00 UTC"
		}
		if f := italianData[name]; f != nil {
			f(&n)
		}
		out = append(out, sample{"notice-" + name, "notice", n})
	}
	for _, k := range noticeSampleKinds {
		add(k, noticeSamples[k])
	}
	extra := make([]string, 0, len(italianExtra))
	for k := range italianExtra {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	for _, k := range extra {
		add(k, italianExtra[k])
	}
	lobby := Lobby{Service: "turnmail@example.org", Lang: "it", Answers: []Notice{
		{Kind: "created", Command: "nuova tally deadline=2d", Game: noticeGame, Player: "ann", Lines: []string{"scadenza: 2 giorni dopo l'inizio del turno"}},
		{Kind: "invited", Command: "invita ta-k3p2 ben@example.org", Game: noticeGame, Address: "ben@example.org"},
		{Kind: "games", Command: "partite", Games: []GameInfo{{Game: noticeGame, Status: "open", Count: 2, Seats: 3}}},
		{Kind: "error", Command: "inzia ta-k3p2", Text: "turnmail non conosce questo comando."},
		{Kind: "error", Command: "unisciti ta-k3pq", Text: "Non esiste la partita ta-k3pq: intendevi unisciti ta-k3p2? (scrivi partite per l'elenco)", Brief: true,
			Suggest: "unisciti ta-k3p2", ReplyTo: "turnmail@example.org"},
	}}
	for i := range lobby.Answers {
		lobby.Answers[i].Lang, lobby.Answers[i].Service = "it", lobby.Service
	}
	out = append(out, sample{"lobby", "lobby", lobby})
	out = append(out, sample{"howto", "howto", HowTo{Player: "ann", Service: "turnmail@example.org", Lang: "it", Word: "nouva", Games: []HowToGame{
		{Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World"}, ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org"}}}})
	return out
}

// noticeKindRe finds the notice kinds a template tells apart.
var noticeKindRe = regexp.MustCompile(`eq \.Kind "([a-z-]+)"`)

// loadBoth loads the templates and the catalogues they read.
func loadBoth(t *testing.T) (*Set, *i18n.Bundle) {
	t.Helper()
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	return set, tr
}

// renderMail renders a mail kind with data: its subject, text and HTML part.
func renderMail(t *testing.T, set *Set, kind string, data any) (subject, text, h string) {
	t.Helper()
	text, h, err := set.Render(kind, data)
	if err != nil {
		t.Fatal(err)
	}
	if subject, err = set.Subject(kind, data); err != nil {
		t.Fatal(err)
	}
	return subject, text, h
}

// TestRender_italian renders every notice kind and lobby answer for an Italian reader:
// no English word is left in the subject, the text or the HTML part (a topic that
// fell back to the notice's English kind would be found too), and no line of the
// text is longer than MaxLine (the commands to copy aside).
func TestRender_italian(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range italianSamples() {
		t.Run(s.name, func(t *testing.T) {
			subject, text, h := renderMail(t, set, s.kind, s.data)
			if n, ok := s.data.(Notice); ok {
				if topic := set.noticeTopic(n); topic == "" || topic == string(n.Kind) {
					t.Errorf("the topic of a %s notice is %q, not words", n.Kind, topic)
				}
			}
			for part, body := range map[string]string{"subject": subject, "text": text, "html": htmlTextOf(h)} {
				var allow langcheck.Allowed
				if n, ok := s.data.(Notice); ok {
					allow = langcheck.Rulebook(n.Game.Kind)
				}
				if found := langcheck.English(body, allow); len(found) > 0 {
					t.Errorf("%s part has English: %q\n%s", part, found, body)
				}
			}
			commands := map[string]bool{}
			for _, c := range legalLines(s.data) {
				commands[doc.CommandIndent+c] = true
			}
			for i, l := range strings.Split(text, "\n") {
				if n := utf8.RuneCountInString(l); n > MaxLine && !commands[l] {
					t.Errorf("line %d has %d characters:\n%s", i+1, n, l)
				}
			}
		})
	}
}

// TestRender_italianEveryKind: the Italian samples cover every notice kind, and so
// do the English ones (the golden mails of both languages).
func TestRender_italianEveryKind(t *testing.T) {
	have := map[NoticeKind]bool{}
	for _, s := range italianSamples() {
		if n, ok := s.data.(Notice); ok {
			have[n.Kind] = true
		}
		if l, ok := s.data.(Lobby); ok {
			for _, n := range l.Answers {
				have[n.Kind] = true
			}
		}
	}
	english := map[NoticeKind]bool{}
	for _, n := range noticeSamples {
		english[n.Kind] = true
	}
	for k := range noticeKinds {
		if !have[k] {
			t.Errorf("no Italian sample of the notice kind %q", k)
		}
		if !english[k] {
			t.Errorf("no English sample of the notice kind %q", k)
		}
	}
}

// TestRender_goldenItalian compares the important Italian mails with their golden
// files (testdata/it-*.golden; rewritten with -update).
func TestRender_goldenItalian(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, s := range italianSamples() {
		found++
		t.Run(s.name, func(t *testing.T) {
			subject, text, h := renderMail(t, set, s.kind, s.data)
			golden(t, filepath.Join("testdata", "it-"+s.name+".golden"), "Subject: "+subject+"\n\n"+text)
			golden(t, filepath.Join("testdata", "it-"+s.name+".html.golden"), h)
		})
	}
	if found < len(noticeKinds) {
		t.Errorf("only %d Italian golden samples for %d kinds of notice", found, len(noticeKinds))
	}
}

// italianPlaceholders are the Italian words for the placeholders of the commands the
// templates show (GAME-ID, ADDRESS …), as the Italian documentation writes them.
var italianPlaceholders = strings.NewReplacer("PARTITA", "GAME-ID", "GIOCO", "GAME", "NOME", "NAME", "INDIRIZZO", "ADDRESS",
	"GIOCATORE", "PLAYER", "DAL", "FROM", "AL", "TO", "FUSO", "ZONE", "TESTO", "TEXT", "opzione=valore", "option=value")

// TestCommandKeysItalian: every command the notice templates show to copy, as an
// Italian catalogue text (a command with placeholders, "rules GAME [NAME]"), is the
// same command in Italian words: read back (i18n.Bundle.Canonical, placeholders in
// English) it is its key. A command key is one whose English starts with a service
// verb and whose Italian starts with that verb's Italian word.
func TestCommandKeysItalian(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, key := range tr.Keys(i18n.Italian, "templates") {
		it := tr.Sprintf(i18n.Italian, key, "x", "y")
		en := tr.Sprintf(i18n.English, key, "x", "y")
		verb := strings.Fields(en)[0]
		word := tr.Word(i18n.ServiceDomain, i18n.Italian, verb)
		if word == verb || !strings.HasPrefix(it, word+" ") && it != word {
			continue
		}
		if _, command := tr.Canonical("", it); !command {
			continue // a sentence that starts with a command's keyword ("with", "ask")
		}
		checked++
		for i, part := range strings.Split(it, ", ") {
			want := strings.Split(en, ", ")
			if i >= len(want) {
				t.Errorf("%q: Italian %q has more commands than the English", key, it)
				break
			}
			got, _ := tr.Canonical("", strings.ReplaceAll(part, "|", " "))
			if got = italianPlaceholders.Replace(got); got != strings.ReplaceAll(want[i], "|", " ") {
				t.Errorf("%q: the Italian %q reads back as %q", key, part, got)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d command keys checked", checked)
	}
}

// TestRulesCommandsItalian: the commands an Italian rules summary lists are each
// game's Italian command words: each reads back (i18n.Bundle.Canonical) as a command
// the English summary lists.
func TestRulesCommandsItalian(t *testing.T) {
	set, tr := loadBoth(t)
	for game, cmds := range map[string][]string{
		"smallworld":  {"prendi N", "conquista R", "conquista R tira", "abbandona R", "rischiera R=N", "declino", "fatto"},
		"necromancer": {"tieni N", "compra fantasma", "compra potere N", "conquista R", "rischiera", "fatto"},
		"underground": {"scambia", "vulcano", "antico", "fatuo", "vampiro", "rinasci", "sacca", "corazza", "regina", "spada",
			"calzini", "tappetino", "globo", "fantasma", "scettro", "anello", "altare"},
		"empire":     {"prendi N", "piazza", "muovi", "città", "distruggi", "salta"},
		"dungeoneer": {"gioca CARTA su GIOCATORE FORMA", "fatto", "costruisci MAPPA a X,Y rot R", "esplora", "missione MISSIONE", "sfida GIOCATORE FORMA", "scarta CARTA"},
	} {
		it, _, err := set.Render("notice", Notice{Kind: "rules", Game: Game{Kind: game}, Lang: "it"})
		if err != nil {
			t.Fatal(err)
		}
		en, _, err := set.Render("notice", Notice{Kind: "rules", Game: Game{Kind: game}})
		if err != nil {
			t.Fatal(err)
		}
		it, en = strings.Join(strings.Fields(it), " "), strings.Join(strings.Fields(en), " ")
		for _, c := range cmds {
			canon, italian := tr.Canonical(game, c)
			canon = strings.NewReplacer("CARTA", "CARD", "GIOCATORE", "PLAYER", "FORMA", "FORM", "MAPPA", "MAP", "MISSIONE", "QUEST").Replace(canon)
			switch {
			case !strings.Contains(it, c):
				t.Errorf("%s: the Italian summary does not list %q:\n%s", game, c, it)
			case !italian:
				t.Errorf("%s: %q is no Italian command", game, c)
			case !strings.Contains(en, canon):
				t.Errorf("%s: %q reads back as %q, which the English summary does not list:\n%s", game, c, canon, en)
			}
		}
	}
}

// TestRender_italianDative: a player's name after "to" takes the Italian
// preposition its first letter asks for ("ad alice", "a ben"), in the turn and in
// the notices that name whom something went to.
func TestRender_italianDative(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		s    sample
		want string
	}{
		{sample{"said", "notice", Notice{Kind: "said", Game: playGame, To: "ben", Lang: "it", Moves: []Move{{Player: "alice", Command: "Ciao!"}}}}, "Inoltrato ad alice:"},
		{sample{"said", "notice", Notice{Kind: "said", Game: playGame, To: "alice", Lang: "it", Moves: []Move{{Player: "ben", Command: "Ciao!"}}}}, "Inoltrato a ben:"},
		{sample{"turn", "state", State{Game: playGame, Player: "ben", ToAct: []string{"Anna"}, Lang: "it", View: map[string]any{"turn": 1.0}}}, "Tocca ad Anna"},
	} {
		checkItalian(t, set, tt.s, nil, []string{tt.want})
	}
}
