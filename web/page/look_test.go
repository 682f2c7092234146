package page

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// TestLook writes pages and files of self-played games to $TURNMAIL_PAGE_DIR, to look at.
func TestLook(t *testing.T) {
	dir := os.Getenv("TURNMAIL_PAGE_DIR")
	if dir == "" {
		t.Skip("TURNMAIL_PAGE_DIR not set")
	}
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(tr)
	if err != nil {
		t.Fatal(err)
	}
	reg := games.Registry()
	for _, kind := range []string{"smallworld", "empire", "dungeoneer", "underground"} {
		a, err := selfplay.Play(reg[kind], selfplay.Config{Seed: 3, Players: 3}, func(selfplay.Step) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		rec, err := FromArchive(reg, a)
		if err != nil {
			t.Fatal(err)
		}
		rec.ID = kind[:2] + "-7k3p"
		for _, lang := range []i18n.Lang{i18n.English, i18n.Italian} {
			for _, viewer := range []string{engine.Observer, "ann"} {
				r, err := Build(rec, Reader{Viewer: viewer, Lang: lang}, tr)
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				kept, err := w.File(&buf, r, FileOptions{})
				var small bytes.Buffer
				form, err2 := w.File(&small, r, FileOptions{MaxBytes: 128 << 10})
				t.Logf("bounded: %d KB %+v %v", small.Len()/1024, form, err2)
				if err != nil {
					t.Fatal(err)
				}
				name := kind + "-" + string(lang) + "-" + map[string]string{engine.Observer: "public", "ann": "ann"}[viewer]
				t.Logf("%s: %d steps, file %d KB (%+v)", name, len(r.Steps()), buf.Len()/1024, kept)
				os.WriteFile(filepath.Join(dir, name+".html"), buf.Bytes(), 0o644)
				for _, i := range []int{0, len(r.Steps()) / 2, len(r.Steps()) - 1} {
					buf.Reset()
					if err := w.Page(&buf, r, i); err != nil {
						t.Fatal(err)
					}
					os.WriteFile(filepath.Join(dir, name+"-page"+string(rune('a'+i%26))+".html"), buf.Bytes(), 0o644)
				}
			}
		}
	}
}
