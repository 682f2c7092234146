package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene/draw"
)

var bundle = sync.OnceValues(i18n.Load)

// tools returns the catalogues and a writer.
func tools(t testing.TB) (*i18n.Bundle, *Writer) {
	t.Helper()
	tr, err := bundle()
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(tr)
	if err != nil {
		t.Fatal(err)
	}
	return tr, w
}

// archives are self-played games of every engine, by kind and number of players.
var archives = sync.OnceValues(func() (map[string]*engine.Archive, error) {
	reg := games.Registry()
	out := map[string]*engine.Archive{}
	for _, kind := range reg.Names() {
		for _, cfg := range selfplay.Configs(reg[kind], 11, 2) {
			a, err := selfplay.Play(reg[kind], cfg, func(selfplay.Step) error { return nil })
			if err != nil {
				return nil, err
			}
			out[kind+"/"+strconv.Itoa(len(a.Players))] = a
		}
	}
	return out, nil
})

// record replays the first n events of an archive (all when n < 0), with the
// catalogues' words.
func record(t testing.TB, a *engine.Archive, n int) *Record {
	t.Helper()
	c := *a
	if n >= 0 {
		c.Events = c.Events[:n]
	}
	rec, err := FromArchive(games.Registry(), &c)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := tools(t)
	rec.ID = "gm-7k3p"
	rec.PictureWords = func(lang i18n.Lang) draw.Words { return pictureCatalogue{tr, lang} }
	return rec
}

// pictureCatalogue gives pictures the catalogues' words (as the service's
// PictureWords, which this package may not import).
type pictureCatalogue struct {
	tr   *i18n.Bundle
	lang i18n.Lang
}

func (p pictureCatalogue) Say(format string, args ...any) string {
	return p.tr.Sprintf(p.lang, format, args...)
}
func (p pictureCatalogue) Term(name string) string   { return p.tr.Term(p.lang, name) }
func (p pictureCatalogue) Lang() string              { return string(p.lang) }
func (p pictureCatalogue) Text(t engine.Text) string { return p.tr.Text(p.lang, t) }
func (p pictureCatalogue) Name(key string) string    { return draw.English{}.Name(key) }

// outputs writes the pages of the first, a middle and the last step of rec for rd,
// and its replay file (which holds every step).
func outputs(t testing.TB, rec *Record, rd Reader) (pages []string, file string) {
	return write(t, rec, rd, true)
}

// write writes the pages of the first, a middle and the last step of rec for rd,
// and with withFile its replay file.
func write(t testing.TB, rec *Record, rd Reader, withFile bool) (pages []string, file string) {
	t.Helper()
	tr, w := tools(t)
	r, err := Build(rec, rd, tr)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, len(r.Steps()) / 2, len(r.Steps()) - 1} {
		var b bytes.Buffer
		if err := w.Page(&b, r, i); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, b.String())
	}
	if !withFile {
		return pages, ""
	}
	var b bytes.Buffer
	if _, err := w.File(&b, r, FileOptions{}); err != nil {
		t.Fatal(err)
	}
	return pages, b.String()
}

// hiddenForms are the ways a list of card ids can be written.
func hiddenForms(ids []string) []string {
	return []string{`"` + strings.Join(ids, `","`) + `"`, strings.Join(ids, ", "), strings.Join(ids, " ")}
}

var scoreCell = regexp.MustCompile(`<td class="num">([^<]*)</td>`)

