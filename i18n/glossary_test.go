package i18n_test

import (
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
)

// TestGlossaryTexts checks that every race, power, place, relic and card the engines
// list (engine.Glossary) has its text in English and Italian (and a race, power, place or relic its
// Italian name), so
// that "rules GAME NAME" and the mails can describe it in either language.
func TestGlossaryTexts(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	reg := games.Registry()
	n := 0
	for _, name := range reg.Names() {
		gl, ok := reg[name].(engine.Glossary)
		if !ok {
			continue
		}
		for _, e := range gl.Glossary() {
			n++
			term := string(e.Name)
			if e.Text.Key != "" { // an Empire card: described from its data
				if !translated(b, e.Text.Key) {
					t.Errorf("%s %s %q: no Italian for %q", name, e.Kind, term, e.Text.Key)
				}
				continue
			}
			if got, ok := b.TermOf(b.Term(i18n.Italian, term)); !ok || got != term {
				t.Errorf("%s %s %q: its Italian name %q does not lead back to it (%q)", name, e.Kind, term, b.Term(i18n.Italian, term), got)
			}
			for _, l := range i18n.Langs {
				if !b.Has(l, "abilities", term) {
					t.Errorf("%s %s %q: no %s text in the abilities catalogue", name, e.Kind, term, l)
				}
			}
		}
	}
	if n < 14+20+15+21+9+6 {
		t.Errorf("the engines list %d named pieces, want at least the 85 of Small World and Underground", n)
	}
}

// TestAboutFallsBack checks About: the reader's language, else English, else nothing.
func TestAboutFallsBack(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	en, ok := b.About(i18n.English, "Ratmen")
	it, ok2 := b.About(i18n.Italian, "Ratmen")
	if !ok || !ok2 || en == "" || it == "" || en == it {
		t.Errorf("About(Ratmen) = %q %v / %q %v, want an English and a different Italian text", en, ok, it, ok2)
	}
	if got, ok := b.About(i18n.Italian, "Nobody"); ok || got != "" {
		t.Errorf("About(Nobody) = %q %v, want none", got, ok)
	}
}
