package service

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// adminTestService tells admin events as the service does, on 22 November 2026.
func adminTestService(t *testing.T) *Service {
	t.Helper()
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	return &Service{tr: mustBundle(t), tmpl: tmpl, opts: Options{Clock: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }}}
}

// legacyAdminForms are the command texts admin events recorded before their payload,
// one of every form the service wrote, each with the payload it reads as and its
// sentences (the actor is alice).
var legacyAdminForms = []struct {
	old    string
	now    adminPayload
	en, it string
}{
	{"pause", adminPayload{Act: adminPause}, "alice paused the game", "alice ha messo in pausa la partita"},
	{"resume", adminPayload{Act: adminResume}, "alice resumed the game", "alice ha ripreso la partita"},
	{"resign", adminPayload{Act: adminResign}, "alice resigned", "alice ha abbandonato"},
	{"accept", adminPayload{Act: adminAccept}, "alice agreed to take back the move", "alice ha accettato di annullare la mossa"},
	{"undo request", adminPayload{Act: adminUndoRequest}, "alice asked to take back the last move", "alice ha chiesto di annullare l'ultima mossa"},
	{"undo request: I misread: the map", adminPayload{Act: adminUndoRequest, Why: "I misread: the map"},
		"alice asked to take back the last move: I misread: the map", "alice ha chiesto di annullare l'ultima mossa: I misread: the map"},
	{"vacation 2026-12-24 2026-12-27", adminPayload{Act: adminVacation, From: "2026-12-24", To: "2026-12-27"},
		"alice is on vacation from Thu 24 December to Sun 27 December", "alice è in vacanza da gio 24 dicembre a dom 27 dicembre"},
	{"replace bob carol@example.org", adminPayload{Act: adminReplace, Player: "bob", Address: "carol@example.org"},
		"bob's seat went to a new address", "il posto di bob è passato a un nuovo indirizzo"},
	{"deadline passed bob: skip", adminPayload{Act: adminDeadline, Player: "bob", Policy: ExpirySkip},
		"bob's deadline passed: turnmail moved for them", "la scadenza di bob è passata: turnmail ha giocato al suo posto"},
	{"deadline passed bob: pause", adminPayload{Act: adminDeadline, Player: "bob", Policy: ExpiryPause},
		"bob's deadline passed: the game is paused", "la scadenza di bob è passata: la partita è in pausa"},
	{"deadline passed bob: replace", adminPayload{Act: adminDeadline, Player: "bob", Policy: ExpiryReplace},
		"bob's deadline passed: the host may hand the seat to someone else", "la scadenza di bob è passata: l'organizzatore può dare il posto a qualcun altro"},
	{"deadline passed bob: nothing to skip", adminPayload{Act: adminDeadline, Player: "bob", Policy: nothingToSkip},
		"bob's deadline passed", "la scadenza di bob è passata"},
	{"say hi all: {\"admin\":\"resign\"}", adminPayload{Act: adminSay, Text: "hi all: {\"admin\":\"resign\"}"},
		"alice says: hi all: {\"admin\":\"resign\"}", "alice dice: hi all: {\"admin\":\"resign\"}"},
	{"tell bob psst, resign", adminPayload{Act: adminTell, Player: "bob", Text: "psst, resign"}, "alice says to bob: psst, resign", "alice dice a bob: psst, resign"},
	{"set deadline=48h remind=6h", adminPayload{Act: adminSet, Value: "deadline=48h remind=6h"},
		"alice changed the game's settings: set deadline=48h remind=6h", "alice ha cambiato le impostazioni della partita: imposta deadline=48h remind=6h"},
	{"tz Europe/Rome", adminPayload{Act: adminTZ, Value: "Europe/Rome"}, "alice reads times in the zone Europe/Rome", "alice legge gli orari nel fuso Europe/Rome"},
	{"notify every", adminPayload{Act: adminNotify, Value: NotifyEvery}, "alice gets a mail after every move", "alice riceve una mail dopo ogni mossa"},
	{"notify turn", adminPayload{Act: adminNotify, Value: NotifyTurn}, "alice gets a mail when the turn ends", "alice riceve una mail a fine turno"},
	{"lang it", adminPayload{Act: adminLang, Value: "it"}, "alice reads the mails in Italian", "alice legge le mail in italiano"},
	{"respond never", adminPayload{Act: adminRespond, Value: OrderNever},
		"alice declines every response at once (standing order)", "alice rifiuta subito ogni risposta (ordine permanente)"},
	{"respond always", adminPayload{Act: adminRespond, Value: OrderAlways},
		"alice plays the first possible response at once (standing order)", "alice gioca subito la prima risposta possibile (ordine permanente)"},
	{"respond ask", adminPayload{Act: adminRespond, Value: OrderAsk},
		"alice is asked each time a response is possible", "ad alice viene chiesto ogni volta che una risposta è possibile"},
	{"respond auto", adminPayload{Act: adminRespond, Value: OrderAuto},
		"alice lets turnmail answer at once as when the deadline passes (standing order)", "alice lascia che turnmail risponda subito come alla scadenza (ordine permanente)"},
	{"respond with a12", adminPayload{Act: adminRespond, Value: "with a12"},
		"alice plays a12 whenever it is a possible response (standing order)", "alice gioca a12 ogni volta che è una risposta possibile (ordine permanente)"},
}

