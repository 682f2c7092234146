package draw

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/layout"
	"github.com/turnmail/turnmail/scene/raster"
	"github.com/turnmail/turnmail/scene/svg"
)

// playGames plays self-played games of every engine with a picture (two per engine,
// every number of players in turn; more with TURNMAIL_SOAK=1) and calls visit with
// every state and its players.
func playGames(t *testing.T, perEngine int, visit func(t *testing.T, kind string, s selfplay.Step, players []engine.Player)) {
	t.Helper()
	if os.Getenv("TURNMAIL_SOAK") == "1" {
		perEngine *= 10
	}
	reg := games.Registry()
	for _, kind := range reg.Names() {
		g := reg[kind]
		for _, cfg := range selfplay.Configs(g, 3, perEngine) {
			t.Run(fmt.Sprintf("%s/%dp-seed%d", kind, cfg.Players, cfg.Seed), func(t *testing.T) {
				players := selfplay.Seats(max(cfg.Players, 2))
				_, err := selfplay.Play(g, cfg, func(s selfplay.Step) error {
					visit(t, kind, s, players)
					if t.Failed() {
						return errStop
					}
					return nil
				})
				if err != nil && err != errStop {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestScene_everyState draws every state of self-played games of every engine, as
// each player and an observer see it: each scene is valid, and its words are the
// reader's (no word is missing from the picture catalogue in Italian). Every 50th
// state and the last are drawn to PNG too, within raster.MaxBytes.
func TestScene_everyState(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	it := &recording{Words: catalogueWords{tr: tr, lang: i18n.Italian}}
	drawn := 0
	playGames(t, 2, func(t *testing.T, kind string, s selfplay.Step, players []engine.Player) {
		viewers := []string{engine.Observer}
		for _, p := range players {
			viewers = append(viewers, p.Name)
		}
		for _, v := range viewers {
			sc, err := Scene(Input{View: s.State.View(v), Changed: []string{"1", "2"}, Words: it})
			if err != nil {
				t.Fatalf("after command %d (%s %q), as %s: %v", s.N, s.Player, s.Command, v, err)
			}
			drawn++
			if v == players[0].Name && (s.N%50 == 0 || s.State.Finished()) {
				b, err := raster.PNG(sc)
				if err != nil {
					t.Fatal(err)
				}
				if len(b) > raster.MaxBytes {
					t.Errorf("after command %d: picture of %d bytes, over %d", s.N, len(b), raster.MaxBytes)
				}
			}
		}
	})
	t.Logf("%d scenes drawn", drawn)
	for _, k := range it.keys {
		if !tr.HasAny(i18n.Italian, k) {
			t.Errorf("no Italian for the picture's text %q", k)
		}
	}
}

// TestCatalogue_everyTextTranslated: every text the package's code gives Say (a
// literal) has its Italian, and the picture catalogue holds no text the code no
// longer uses.
func TestCatalogue_everyTextTranslated(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var used []string
	fs := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Say" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: Say with a key that is not a literal string", fs.Position(call.Pos()))
				return true
			}
			k, _ := strconv.Unquote(lit.Value)
			used = append(used, k)
			return true
		})
	}
	for _, k := range used {
		if !tr.HasAny(i18n.Italian, k) {
			t.Errorf("no Italian for %q", k)
		}
	}
	for _, k := range tr.Keys(i18n.Italian, "picture") {
		if !slices.Contains(used, k) {
			t.Errorf("the picture catalogue has %q, which the code no longer uses", k)
		}
	}
}

// catalogueWords are Words from the catalogues (as the service gives them, without
// the printed names of pieces, which are the templates').
type catalogueWords struct {
	tr   *i18n.Bundle
	lang i18n.Lang
}

func (w catalogueWords) Say(f string, a ...any) string { return w.tr.Sprintf(w.lang, f, a...) }
func (w catalogueWords) Term(n string) string          { return w.tr.Term(w.lang, n) }
func (w catalogueWords) Text(t engine.Text) string     { return w.tr.Text(w.lang, t) }
func (w catalogueWords) Lang() string                  { return string(w.lang) }
func (w catalogueWords) Name(k string) string          { return English{}.Name(k) }

// recording records the keys given to Say.
type recording struct {
	Words
	keys []string
}

func (r *recording) Say(f string, a ...any) string {
	if !slices.Contains(r.keys, f) {
		r.keys = append(r.keys, f)
	}
	return r.Words.Say(f, a...)
}

// texts returns the words of a scene's labels.
func texts(sc *scene.Scene) []string {
	var out []string
	for _, it := range sc.Items {
		if t, ok := it.(*scene.Text); ok {
			out = append(out, t.Text)
		}
	}
	return append(out, sc.Alt)
}

// TestScene_hidesWhatTheReaderMayNotSee: a Dungeoneer player's picture never names
// a card of another player's hand that the reader's view does not show elsewhere,
// and an Empire player's picture never shows another's sealed bid; the picture is
// drawn from the reader's view only, so this checks that what reaches it is theirs.
func TestScene_hidesWhatTheReaderMayNotSee(t *testing.T) {
	checked := 0
	playGames(t, 2, func(t *testing.T, kind string, s selfplay.Step, players []engine.Player) {
		if kind != "dungeoneer" && kind != "empire" {
			return
		}
		full := s.State.View("")
		for _, reader := range players {
			view := s.State.View(reader.Name)
			sc, err := Scene(Input{View: view, Words: English{}})
			if err != nil {
				t.Fatal(err)
			}
			words := strings.Join(texts(sc), "\n")
			seen, _ := json.Marshal(view)
			for _, other := range players {
				if other.Name == reader.Name {
					continue
				}
				for _, secret := range secrets(full, other.Name) {
					if strings.Contains(words, secret) && !strings.Contains(string(seen), `"`+secret+`"`) {
						t.Fatalf("after command %d: %s's picture shows %q, which only %s may see", s.N, reader.Name, secret, other.Name)
					}
					checked++
				}
			}
		}
	})
	if checked == 0 {
		t.Fatal("no secret checked")
	}
}

// secrets lists what only player may see in the complete view: the cards of their
// hand and their map cards (Dungeoneer), their bid while the bids are sealed (Empire).
func secrets(full any, player string) []string {
	switch v := full.(type) {
	case dungeoneer.View:
		var out []string
		for _, p := range v.Players {
			if p.Name == player {
				out = append(out, p.Hand...)
			}
		}
		return out
	case empire.View:
		if v.Phase != "bid" {
			return nil
		}
		for _, p := range v.Players {
			if p.Name == player && p.Bid != nil {
				return []string{fmt.Sprintf("bid %d", *p.Bid)}
			}
		}
	}
	return nil
}

// TestSmallWorld_pixelsShowTheHolders draws states of Small World family games to
// PNG and samples each held region's marker where placeRegions puts it: it has the holder's
// colour (the Lost Tribe's grey, a declined race's paler colour), and the count drawn
// on it is the view's tokens.
func TestSmallWorld_pixelsShowTheHolders(t *testing.T) {
	checked := 0
	playGames(t, 1, func(t *testing.T, kind string, s selfplay.Step, players []engine.Player) {
		if (kind != "smallworld" && kind != "underground" && kind != "necromancer") || (s.N%40 != 0 && !s.State.Finished()) {
			return
		}
		v := s.State.View(players[0].Name).(*smallworld.View)
		sc, err := Scene(Input{View: v})
		if err != nil {
			t.Fatal(err)
		}
		b, err := raster.PNG(sc)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		board, f := boardOf(t, v)
		symbols := map[int]int{}
		for _, r := range v.Regions {
			symbols[r.ID] = len(r.Symbols)
		}
		places := placeRegions(board, f, func(id int) int { return symbols[id] })
		seat := map[string]int{}
		for i, p := range v.Players {
			seat[p.Name] = i
		}
		for _, rv := range v.Regions {
			if rv.Owner == nil {
				continue
			}
			pl := places[rv.ID]
			c := pl.c
			var want scene.Color
			switch *rv.Owner {
			case "lost-tribe":
				want = scene.LostTribe.Color
			case "monsters":
				want = scene.Monster.Color
			default:
				want = scene.Seat(seat[*rv.Owner]).Color
			}
			if rv.Declined {
				want = want.Mix(scene.White, 0.55)
			}
			// The marker's colour shows around its count, off the letters.
			if !near(img, c, pl.mr*0.6, want) {
				t.Errorf("after command %d: region %d of %s: no %v near its label point %v", s.N, rv.ID, *rv.Owner, want, c)
			}
			if got := countAt(sc, c); got != strconv.Itoa(rv.Tokens) {
				t.Errorf("after command %d: region %d: count %q drawn, the view has %d tokens", s.N, rv.ID, got, rv.Tokens)
			}
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no region checked")
	}
}

// boardOf returns the layout a Small World view is drawn on and its fit.
func boardOf(t testing.TB, v *smallworld.View) (*layout.Board, fit) {
	t.Helper()
	m := layout.Map{Name: v.Map}
	for _, r := range v.Regions {
		m.Regions = append(m.Regions, layout.MapRegion{ID: r.ID, Terrain: r.Terrain, Edge: r.Border})
		for _, a := range r.Adjacent {
			if r.ID < a {
				m.Adjacent = append(m.Adjacent, [2]int{r.ID, a})
			}
		}
	}
	b, err := layout.ForMap(m)
	if err != nil {
		t.Fatal(err)
	}
	return b, boardFit(b)
}

// near reports whether a pixel of colour want (to within quantizing) lies within d
// CSS pixels of c, on a ring around it.
func near(img image.Image, c scene.Point, d float64, want scene.Color) bool {
	for _, off := range [][2]float64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-0.7, -0.7}, {0.7, 0.7}, {-0.7, 0.7}, {0.7, -0.7}} {
		x, y := int((c.X+off[0]*d)*raster.Scale), int((c.Y+off[1]*d)*raster.Scale)
		r, g, b, _ := img.At(x, y).RGBA()
		got := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
		if diff(got.R, want.R) <= 8 && diff(got.G, want.G) <= 8 && diff(got.B, want.B) <= 8 {
			return true
		}
	}
	return false
}

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// countAt returns the bold label drawn at c (a marker's count), or "".
func countAt(sc *scene.Scene, c scene.Point) string {
	for _, it := range sc.Items {
		if t, ok := it.(*scene.Text); ok && t.Bold && t.Size == sizeCount && abs(t.At.X-c.X) < 0.5 && abs(t.At.Y-c.Y) < 4 {
			return t.Text
		}
	}
	return ""
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// TestWriters_drawTheSameItems: the SVG writer writes one element per item of a
// scene, of the item's kind, with the labels' words, for a scene of each game.
func TestWriters_drawTheSameItems(t *testing.T) {
	for _, kind := range []string{"smallworld", "underground", "empire", "dungeoneer"} {
		st, viewer := benchState(t, kind, 3, 60)
		sc, err := Scene(Input{View: st.View(viewer), Changed: []string{"2"}})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := svg.Marshal(sc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raster.Draw(sc, 1); err != nil {
			t.Fatal(err)
		}
		for i, it := range sc.Items {
			var tag string
			switch it := it.(type) {
			case *scene.Polygon, *scene.Line:
				tag = "<path"
			case *scene.Circle:
				tag = "<circle"
			case *scene.Rect:
				tag = "<rect"
			case *scene.Text:
				tag = "<text"
				if !bytes.Contains(doc, []byte(">"+xmlText(it.Text)+"</text>")) {
					t.Errorf("%s: label %q not in the SVG", kind, it.Text)
				}
			}
			if !bytes.Contains(doc, []byte(fmt.Sprintf(`%s data-item="%d"`, tag, i))) {
				t.Errorf("%s: item %d (%T) not written as %s", kind, i, it, tag)
			}
		}
		if n := bytes.Count(doc, []byte("data-item=")); n != len(sc.Items) {
			t.Errorf("%s: %d elements for %d items", kind, n, len(sc.Items))
		}
	}
}

func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace(s)
}

// TestScene_deterministic: the same view gives the same picture (the service shares
// pictures between readers of the same board by the scene's hash).
func TestScene_deterministic(t *testing.T) {
	for _, kind := range []string{"smallworld", "underground", "necromancer", "empire", "dungeoneer"} {
		st, viewer := benchState(t, kind, 3, 70)
		var first []byte
		for range 5 {
			sc, err := Scene(Input{View: st.View(viewer), Changed: []string{"3"}})
			if err != nil {
				t.Fatal(err)
			}
			doc, err := svg.Marshal(sc)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = doc
			} else if !bytes.Equal(doc, first) {
				t.Fatalf("%s: two scenes of one view differ", kind)
			}
		}
	}
}

// TestClip: a name is cut to its length with an ellipsis, and loses its control
// characters and the marks that reorder text.
func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"ann", 24, "ann"},
		{"bartholomew", 6, "barth…"},
		{"a\u202eevil\u202c", 24, "aevil"},
		{"x\ty\x00z\u2067w", 24, "xyzw"},
		{"niccolò", 7, "niccolò"},
	} {
		if got := clip(tc.in, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// TestSwatchName: every seat's colour and shape has its own name, in English and
// in Italian (translated, not the swatch's key).
func TestSwatchName(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []Words{English{}, catalogueWords{tr: tr, lang: i18n.Italian}} {
		seen := map[string]int{}
		for i := range scene.Seats {
			sw := scene.Seat(i)
			name := SwatchName(w, sw)
			if name == sw.Name || !strings.Contains(name, " ") {
				t.Errorf("%s: seat %d (%s) is named %q: want its colour and shape", w.Lang(), i, sw.Name, name)
			}
			if j, ok := seen[name]; ok {
				t.Errorf("%s: seats %d and %d are both %q", w.Lang(), j, i, name)
			}
			seen[name] = i
		}
		if w.Lang() == "it" && SwatchName(w, scene.Seat(0)) == SwatchName(English{}, scene.Seat(0)) {
			t.Errorf("the Italian names the first seat in English")
		}
	}
}