// TestHidden_dungeoneer: the public pages and replay file, and each player's, show
// no other player's hand nor the map cards another player holds, at any step of a
// game cut at several points, while the player's own pages show their hand.
func TestHidden_dungeoneer(t *testing.T) {
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	a := as["dungeoneer/3"]
	if a == nil {
		t.Fatal("no 3-player game of dungeoneer")
	}
	ownShown, hands := 0, 0
	for _, cut := range []int{40, 120} {
		rec := record(t, a, cut)
		full := rec.Last().View("").(dungeoneer.View)
		for _, viewer := range []string{engine.Observer, "ann", "ben", "cy"} {
			pages, file := outputs(t, rec, Reader{Viewer: viewer})
			last := pages[len(pages)-1]
			for _, p := range full.Players {
				if len(p.Hand) < 2 {
					continue
				}
				shown := false
				for _, form := range hiddenForms(p.Hand) {
					shown = shown || strings.Contains(last, form)
					if p.Name == viewer {
						continue
					}
					for i, out := range append(pages, file) {
						if strings.Contains(out, form) {
							t.Fatalf("cut %d: %s's output %d shows %s's hand %q", cut, viewer, i, p.Name, form)
						}
					}
				}
				if p.Name != viewer {
					continue
				}
				hands++
				c, _ := dungeoneer.Card(p.Hand[0])
				if shown || strings.Contains(last, html.EscapeString(c.Name.En)) {
					ownShown++
				}
			}
		}
	}
	if hands == 0 || ownShown != hands {
		t.Errorf("the players' own pages show %d of their %d hands", ownShown, hands)
	}
}

// TestHidden_smallWorld: a Small World player's coins are kept face down — the
// public pages and file show "?" for every player's coins until the game ends, a
// player's own pages show theirs and "?" for the others', and the end shows all.
func TestHidden_smallWorld(t *testing.T) {
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"smallworld/2", "underground/2"} {
		a := as[kind]
		for _, viewer := range []string{engine.Observer, "ann"} {
			// Every step of the game's first 80 events (the file), and the end.
			_, file := outputs(t, record(t, a, 80), Reader{Viewer: viewer})
			steps := strings.Split(file, `<section class="step`)[1:]
			end, _ := write(t, record(t, a, -1), Reader{Viewer: viewer}, false)
			for i, p := range append(steps, end[2]) {
				last := i == len(steps)
				cells := scoreCell.FindAllStringSubmatch(p, -1)
				if len(cells) != 2 {
					t.Fatalf("%s: step %d has %d score cells", kind, i, len(cells))
				}
				for seat, c := range cells {
					hidden := !last && !(viewer == "ann" && seat == 0)
					if got := c[1] == "?"; got != hidden {
						t.Errorf("%s: %s's step %d shows seat %d's coins as %q", kind, viewer, i, seat, c[1])
					}
				}
			}
		}
	}
}

// TestHidden_empireBids: while the bids are sealed, no page and no file but the
// bidder's own shows their bid, in the list of moves or the account (as a command
// or as a sentence); the others read that a secret bid was made.
func TestHidden_empireBids(t *testing.T) {
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	a := as["empire/2"]
	cut := -1
	for i, e := range a.Events {
		if strings.HasPrefix(e.Command, "bid ") {
			cut = i + 1 // the first bid is in, the second not yet
			break
		}
	}
	if cut < 0 {
		t.Fatal("no bid in the game")
	}
	rec := record(t, a, cut)
	bidder, bid := a.Events[cut-1].Player, a.Events[cut-1].Command
	amount := strings.TrimPrefix(bid, "bid ")
	leaks := []string{bidder + ": " + bid, "bid " + amount + " coin", "bid " + amount + " "}
	for _, viewer := range []string{engine.Observer, "ann", "ben"} {
		pages, file := outputs(t, rec, Reader{Viewer: viewer})
		for i, out := range append(pages, file) {
			own := strings.Contains(out, bidder+" bid "+amount+" coin")
			if viewer == bidder {
				if !own && i == len(pages)-1 {
					t.Errorf("%s's own page lacks their bid", viewer)
				}
				continue
			}
			if i == len(pages)-1 && !strings.Contains(out, bidder+" made a secret bid") {
				t.Errorf("%s's page does not say that %s made a secret bid", viewer, bidder)
			}
			for _, l := range leaks {
				if strings.Contains(out, l) {
					t.Fatalf("%s's output %d shows %s's sealed bid (%q)", viewer, i, bidder, l)
				}
			}
		}
	}
}

// externalRef matches what would make a page load something: a src, an url() not
// of data:, an @import, an address with a scheme.
var externalRef = regexp.MustCompile(`(?i)\bsrc\s*=|url\(["']?(?:[^d#"')]|d[^a])|@import|\b(?:https?|ftp|file):|//[a-z0-9.-]+\.[a-z]{2,}/`)