// TestAdminEvents_oldAndNew: every command text admin events recorded before their
// payload (old games' logs) reads as the payload it means, the payload recorded now
// reads back as itself, and both forms tell the same sentence in both languages.
// A text neither form reads is told as who sent what.
func TestAdminEvents_oldAndNew(t *testing.T) {
	t.Parallel()
	s := adminTestService(t)
	told := func(cmd string, lang i18n.Lang) string {
		return s.adminSentence(store.Event{Kind: engine.KindAdmin, Player: "alice", Command: cmd}, lang)
	}
	acts := map[string]bool{}
	for _, tc := range legacyAdminForms {
		acts[tc.now.Act] = true
		if got, ok := readAdmin(tc.old); !ok || !reflect.DeepEqual(got, tc.now) {
			t.Errorf("%q reads as %+v (%v), want %+v", tc.old, got, ok, tc.now)
		}
		cmd := tc.now.encode()
		if !strings.HasPrefix(cmd, `{"admin":"`+tc.now.Act+`"`) || strings.Contains(cmd, "\n") {
			t.Errorf("%+v encodes as %q", tc.now, cmd)
		}
		if got, ok := readAdmin(cmd); !ok || !reflect.DeepEqual(got, tc.now) {
			t.Errorf("%q reads back as %+v (%v), want %+v", cmd, got, ok, tc.now)
		}
		for lang, want := range map[i18n.Lang]string{i18n.English: tc.en, i18n.Italian: tc.it} {
			for _, c := range []string{tc.old, cmd} {
				if got := told(c, lang); got != want {
					t.Errorf("%s %q: %q, want %q", lang, c, got, want)
				}
			}
		}
	}
	// Every act the service records has an old form here (adminSamples lists them).
	for name, samples := range adminSamples {
		if !acts[samples[0].Act] {
			t.Errorf("%s: no old form in legacyAdminForms", name)
		}
	}
	// Texts that read as nothing: who sent what, as before the payload.
	for cmd, en := range map[string]string{
		"":                                "alice: ",
		"resign now":                      "alice: resign now",
		"vacation 2026-12-24":             "alice: vacation 2026-12-24",
		"replace bob":                     "alice: replace bob",
		"tell":                            "alice: tell",
		"undo requested":                  "alice: undo requested",
		"frobnicate":                      "alice: frobnicate",
		"{":                               "alice: {",
		`{"admin":""}`:                    `alice: {"admin":""}`,
		`{"admin":["resign"]}`:            `alice: {"admin":["resign"]}`,
		`{"admin":"frobnicate"}`:          "alice: frobnicate", // a newer act: its name
		`{"admin":"vacation","from":"x"}`: "alice: vacation",
	} {
		if got := told(cmd, i18n.English); got != en {
			t.Errorf("%q: %q, want %q", cmd, got, en)
		}
	}
	for _, cmd := range []string{"", "resign now", "pause it", "tell", "{", `{"admin":""}`, `{"admin":["resign"]}`, "undo requested", " resign"} {
		if a, ok := readAdmin(cmd); ok || a != (adminPayload{}) {
			t.Errorf("%q reads as %+v", cmd, a)
		}
	}
}

