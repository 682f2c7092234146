package service

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// adminSamples are an example of each administrative act the log records, by the
// constant that names it.
var adminSamples = map[string][]adminPayload{
	"adminSay":         {{Act: adminSay, Text: "bob, where now?"}},
	"adminTell":        {{Act: adminTell, Player: "bob", Text: "where now?"}},
	"adminResign":      {{Act: adminResign}},
	"adminUndoRequest": {{Act: adminUndoRequest}, {Act: adminUndoRequest, Why: "I misread the map"}},
	"adminAccept":      {{Act: adminAccept}},
	"adminPause":       {{Act: adminPause}},
	"adminResume":      {{Act: adminResume}},
	"adminVacation":    {{Act: adminVacation, From: "2026-12-24", To: "2026-12-27"}},
	"adminReplace":     {{Act: adminReplace, Player: "bob", Address: "carol@example.org"}},
	"adminDeadline": {{Act: adminDeadline, Player: "bob", Policy: ExpirySkip}, {Act: adminDeadline, Player: "bob", Policy: ExpiryPause},
		{Act: adminDeadline, Player: "bob", Policy: ExpiryReplace}, {Act: adminDeadline, Player: "bob", Policy: nothingToSkip}},
	"adminSet":     {{Act: adminSet, Value: "deadline=48h remind=6h"}},
	"adminTZ":      {{Act: adminTZ, Value: "Europe/Rome"}},
	"adminNotify":  {{Act: adminNotify, Value: NotifyEvery}, {Act: adminNotify, Value: NotifyTurn}},
	"adminLang":    {{Act: adminLang, Value: "it"}},
	"adminRespond": {{Act: adminRespond, Value: OrderNever}, {Act: adminRespond, Value: "with a12"}, {Act: adminRespond, Value: OrderAuto}},
}

// TestAdminSentences: every administrative act the service records (found in its
// source: each call of run.admin, and setPref's acts) is told in a sentence in both
// languages, which names who did it and never shows the command as recorded (nor an English sentence to an Italian reader).
func TestAdminSentences(t *testing.T) {
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{tr: mustBundle(t), tmpl: tmpl, opts: Options{Clock: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }}}
	for _, name := range adminConstantsInSource(t) {
		samples, ok := adminSamples[name]
		if !ok {
			t.Errorf("the service records %s events: add a sample to adminSamples (and a sentence to adminSentence)", name)
			continue
		}
		for _, sample := range samples {
			cmd := sample.encode()
			for _, lang := range i18n.Langs {
				got := s.adminSentence(store.Event{Kind: engine.KindAdmin, Player: "alice", Command: cmd}, lang)
				en := s.adminSentence(store.Event{Kind: engine.KindAdmin, Player: "alice", Command: cmd}, i18n.English)
				switch {
				case strings.Contains(got, "{") || strings.Contains(got, `"`):
					t.Errorf("%s %q: %q shows the command", lang, cmd, got)
				case !strings.Contains(got, "alice") && !strings.Contains(got, "bob"):
					t.Errorf("%s %q: %q names nobody", lang, cmd, got)
				case strings.HasPrefix(got, "alice: "):
					t.Errorf("%s %q: %q is the generic line", lang, cmd, got)
				case lang != i18n.English && got == en:
					t.Errorf("%s %q: %q is English", lang, cmd, got)
				case strings.Contains(got, "2026-12"):
					t.Errorf("%s %q: %q shows a date as the log writes it", lang, cmd, got)
				}
			}
		}
	}
	if got := s.adminSentence(store.Event{Kind: engine.KindAdmin, Player: "carol", Command: adminPayload{Act: adminSay, Text: "ciao a tutti"}.encode()}, i18n.Italian); got != "carol dice: ciao a tutti" {
		t.Errorf("say in Italian: %q, want %q", got, "carol dice: ciao a tutti")
	}
	if got := s.adminSentence(store.Event{Kind: engine.KindAdmin, Player: "carol", Command: adminPayload{Act: adminTell, Player: "alice", Text: "ciao"}.encode()}, i18n.Italian); got != "carol dice ad alice: ciao" {
		t.Errorf("tell in Italian: %q, want %q", got, "carol dice ad alice: ciao")
	}
}

// adminConstantsInSource lists the admin... constants that name the act of an event
// recorded by run.admin or setPref in the service's source.
func adminConstantsInSource(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "admin" && sel.Sel.Name != "setPref") || len(call.Args) < 2 {
				return true
			}
			ast.Inspect(call.Args[1], func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, "admin") && id.Name != "adminPayload" && !seen[id.Name] {
					seen[id.Name] = true
					out = append(out, id.Name)
				}
				return true
			})
			return true
		})
	}
	if len(out) < 10 {
		t.Fatalf("found only %v in the source", out)
	}
	return out
}

func mustBundle(t *testing.T) *i18n.Bundle {
	t.Helper()
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