// svgNS is the SVG namespace name, which names and loads nothing.
const svgNS = "http://www.w3.org/2000/svg"

// TestFile_selfContained: a replay file of every game refers to nothing outside it,
// carries every step's account and, unpacked as nav.js does, every step's picture
// exactly as the scene's SVG writer wrote it; each link of the file is one of its
// steps.
func TestFile_selfContained(t *testing.T) {
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	tr, w := tools(t)
	for name, a := range as {
		t.Run(name, func(t *testing.T) {
			rec := record(t, a, min(len(a.Events), 30))
			r, err := Build(rec, Reader{Viewer: engine.Observer, Lang: i18n.Italian}, tr)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if _, err := w.File(&b, r, FileOptions{}); err != nil {
				t.Fatal(err)
			}
			file := b.String()
			if m := externalRef.FindString(strings.ReplaceAll(file, svgNS, "")); m != "" {
				t.Errorf("the file refers outside itself: %q", m)
			}
			ids := map[string]bool{}
			for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(file, -1) {
				ids[m[1]] = true
			}
			for _, m := range hrefRe.FindAllStringSubmatch(file, -1) {
				if !strings.HasPrefix(m[1], "#") || !ids[m[1][1:]] {
					t.Errorf("link %q leads to no step", m[1])
				}
			}
			m := regexp.MustCompile(`(?s)<script type="application/json" id="pictures">(.*?)</script>`).FindStringSubmatch(file)
			if m == nil {
				t.Fatal("no pictures")
			}
			pics, err := unpack([]byte(m[1]))
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range r.Steps() {
				if !strings.Contains(file, `id="s`+strconv.Itoa(st.N)+`"`) {
					t.Errorf("step %d missing", st.N)
				}
				v, err := r.View(i)
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range v.Happened {
					if !strings.Contains(html.UnescapeString(file), h.Text) {
						t.Errorf("step %d: the account %q is missing", st.N, h.Text)
					}
				}
				if !v.Drawn {
					continue
				}
				// Compared piece by piece, in any order: scene/draw lays out some items
				// in a map's order (Empire's faces, Dungeoneer's open cells), which
				// differs between two drawings of one view.
				want := sortedPieces(string(v.Board))
				if got := sortedPieces(pics[st.N]); !slices.Equal(got, want) {
					t.Fatalf("step %d: the unpacked picture differs (%d pieces, want %d)", st.N, len(got), len(want))
				}
			}
		})
	}
}

// sortedPieces are the pieces of an SVG document (see pieces), quoted alike, sorted.
func sortedPieces(doc string) []string {
	ps := pieces(doc)
	for i, p := range ps {
		ps[i] = strings.ReplaceAll(p, `"`, "'")
	}
	slices.Sort(ps)
	return ps
}