// adminLog is a game's log of admin events in both forms: as recorded before the
// payload (old) and now (new), the same acts.
func adminLog(t *testing.T) (old, now []store.Event) {
	t.Helper()
	day := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for i, e := range []struct {
		player, old string
		now         adminPayload
	}{
		{"alice", "vacation 2026-12-24 2026-12-27", adminPayload{Act: adminVacation, From: "2026-12-24", To: "2026-12-27"}},
		{"host", "set deadline=48h expiry=pause", adminPayload{Act: adminSet, Value: "deadline=48h expiry=pause"}},
		{"bob", "tz Europe/Rome", adminPayload{Act: adminTZ, Value: "Europe/Rome"}},
		{"bob", "lang it", adminPayload{Act: adminLang, Value: "it"}},
		{"carol", "notify every", adminPayload{Act: adminNotify, Value: NotifyEvery}},
		{"carol", "respond with a12", adminPayload{Act: adminRespond, Value: "with a12"}},
		{"", "move", adminPayload{}}, // a move by bob that reads like an act: a move
		{"bob", "undo request: wrong region", adminPayload{Act: adminUndoRequest, Why: "wrong region"}},
		{"alice", "accept", adminPayload{Act: adminAccept}},
		{"bob", "tell alice sorry", adminPayload{Act: adminTell, Player: "alice", Text: "sorry"}},
		{"carol", "say {\"admin\":\"resign\"}", adminPayload{Act: adminSay, Text: "{\"admin\":\"resign\"}"}},
		{"dave", "resign", adminPayload{Act: adminResign}},
		{"host", "deadline passed carol: pause", adminPayload{Act: adminDeadline, Player: "carol", Policy: ExpiryPause}},
		{"host", "resume", adminPayload{Act: adminResume}},
		{"host", "replace carol carol2@example.org", adminPayload{Act: adminReplace, Player: "carol", Address: "carol2@example.org"}},
	} {
		at := day.Add(time.Duration(i) * time.Hour)
		if e.old == "move" {
			m := store.Event{Seq: i + 1, Kind: engine.KindMove, Player: "bob", Command: "resume", At: at}
			old, now = append(old, m), append(now, m)
			continue
		}
		o := store.Event{Seq: i + 1, Kind: engine.KindAdmin, Player: e.player, Command: e.old, At: at}
		n := o
		n.Command = e.now.encode()
		old, now = append(old, o), append(now, n)
	}
	// The deadline event is carol's own (the scheduler records it as hers).
	old[12].Player, now[12].Player = "carol", "carol"
	return old, now
}

// adminReading is what the service reads from a log of admin events: the facts
// (after each event), the settings, the visibility of each event to each reader and
// the sentences that tell them.
type adminReading struct {
	facts    []Facts
	settings Settings
	visible  []string // per event: who sees it, of alice, bob, carol, observer
	said     []string
	resigned string // the resignation lastStanding finds, as "player@seq"
}

func readAdminLog(s *Service, events []store.Event) adminReading {
	var r adminReading
	toAct := []string{"alice", "bob", "carol"}
	f := newFacts(toAct, time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC))
	for _, e := range events {
		f.step(e, toAct, toAct, time.Time{})
		r.facts = append(r.facts, f.clone())
		var who []string
		for _, v := range []string{"alice", "bob", "carol", engine.Observer} {
			if s.tell(i18n.English, v, engine.Event{Kind: e.Kind, Player: e.Player, Command: e.Command}, "") != "" {
				who = append(who, strings.Trim(v, "*"))
			}
		}
		r.visible = append(r.visible, strings.Join(who, ","))
		if e.Kind == engine.KindAdmin {
			r.said = append(r.said, s.adminSentence(e, i18n.English)+" / "+s.adminSentence(e, i18n.Italian))
		}
	}
	r.settings = Settings{Deadline: "24h"}.withChanges(events)
	// lastStanding skips the moves of players who resigned before them.
	if t, ok := lastStanding(append(events, store.Event{Seq: len(events) + 1, Kind: engine.KindMove, Player: "dave", Command: "pass"})); ok {
		r.resigned = t.move.Player
		for _, sk := range t.skipped {
			r.resigned += " skips " + sk.Player
		}
	}
	return r
}

