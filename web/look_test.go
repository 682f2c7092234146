package web

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/templates"
	"github.com/turnmail/turnmail/web/page"
)

// TestLook writes, to look at, the pages of a middle step and of the last of a
// self-played game of every kind, public and ann's, in both languages, and their
// replay files, to $TURNMAIL_PAGE_DIR.
func TestLook(t *testing.T) {
	dir := os.Getenv("TURNMAIL_PAGE_DIR")
	if dir == "" {
		t.Skip("TURNMAIL_PAGE_DIR not set")
	}
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	w, err := page.New(tr)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	reg := games.Registry()
	for _, kind := range reg.Names() {
		a, err := selfplay.Play(reg[kind], selfplay.Config{Seed: 3, Players: 3}, func(selfplay.Step) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		a.Events = a.Events[:min(len(a.Events), 400)]
		rec, err := page.FromArchive(reg, a)
		if err != nil {
			t.Fatal(err)
		}
		rec.ID = kind[:2] + "-7k3p"
		rec.Tell = service.Teller(tr, tmpl)
		rec.PictureWords = func(lang i18n.Lang) draw.Words { return service.PictureWords(tr, lang, a.Game) }
		for _, lang := range i18n.Langs {
			for _, viewer := range []string{engine.Observer, "ann"} {
				r, err := page.Build(rec, page.Reader{Viewer: viewer, Lang: lang}, tr)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s-%s-%s", kind, lang, map[string]string{engine.Observer: "public", "ann": "ann"}[viewer])
				for _, at := range []struct {
					label string
					i     int
				}{{"mid", len(r.Steps()) / 2}, {"last", len(r.Steps()) - 1}} {
					var b bytes.Buffer
					if err := w.Page(&b, r, at.i); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, name+"-"+at.label+".html"), b.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				var b bytes.Buffer
				form, err := w.File(&b, r, page.FileOptions{})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %d steps, file %d KB (%+v)", name, len(r.Steps()), b.Len()/1024, form)
				if err := os.WriteFile(filepath.Join(dir, name+"-file.html"), b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