// TestFile_bounded: a bound leaves out pictures, compresses, and refuses a file
// that cannot fit at all; what is written fits.
func TestFile_bounded(t *testing.T) {
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	tr, w := tools(t)
	r, err := Build(record(t, as["smallworld/2"], 40), Reader{Viewer: engine.Observer}, tr)
	if err != nil {
		t.Fatal(err)
	}
	var full bytes.Buffer
	form, err := w.File(&full, r, FileOptions{})
	if err != nil || form != (Form{}) {
		t.Fatalf("unbounded: %+v %v", form, err)
	}
	for _, tc := range []struct {
		max  int
		want Form
		err  error
	}{
		{full.Len(), Form{}, nil},
		{full.Len() - 1, Form{Packed: true}, nil},
		{1000, Form{}, ErrTooLarge},
	} {
		var b bytes.Buffer
		form, err := w.File(&b, r, FileOptions{MaxBytes: tc.max})
		if !errors.Is(err, tc.err) || err == nil && form != tc.want {
			t.Errorf("at most %d bytes: %+v %v, want %+v %v", tc.max, form, err, tc.want, tc.err)
		}
		if err == nil && b.Len() > tc.max {
			t.Errorf("at most %d bytes: wrote %d", tc.max, b.Len())
		}
		if form.Packed && !strings.Contains(b.String(), `id="packed"`) {
			t.Error("a packed file without its package")
		}
	}
	// Just under the smallest bound that keeps every picture packed, the file keeps
	// the pictures of the ends of turns only (a binary search for that bound).
	formAt := func(max int) Form {
		var b bytes.Buffer
		got, err := w.File(&b, r, FileOptions{MaxBytes: max})
		if err != nil {
			return Form{Pictures: -1}
		}
		return got
	}
	lo, hi := 1000, full.Len()-1 // formAt(hi) keeps every picture, packed
	for lo+1 < hi {
		if mid := (lo + hi) / 2; formAt(mid) == (Form{Packed: true}) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if got := formAt(hi - 1); got != (Form{Pictures: TurnPictures, Packed: true}) {
		t.Errorf("at %d bytes, one under the smallest bound with every picture: %+v, want the pictures of the ends of turns", hi-1, got)
	}
}

// TestPack round-trips pictures that share pieces, change some, drop and add others.
func TestPack(t *testing.T) {
	docs := []string{
		`<svg a="1"><title>x</title><path data-item="0" d="M0"/><text data-item="1">a&lt;b</text></svg>`,
		`<svg a="1"><title>y</title><path data-item="0" d="M0"/><circle data-item="1" r="2"/><text data-item="2">a&lt;b</text></svg>`,
		`<svg a="1"><title>y</title><text data-item="0">a&lt;b</text></svg>`,
		`<svg font-family="Go, 'Go'"><title>y</title><text data-item="0">'</text></svg>`,
	}
	var p pack
	for i, d := range docs {
		p.add(i*3, d)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := unpack(b)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		want := itemAttr.ReplaceAllString(d, "")
		if g := got[i*3]; strings.ReplaceAll(g, "'", `"`) != strings.ReplaceAll(want, "'", `"`) {
			t.Errorf("picture %d: %q, want %q", i, g, want)
		}
	}
}

// TestPage_wordsInCatalogues: no template holds a word of its own (its text is
// markup, spaces and punctuation), every key the pages use has its Italian in the web
// catalogue, which holds no key the pages do not use, and a key the web catalogue
// shares with another domain has the same Italian there (one catalogue serves all).
func TestPage_wordsInCatalogues(t *testing.T) {
	tr, _ := tools(t)
	src, err := os.ReadFile(filepath.Join("assets", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	var used []string
	for _, m := range regexp.MustCompile(`\bT "((?:[^"\\]|\\.)*)"`).FindAllSubmatch(src, -1) {
		used = append(used, string(m[1]))
	}
	text := regexp.MustCompile(`(?s)\{\{.*?\}\}`).ReplaceAllString(string(src), " ")
	text = regexp.MustCompile(`(?s)<[^>]*>|&[a-z]+;|<!DOCTYPE html>`).ReplaceAllString(text, " ")
	if w := regexp.MustCompile(`\p{L}{2,}`).FindString(text); w != "" {
		t.Errorf("the templates hold words outside the catalogues: %q", w)
	}
	code, err := os.ReadFile("words.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"replay.go", "render.go", "players.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code = append(code, b...)
	}
	for _, m := range regexp.MustCompile(`(?:say|T)\("((?:[^"\\]|\\.)*)"`).FindAllSubmatch(code, -1) {
		s, err := strconv.Unquote(`"` + string(m[1]) + `"`)
		if err != nil {
			t.Fatal(err)
		}
		used = append(used, s)
	}
	slices.Sort(used)
	used = slices.Compact(used)
	for _, k := range used {
		if !tr.Has(i18n.Italian, "web", k) {
			t.Errorf("no Italian in the web catalogue for %q", k)
		}
	}
	for _, k := range tr.Keys(i18n.Italian, "web") {
		if !slices.Contains(used, k) {
			t.Errorf("the web catalogue has %q, which the pages do not use", k)
		}
		for _, d := range i18n.Domains {
			if d != "web" && tr.Has(i18n.Italian, d, k) && !sameForms(t, d, k) {
				t.Errorf("%q has another Italian in the %s catalogue", k, d)
			}
		}
	}
}

// sameForms reports whether a key has the same Italian in the web catalogue and in
// domain's.
func sameForms(t *testing.T, domain, key string) bool {
	t.Helper()
	read := func(d string) map[string]any {
		var m map[string]any
		files, _ := filepath.Glob(filepath.Join("..", "..", "i18n", "catalog", "it", d+"*.json"))
		more, _ := filepath.Glob(filepath.Join("..", "..", "i18n", "catalog", "it", d, "*.json"))
		out := map[string]any{}
		for _, f := range append(files, more...) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	a, b := read("web")[key], read(domain)[key]
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestPage_italian: the pages of every game in Italian hold no English words but
// the players' names and the game's own (langcheck), and say what every step did.
func TestPage_italian(t *testing.T) {
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	tr, w := tools(t)
	for name, a := range as {
		rec := record(t, a, min(len(a.Events), 40))
		r, err := Build(rec, Reader{Viewer: "ann", Lang: i18n.Italian}, tr)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, len(r.Steps()) / 2, len(r.Steps()) - 1} {
			var b bytes.Buffer
			if err := w.Page(&b, r, i); err != nil {
				t.Fatal(err)
			}
			text := visibleText(b.String())
			if bad := langcheck.English(text, langcheck.Rulebook(a.Game)); len(bad) > 0 {
				t.Errorf("%s step %d: English in the Italian page: %v", name, i, bad)
			}
		}
	}
}

// visibleText is the text of a page a reader reads: without its style, script,
// pictures and tags.
func visibleText(page string) string {
	for _, re := range []string{`(?s)<style>.*?</style>`, `(?s)<script.*?</script>`, `(?s)<svg.*?</svg>`, `<[^>]*>`} {
		page = regexp.MustCompile(re).ReplaceAllString(page, " ")
	}
	return html.UnescapeString(page)
}

var hrefRe = regexp.MustCompile(`href="([^"]*)"`)

// TestMarkers: the players' markers are the board's, one class per seat.
func TestMarkers(t *testing.T) {
	css := markerCSS()
	for i := range 7 {
		if !strings.Contains(css, ".m"+strconv.Itoa(i)+"{background-image:url(data:image/svg+xml;base64,") {
			t.Errorf("no marker for seat %d", i)
		}
	}
	if marker(9) != "m2" {
		t.Errorf("marker(9) = %q", marker(9))
	}
}

// TestNow says where a game stands: who must move and by when (the reader as "you"),
// paused, or over — also when it ended because the others resigned.
func TestNow(t *testing.T) {
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := tools(t)
	a := as["smallworld/2"]
	due := time.Date(2026, 11, 24, 21, 0, 0, 0, time.UTC)
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		set    func(r *Record)
		reader Reader
		want   string
	}{
		{"observer", func(r *Record) { r.Deadlines = map[string]time.Time{"ann": due} }, Reader{Viewer: engine.Observer}, "To move now: ann (by Tue 24 Nov 21:00 UTC)"},
		{"the one to move", func(r *Record) { r.Deadlines = map[string]time.Time{"ann": due} }, Reader{Viewer: "ann", Lang: i18n.Italian, Zone: rome}, "Tocca a te, entro mar 24 nov 22:00 CET"},
		{"no deadline", func(*Record) {}, Reader{Viewer: "ben"}, "To move now: ann"},
		{"paused", func(r *Record) { r.Paused = true }, Reader{Viewer: engine.Observer}, "The game is paused by its host."},
		{"resigned", func(r *Record) { r.Over, r.Winners, r.Resigned = true, []string{"ben"}, map[string]bool{"ann": true} }, Reader{Viewer: "ben", Lang: i18n.Italian}, "Partita finita: ha vinto ben"},
	} {
		rec := record(t, a, 0)
		tc.set(rec)
		r, err := Build(rec, tc.reader, tr)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Now(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	r, err := Build(record(t, a, -1), Reader{Viewer: engine.Observer}, tr)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Now(); !strings.HasPrefix(got, "Game over: ") {
		t.Errorf("the end: %q", got)
	}
}