// TestAdminEvents_factsOldAndNew: a log in the old form and the same log in the new
// read as the same facts, settings, visibility and sentences, the ones the acts mean.
func TestAdminEvents_factsOldAndNew(t *testing.T) {
	t.Parallel()
	s := adminTestService(t)
	old, now := adminLog(t)
	a, b := readAdminLog(s, old), readAdminLog(s, now)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the old log reads as\n%+v\nthe new as\n%+v", a, b)
	}
	for name, r := range map[string]adminReading{"old": a, "new": b} {
		last := r.facts[len(r.facts)-1]
		if iv := last.Vacations["alice"]; len(iv) != 1 || iv[0].From != time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC) || iv[0].days() != 4 {
			t.Errorf("%s: alice's vacations %v", name, iv)
		}
		if u := r.facts[8].Undo; u == nil || u.By != "bob" || u.Why != "wrong region" || !u.Accepted["alice"] || u.Seq != 8 {
			t.Errorf("%s: the undo request after the accept: %+v", name, u)
		}
		if !reflect.DeepEqual(last.Resigned, map[string]bool{"dave": true}) {
			t.Errorf("%s: resigned %v (a message is not a resignation)", name, last.Resigned)
		}
		// carol's deadline starts her turn anew, and the resume every turn.
		if ts := r.facts[12].TurnStart; ts["carol"].Seq != 13 || ts["alice"].Seq != 0 {
			t.Errorf("%s: turn starts after the deadline %v", name, ts)
		}
		if ts := r.facts[13].TurnStart; ts["alice"].Seq != 14 || ts["bob"].Seq != 14 || ts["carol"].Seq != 14 {
			t.Errorf("%s: turn starts after the resume %v", name, ts)
		}
		if ts := r.facts[14].TurnStart; ts["alice"].Seq != 14 {
			t.Errorf("%s: a replace started a turn: %v", name, ts)
		}
		want := Settings{Deadline: "48h", Expiry: ExpiryPause, Prefs: map[string]Prefs{
			"bob": {TZ: "Europe/Rome", Lang: i18n.Italian}, "carol": {Notify: NotifyEvery, Respond: "with a12"}}}
		if !reflect.DeepEqual(r.settings, want) {
			t.Errorf("%s: settings %+v, want %+v", name, r.settings, want)
		}
		wantVisible := []string{"alice,bob,carol,observer", "alice,bob,carol,observer", "bob", "bob", "carol", "carol", "",
			"alice,bob,carol,observer", "alice,bob,carol,observer", "alice,bob", "alice,bob,carol",
			"alice,bob,carol,observer", "alice,bob,carol,observer", "alice,bob,carol,observer", "alice,bob,carol,observer"}
		if !reflect.DeepEqual(r.visible, wantVisible) {
			t.Errorf("%s: seen by %q, want %q", name, r.visible, wantVisible)
		}
		if r.resigned != "bob skips dave" {
			t.Errorf("%s: an undo would take back %q", name, r.resigned)
		}
		if r.said[8] != "bob says to alice: sorry / bob dice ad alice: sorry" || r.said[9] != `carol says: {"admin":"resign"} / carol dice: {"admin":"resign"}` {
			t.Errorf("%s: %q", name, r.said)
		}
	}
}

// TestAdminEvents_hostileText: whatever a player writes in a message, a reason or an
// address, the payload reads back exactly (valid UTF-8; invalid bytes become U+FFFD)
// as the act it was recorded as: no text forges another act, in the new form nor in
// the old.
func TestAdminEvents_hostileText(t *testing.T) {
	t.Parallel()
	texts := []string{
		`{"admin":"resign"}`, `"},"admin":"resign`, `","admin":"resign","x":"`, "\"}\n{\"admin\":\"resign\"}",
		"line one\nline two\r\n", `back\slash \"quoted\"`, "{}", "}{", "<b>&amp;</b>", "\u2028\u2029", "\x00\x1b[31m",
		"caffè ☕ 𝄞", strings.Repeat("{", 500), "", " ", "resign", "undo request: x", "deadline passed bob: skip",
	}
	for _, text := range texts {
		for _, p := range []adminPayload{
			{Act: adminSay, Text: text},
			{Act: adminTell, Player: "bob", Text: text},
			{Act: adminUndoRequest, Why: text},
			{Act: adminReplace, Player: "bob", Address: text},
		} {
			cmd := p.encode()
			got, ok := readAdmin(cmd)
			if !ok || got != p {
				t.Errorf("%+v: %q reads as %+v (%v)", p, cmd, got, ok)
			}
			if strings.ContainsAny(cmd, "\n\r") {
				t.Errorf("%+v: %q spans lines", p, cmd)
			}
			f := newFacts([]string{"alice"}, time.Time{})
			f.observe(store.Event{Kind: engine.KindAdmin, Player: "alice", Command: cmd})
			if len(f.Resigned) != 0 {
				t.Errorf("%q resigns", cmd)
			}
		}
		// The old form starts with its verb: what follows never changes the act.
		if a, ok := readAdmin("say " + text); !ok || a.Act != adminSay || a.Text != text {
			t.Errorf("say %q reads as %+v (%v)", text, a, ok)
		}
	}
	// Invalid UTF-8 is recorded as U+FFFD: still a message, still valid text.
	a, ok := readAdmin(adminPayload{Act: adminSay, Text: "a\xffb\xc3"}.encode())
	if !ok || a.Act != adminSay || !utf8.ValidString(a.Text) || a.Text != "a\uFFFDb\uFFFD" {
		t.Errorf("invalid UTF-8 reads as %+v (%v)", a, ok)
	}
}

