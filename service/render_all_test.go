package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	stdhtml "html"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// templateErrors are what a template leaves in its output when it reads what the
// data does not have: a missing map key, a bad printf verb or argument, a value
// printed whole.
var templateErrors = []string{"<no value>", "&lt;no value&gt;", "%!", "map[", "<nil>", "&lt;nil&gt;", "[]interface"}

// TestSelfPlayRenders renders every mail a state mail or a refusal can be, for every
// state reached in self-play games of every registered engine, in English and in
// Italian: each seat's state mail after every command (the author's with what was
// applied and a refused line), the observers' and a mailing list's, the finished
// game's, and a refusal to every seat. Each goes through the service's own rendering
// (stateData, the templates, compose) and must render, in text and HTML, without a
// template's error markers, and list the commands legal for its reader; an Italian
// mail must hold no English word (langcheck). Short in make test: two games per
// engine, each rendered for its first renderStates states, then every renderEvery-th
// and its end (a random game can run to thousands of states: their phases repeat);
// TURNMAIL_SOAK=1 (make soak) plays many more games and renders every state. The
// games are rendered in parallel, each by a service of its own.
func TestSelfPlayRenders(t *testing.T) {
	perEngine, every := 2, renderEvery
	if os.Getenv("TURNMAIL_SOAK") == "1" {
		perEngine, every = 60, 1
	}
	reg := games.Registry()
	for _, kind := range reg.Names() {
		g := reg[kind]
		for _, cfg := range selfplay.Configs(g, 1, perEngine) {
			cfg.OutOfTurn = true // the states special actions out of turn reach, too
			name := fmt.Sprintf("%s/%dp-seed%d", kind, cfg.Players, cfg.Seed)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				r := &renderRun{t: t, svc: newRenderService(t), l: renderLoaded(kind, cfg), english: map[string]int{}, every: every}
				states := 0
				_, err := selfplay.Play(g, cfg, func(s selfplay.Step) error {
					states++
					return r.step(s)
				})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s %s: %d states, %d mails", kind, mustJSON(cfg.Options), states, r.mails)
				if len(r.english) > 0 {
					t.Errorf("English words in the Italian mails (word: mails): %v", r.english)
				}
			})
		}
	}
}