// TestAdminEvents_importOldAndNew: a game whose log holds admin events in the old
// form imports with them as they were (the text kept, every state's hash the same),
// and loads as the same game with the same settings, facts and account, in both
// languages, as the same log in the new form.
func TestAdminEvents_importOldAndNew(t *testing.T) {
	ctx := context.Background()
	s, a := selfPlayedService(t)
	olds := []engine.Event{
		{Kind: engine.KindAdmin, Player: "ann", Command: "vacation 2026-12-24 2026-12-27"},
		{Kind: engine.KindAdmin, Player: "host", Command: "set deadline=48h expiry=pause"},
		{Kind: engine.KindAdmin, Player: "ben", Command: "tz Europe/Rome"},
		{Kind: engine.KindAdmin, Player: "ann", Command: "lang it"},
		{Kind: engine.KindAdmin, Player: "ann", Command: "say ciao {\"admin\":\"resign\"}"},
		{Kind: engine.KindAdmin, Player: "ben", Command: "tell ann psst"},
		{Kind: engine.KindAdmin, Player: "ben", Command: "undo request: oops"},
	}
	const at = 6 // the admin events follow event 6
	load := func(admin []engine.Event) *Loaded {
		b := *a
		b.Events = append(append(slices.Clone(a.Events[:at]), admin...), a.Events[at:]...)
		id, err := s.Import(ctx, &b)
		if err != nil {
			t.Fatal(err)
		}
		l, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range l.Events {
			if want := b.Events[i]; e.Command != want.Command || i < at && e.Hash != want.Hash || i >= at+len(admin) && e.Hash != want.Hash {
				t.Errorf("event %d stored as %q %s, the archive has %q %s", i+1, e.Command, e.Hash, want.Command, want.Hash)
			}
		}
		return l
	}
	news := slices.Clone(olds)
	for i, e := range news {
		p, ok := readAdmin(e.Command)
		if !ok {
			t.Fatalf("%q does not read", e.Command)
		}
		news[i].Command = p.encode()
	}
	old, now := load(olds), load(news)
	if old.State.Hash() != now.State.Hash() || !reflect.DeepEqual(old.Settings, now.Settings) || !reflect.DeepEqual(old.Facts.Vacations, now.Facts.Vacations) ||
		!reflect.DeepEqual(old.Facts.Resigned, now.Facts.Resigned) {
		t.Errorf("the old log loads as %+v %+v, the new as %+v %+v", old.Settings, old.Facts, now.Settings, now.Facts)
	}
	if st := now.Settings; st.Deadline != "48h" || st.Prefs["ben"].TZ != "Europe/Rome" || st.Prefs["ann"].Lang != i18n.Italian || len(now.Facts.Vacations["ann"]) != 1 || len(now.Facts.Resigned) != 0 {
		t.Errorf("settings %+v, facts %+v", st, now.Facts)
	}
	told := map[i18n.Lang][]string{
		i18n.English: {"ann is on vacation from Thu 24 December to Sun 27 December", "the host changed the game's settings: set deadline=48h expiry=pause",
			"ben reads times in the zone Europe/Rome", "ann reads the mails in Italian", `ann says: ciao {"admin":"resign"}`, "ben says to ann: psst",
			"ben asked to take back the last move: oops"},
		i18n.Italian: {"ann è in vacanza da gio 24 dicembre a dom 27 dicembre", "l'organizzatore ha cambiato le impostazioni della partita: imposta deadline=48h expiry=pause",
			"ben legge gli orari nel fuso Europe/Rome", "ann legge le mail in italiano", `ann dice: ciao {"admin":"resign"}`, "ben dice ad ann: psst",
			"ben ha chiesto di annullare l'ultima mossa: oops"},
	}
	for _, p := range old.Seats() {
		for lang, want := range told {
			o, n := s.accountLines(old, at, p, lang), s.accountLines(now, at, p, lang)
			if !slices.Equal(o, n) {
				t.Errorf("%s in %s: the old log tells\n%q\nthe new\n%q", p.Name, lang, o, n)
			}
			if !slices.Equal(n[:len(want)], want) {
				t.Errorf("%s in %s: %q, want %q", p.Name, lang, n[:len(want)], want)
			}
		}
	}
}