// newRenderService is a service for rendering only: its store is never written.
func newRenderService(t testing.TB) *Service {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := New(st, games.Registry(), tmpl, Options{Address: "turnmail@example.org", Secret: []byte("0123456789abcdef0123"),
		Clock:  func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// renderLoaded is the loaded game the states of a self-play game are rendered in:
// the seats, an observer, and (every other game) a mailing list.
func renderLoaded(kind string, cfg selfplay.Config) *Loaded {
	l := &Loaded{Game: store.Game{ID: kind[:2] + "-test", Kind: kind, Status: store.GameRunning, Host: "ann@example.org"}, Seed: cfg.Seed}
	for i, p := range selfplay.Seats(cfg.Players) {
		l.Players = append(l.Players, store.Player{Seat: i, Name: p.Name, Email: p.Email, Role: store.RolePlayer, Active: true})
	}
	l.Players = append(l.Players, store.Player{Seat: cfg.Players, Name: "olga", Email: "olga@example.org", Role: store.RoleObserver})
	if cfg.Seed%2 == 0 {
		l.Settings.List = "club@lists.example.org"
	}
	return l
}

// renderRun renders the mails of one self-play game, state by state.
type renderRun struct {
	t     *testing.T
	svc   *Service
	l     *Loaded
	mails int
	// english counts the English words found in Italian mails, by word, for the
	// report of a failure.
	english map[string]int
	// italian finds English in the Italian mails, remembering the lines it read.
	italian langcheck.Checker
	// every: after the first renderStates states, every every-th state and the
	// end are rendered (1: all).
	every int
	// pictures: the state's mails are drawn with their picture.
	pictures bool
}

// pictureEvery is how often a state's mails are rendered with their picture.
const pictureEvery = 40

// pictureStates reports whether a game has pictures.
func pictureStates(kind string) bool { return kind != "tally" }

// renderStates is how many states of a self-play game make test renders before it
// renders only every renderEvery-th (prime to the refused line's 3; pictureEvery is
// a multiple of it) and the game's end.
const renderStates, renderEvery = 60, 5

// step renders every mail about the state s reached.
func (r *renderRun) step(s selfplay.Step) error {
	r.t.Helper()
	l := r.l
	l.State = s.State
	if s.State.Finished() {
		l.Game.Status = store.GameFinished
	}
	var events []store.Event
	var applied []templates.Line
	var lineErr *templates.LineError
	var refused *engine.RuleError // the engine's reason for the refused line
	if s.Player != "" {
		e := store.Event{Seq: s.N, Kind: engine.KindMove, Player: s.Player, Command: s.Command}
		events = []store.Event{e}
		// The account of the move: the events with the states after each.
		l.Events = append(l.Events, e)
		l.hist.events = append(l.hist.events, engine.Event{Player: s.Player, Command: s.Command})
		l.hist.known[s.N] = s.State
		applied = []templates.Line{{N: 1, Text: s.Command}}
		if s.N%3 == 0 { // now and then a refused second line
			// The verb just used, with an argument no game takes: the player writes
			// in their own words (see appliedIn), the engine says why it is refused.
			bad := strings.Fields(s.Command)[0] + " 99"
			lineErr = &templates.LineError{Line: templates.Line{N: 2, Text: bad}}
			_, _, err := engine.Step(s.State, r.l.Seed, s.N+1, s.Player, bad, nil)
			if !errors.As(err, &refused) {
				refused = engine.Illegal("%s", bad)
			}
		}
	}
	if s.Player == "" {
		l.hist = &history{s: r.svc, gameID: l.Game.ID, known: map[int]engine.State{0: s.State}}
	}
	if s.N >= renderStates && s.N%r.every != 0 && !s.State.Finished() {
		return nil // recorded for the accounts of what follows, not rendered
	}
	// Pictures are drawn for a sample of the states (every picture of every state is
	// drawn as a scene by scene/draw's tests), and checked in the mails that have one.
	r.pictures = pictureStates(l.Game.Kind) && (s.N%pictureEvery == 0 || s.State.Finished())
	r.svc.opts.NoPictures = !r.pictures
	for _, lang := range i18n.Langs {
		l.Settings.Lang = lang
		where := fmt.Sprintf("after command %d (%s: %q), in %s", s.N, s.Player, s.Command, lang)
		var lineErrIn *templates.LineError
		var appliedIn []templates.Line // as the player wrote them: in their words
		for _, a := range applied {
			appliedIn = append(appliedIn, templates.Line{N: a.N, Text: r.svc.tr.Command(l.Game.Kind, lang, a.Text)})
		}
		if lineErr != nil {
			e := *lineErr
			e.Text = r.svc.tr.Command(l.Game.Kind, lang, e.Text)
			e.Reason = r.svc.tr.GameText(l.Game.Kind, lang, refused.Text)
			lineErrIn = &e
		}
		out, err := r.svc.stateMails(l, change{after: s.State, events: events, author: s.Player, reply: reply{applied: appliedIn, lineErr: lineErrIn, inReply: "<move@example.org>"}})
		if err != nil {
			return fmt.Errorf("%s: state mails: %w", where, err)
		}
		for _, p := range l.Seats() {
			reason := r.svc.tr.Sprintf(lang, "The game is paused by its host; moves are accepted again when it resumes.")
			m, err := r.svc.refusal(l, p, reason, lineErrIn, "<move@example.org>")
			if err != nil {
				return fmt.Errorf("%s: refusal to %s: %w", where, p.Name, err)
			}
			out = append(out, m)
		}
		for _, m := range out {
			if err := r.check(m, lang); err != nil {
				return fmt.Errorf("%s: %s mail to %s: %w", where, m.Kind, m.To[0], err)
			}
		}
		r.mails += len(out)
	}
	return nil
}

// check decodes a composed mail and checks both parts, written for a reader of lang.
func (r *renderRun) check(m store.OutMail, lang i18n.Lang) error {
	parts, err := mailParts(m.Raw)
	if err != nil {
		return err
	}
	text, html := parts["text/plain"], parts["text/html"]
	if text == "" || html == "" {
		return fmt.Errorf("parts %v: want text/plain and text/html", keys(parts))
	}
	if (m.Kind == "state" || m.Kind == "refusal") && r.pictures {
		if err := checkPicture(m.Raw, html); err != nil {
			return err
		}
	}
	if lang == i18n.Italian {
		subject := mailSubject(m.Raw)
		for _, part := range []string{subject, text, htmlText(html)} {
			for _, w := range r.italian.English(part, langcheck.Rulebook(r.l.Game.Kind)) {
				if r.english[w] == 0 {
					r.t.Logf("English in an Italian %s mail to %s: %s", m.Kind, m.To[0], w)
				}
				r.english[w]++
			}
		}
	}
	for _, part := range []string{text, html} {
		for _, bad := range templateErrors {
			if i := strings.Index(part, bad); i >= 0 {
				return fmt.Errorf("%q in the output: …%s…", bad, part[max(0, i-200):min(len(part), i+100)])
			}
		}
	}
	// The reader's legal commands are in the text, ready to copy.
	var p store.Player
	for _, s := range r.l.Seats() {
		if m.To[0] == s.Email {
			p = s
		}
	}
	if p.Name != "" && !r.l.State.Finished() {
		notes := engine.NotesOf(r.l.State, p.Name)
		for _, canon := range r.l.State.Legal(p.Name) {
			c := r.svc.tr.Command(r.l.Game.Kind, lang, canon)                       // in the reader's words
			note := r.svc.tr.Text(r.svc.langOf(r.l.Settings, p.Name), notes[canon]) // as mails render it (plurals)
			if _, ok := notes[canon]; ok && !strings.Contains(text, "    "+c+"   # "+note+"\n") {
				return fmt.Errorf("legal command %q of %s not in the text with its note %q:\n%s", c, p.Name, note, text)
			}
			// On a line of its own, or followed by its note as a comment.
			if !strings.Contains(text, "    "+c+"\n") && !strings.Contains(text, "    "+c+"   # ") {
				return fmt.Errorf("legal command %q of %s not in the text:\n%s", c, p.Name, text)
			}
		}
	}
	return nil
}

// mailParts returns the decoded parts of a composed mail by media type (the parts
// of nested multiparts too: a finished game's mail has an attachment around them).
func mailParts(raw []byte) (map[string]string, error) {
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read mail: %w", err)
	}
	out := map[string]string{}
	return out, entityParts(e, out)
}

// entityParts collects the text parts of e by content type, leaving out
// attachments.
func entityParts(e *message.Entity, out map[string]string) error {
	mr := e.MultipartReader()
	if d, _, _ := e.Header.ContentDisposition(); d == "attachment" {
		return nil // a file (the replay of a finished game) is no part of the mail's text
	}
	if mr == nil {
		t, _, _ := e.Header.ContentType()
		b, err := io.ReadAll(e.Body)
		if err != nil {
			return fmt.Errorf("read %s part: %w", t, err)
		}
		out[t] = strings.ReplaceAll(string(b), "\r\n", "\n")
		return nil
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read part: %w", err)
		}
		if err := entityParts(p, out); err != nil {
			return err
		}
	}
}

// htmlTags matches the markup of an HTML part.
var htmlTags = regexp.MustCompile(`(?s)<style>.*?</style>|<[^>]*>`)

// htmlText returns the words of an HTML part: its text without markup, entities
// decoded.
func htmlText(h string) string { return stdhtml.UnescapeString(htmlTags.ReplaceAllString(h, "\n")) }

// mailSubject returns the decoded subject of a composed mail.
func mailSubject(raw []byte) string {
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	s, _ := e.Header.Text("Subject")
	return s
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestReasonIn: a refused move's reason comes from the game's catalogue in every
// language — in English too, for its plural forms — with what is possible instead
// in the reader's command words.
func TestReasonIn(t *testing.T) {
	svc := newRenderService(t)
	err := engine.Illegal("you have %d armies in region %d", 1, 3)
	err.Instead = []string{"skip"}
	for lang, want := range map[i18n.Lang]string{
		i18n.English: "you have 1 army in region 3; possible: skip",
		i18n.Italian: "hai 1 armata nella regione 3; possibili: salta",
	} {
		if got := svc.reasonIn(lang, "empire", err); got != want {
			t.Errorf("reasonIn(%s) = %q, want %q", lang, got, want)
		}
	}
	if got := svc.reasonIn(i18n.Italian, "empire", fmt.Errorf("plain")); got != "plain" {
		t.Errorf("a plain error: %q", got)
	}
}

// TestRecipient_italian: why a written address cannot be used is said in the
// reader's language, what compose found wrong included.
func TestRecipient_italian(t *testing.T) {
	svc := newRenderService(t)
	for written, want := range map[string]string{
		"zoë@victim.test": `zoë@victim.test non si può usare come indirizzo di posta: contiene 'ë' (si accettano solo lettere ASCII, cifre e punteggiatura)`,
		"ann.example.org": "ann.example.org non si può usare come indirizzo di posta: non è un indirizzo di posta",
	} {
		_, err := recipient(written)
		if got := svc.reasonIn(i18n.Italian, "", err); got != want {
			t.Errorf("recipient(%q) in Italian: %q, want %q", written, got, want)
		}
	}
}
