package templates

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/scene/raster"
)

// sample is one mail to render: a name, its kind and its data.
type sample = struct {
	name, kind string
	data       any
}

// browserWidths are the window widths every mail is laid out at: a phone and a desktop.
var browserWidths = []int64{390, 1000}

// chromium returns the path of a Chromium binary, or "" when there is none.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// realSamples are state mails and refusals from real engine views: the states a
// self-played game of each game reaches — its opening, mid-game, late and its end —
// for two of its players (one to move, or not), as the service builds them: the
// events since the reader's last mail in the game's words, the legal commands with
// their notes, the board's picture; the mid-game mails in Italian too, the late
// ones answering a mail with a refused line; and the refusals of the mid-game
// boards. They are built once for the package's tests (self-play and pictures
// are the costly part); a test reads them and does not change them.
func realSamples(t *testing.T) []sample {
	t.Helper()
	realSamplesOnce.Do(func() {
		realSamplesBuilt = buildRealSamples(t)
	})
	if realSamplesBuilt == nil {
		t.Fatal("the real samples could not be built (see the first test that asked for them)")
	}
	return realSamplesBuilt
}

var (
	realSamplesOnce  sync.Once
	realSamplesBuilt []sample
)

// buildRealSamples builds realSamples.
func buildRealSamples(t *testing.T) []sample {
	t.Helper()
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	for _, kind := range []string{"smallworld", "necromancer", "underground", "empire", "dungeoneer"} {
		players := map[string]int{"smallworld": 3, "necromancer": 3}[kind]
		players = max(players, 2)
		game := Game{ID: kind[:2] + "-7k3p", Kind: kind, Title: GameTitle(kind), Players: []string{"ann", "ben", "cy"}[:players]}
		var steps []selfplay.Step
		_, err := selfplay.Play(games.Registry()[kind], selfplay.Config{Seed: 3, Players: players}, func(s selfplay.Step) error {
			steps = append(steps, s)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		pick := map[string]int{"opening": 0, "mid": len(steps) / 2, "late": len(steps) * 4 / 5, "end": len(steps) - 1}
		for label, k := range pick {
			readers := []string{"ann", "ben"} // the player to move, and one who waits
			if toAct := steps[k].State.ToAct(); len(toAct) > 0 {
				readers[0] = toAct[0]
				if toAct[0] == "ann" {
					readers[1] = "ben"
				} else {
					readers[1] = "ann"
				}
			}
			for _, who := range readers {
				langs := []i18n.Lang{i18n.English}
				if label == "mid" {
					langs = append(langs, i18n.Italian)
				}
				for _, lang := range langs {
					st := realState(t, tr, lang, game, steps, k, who)
					if label == "late" && st.YourTurn {
						st.Applied = []Line{{N: 1, Text: st.Legal[0]}}
						st.Error = &LineError{Line: Line{N: 2, Text: "conquer 99 with every token I have left in my hand, please"}, Reason: "there is no region 99"}
					}
					role := "waits"
					if st.YourTurn {
						role = "moves"
					}
					name := fmt.Sprintf("%s-%s-%s-%s", kind[:2], label, who, role)
					if lang != i18n.English {
						name += "-" + string(lang)
					}
					out = append(out, sample{name, "state", st})
					if label == "mid" { // a refusal of the same board
						out = append(out, sample{name + "-refusal", "refusal", Refusal{
							Game: game, Player: who, Error: &LineError{Line: Line{N: 1, Text: "conquer 99"}, Reason: "there is no region 99"}, Legal: st.Legal, LegalNotes: st.LegalNotes,
							ToAct: st.ToAct, ReplyTo: st.ReplyTo, View: st.View, Lang: st.Lang, Picture: st.Picture}})
					}
				}
			}
		}
	}
	return out
}

// realState is the state mail to who in lang after step k of a self-played game:
// the events of the steps since who last moved (at most four) in the game's words.
func realState(t *testing.T, tr *i18n.Bundle, lang i18n.Lang, game Game, steps []selfplay.Step, k int, who string) State {
	t.Helper()
	s := steps[k]
	var view map[string]any
	b, err := json.Marshal(s.State.View(who))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &view); err != nil {
		t.Fatal(err)
	}
	st := State{Game: game, Player: who, Opening: k == 0, ToAct: s.State.ToAct(), View: view, Lang: string(lang),
		Finished: s.State.Finished(), ReplyTo: "turnmail+" + game.ID + ".0.xxxxxxxxxxxxxxxx@example.org"}
	for _, p := range st.ToAct {
		st.YourTurn = st.YourTurn || p == who
	}
	if st.YourTurn {
		set := &Set{tr: tr}
		st.Deadline = set.When(string(lang), time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC), time.FixedZone("CET", 3600))
	}
	for i := max(1, k-3); i <= k && k > 0; i++ {
		e := steps[i]
		m := Move{Seq: e.N, Player: e.Player, Command: tr.Command(game.Kind, lang, e.Command)}
		for _, h := range engine.Narrate(steps[i-1].State, e.Player, e.Command, e.State, who) {
			hp := Happening{Kind: h.Kind, Text: tr.GameText(game.Kind, lang, h.Text), You: slices.Contains(h.Hit, who)}
			for _, d := range h.Details {
				hp.Details = append(hp.Details, tr.GameText(game.Kind, lang, d))
			}
			m.Happened = append(m.Happened, hp)
		}
		st.Moves = append(st.Moves, m)
	}
	if !st.Finished {
		st.Legal, st.AnyTime, st.LegalNotes = legalIn(tr, lang, game.Kind, s.State, who)
	}
	if st.Finished {
		st.Winners = s.State.Winners()
	}
	st.Picture = boardPicture(t, s.State.View(who), tr, lang) // issue 22
	st.Page = samplePage                                      // issue 25
	return st
}

// externalRef matches what would make a mail load something from outside; a
// mailto: link (a reply, see mailtoLink) loads nothing.
var externalRef = regexp.MustCompile(`(?i)\b(src|href)\s*=|url\(|@import|https?://`)

// mailtoLink matches a link that opens a reply, or the reader's page of the game
// (samplePage): the mail loads neither.
var mailtoLink = regexp.MustCompile(`href="mailto:[^"]*"|href="` + regexp.QuoteMeta(samplePage) + `"`)

// samplePage is the address of the reader's web page the real samples link.
const samplePage = "https://games.example/tm/p/sw-abcd.0.1.0123456789abcdef/"

// layoutCheck is run in the page: it returns one line per problem — the document wider
// than the window, an element reaching beyond the window's right edge or whose content
// spills out of it, text whose colour is too close to its background (WCAG contrast
// below 4.5), a light page when dark mode is asked for — and the window's layout
// width first.
const layoutCheck = `(() => {
  const doc = document.documentElement, W = doc.clientWidth, out = [String(W)];
  if (doc.scrollWidth > W) out.push("document is " + doc.scrollWidth + " px wide in a " + W + " px window");
  const lum = c => { const m = c.match(/[\d.]+/g).map(Number); const f = v => { v /= 255; return v <= 0.03928 ? v/12.92 : Math.pow((v+0.055)/1.055, 2.4); }; return [0.2126*f(m[0]) + 0.7152*f(m[1]) + 0.0722*f(m[2]), m.length > 3 ? m[3] : 1]; };
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const canvas = () => dark && getComputedStyle(doc).colorScheme.includes("dark") ? lum("rgb(18, 18, 18)")[0] : 1;
  const bg = el => { for (; el; el = el.parentElement) { const [l, a] = lum(getComputedStyle(el).backgroundColor); if (a > 0) return l; } return canvas(); };
  if (dark && bg(document.body) > 0.2) out.push("the page stays light in dark mode");
  const what = el => el.tagName.toLowerCase() + (el.className ? "." + el.className : "") + " " + JSON.stringify((el.innerText || "").slice(0, 60));
  const reported = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect(), inside = reported.some(p => p.contains(el));
    if (r.right > W + 0.5 && !inside) { out.push(what(el) + " reaches " + Math.round(r.right) + " px"); reported.push(el); continue; }
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !inside) { out.push(what(el) + " content is " + el.scrollWidth + " px in " + el.clientWidth + " px"); reported.push(el); }
    if ([...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) {
      const [fl] = lum(getComputedStyle(el).color), bl = bg(el);
      const ratio = (Math.max(fl, bl) + 0.05) / (Math.min(fl, bl) + 0.05);
      if (ratio < 4.5) out.push(what(el) + " contrast " + ratio.toFixed(2) + " (" + getComputedStyle(el).color + ")");
    }
  }
  return out;
})()`

// TestBrowserLayout lays out the HTML part of every kind of mail in headless Chromium
// at a phone's width (390 px, as a phone: the page's viewport decides the layout
// width) and at a desktop's (1000 px), in light and in dark mode, and fails when the
// document is wider than the window, an element overflows, text has too little
// contrast with its background, or the mail refers to anything outside itself.
// Without Chromium it skips, unless TURNMAIL_BROWSER_REQUIRED=1 (CI). With
// TURNMAIL_BROWSER_SHOTS=DIR it saves a PNG of each Small World and Empire state mail at 390 px.
func TestBrowserLayout(t *testing.T) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("TURNMAIL_BROWSER_REQUIRED") == "1" {
			t.Fatal("no Chromium (chromium, chromium-browser or google-chrome) on PATH and TURNMAIL_BROWSER_REQUIRED=1")
		}
		t.Skip("no Chromium on PATH (apt-get install chromium); TURNMAIL_BROWSER_REQUIRED=1 makes this a failure")
	}
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(filepath.Join(dir, "profile")))
	defer cancel()
	ctx, cancel = chromedp.NewContext(ctx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	shots := os.Getenv("TURNMAIL_BROWSER_SHOTS")
	for _, s := range append(samples, realSamples(t)...) {
		_, page, err := set.Render(s.kind, s.data)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		// The board's picture is the mail's own part (src="cid:…"); the browser is
		// given it as a file beside the page.
		page, inline := inlinePicture(t, dir, s.data, page)
		if m := externalRef.FindString(mailtoLink.ReplaceAllString(strings.Replace(page, inline, "", 1), "")); m != "" {
			t.Errorf("%s: the HTML refers outside the mail (%q)", s.name, m)
		}
		file := filepath.Join(dir, s.name+".html")
		if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, w := range browserWidths {
			for i, scheme := range []string{"light", "dark"} {
				steps := []chromedp.Action[chromedp.Void]{
					chromedp.EmulateViewport(w, 800, chromedp.EmulateMobile, chromedp.EmulateScale(1)),
					chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
						_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
							Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
						return err
					}),
				}
				if i == 0 {
					// The page is loaded once per width; the colour scheme, a media
					// feature, applies to the loaded page as it changes.
					steps = append(steps, chromedp.Navigate("file://"+file))
				}
				if err := chromedp.Do(ctx, steps...); err != nil {
					t.Fatalf("%s at %d px: %v", s.name, w, err)
				}
				problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](layoutCheck))
				if err != nil {
					t.Fatalf("%s at %d px: %v", s.name, w, err)
				}
				if got := problems[0]; got != fmt.Sprint(w) {
					t.Errorf("%s at %d px (%s): laid out %s px wide (no viewport meta?)", s.name, w, scheme, got)
				}
				for _, p := range problems[1:] {
					t.Errorf("%s at %d px (%s): %s", s.name, w, scheme, p)
				}
				if st, ok := s.data.(State); ok && w == 390 && !st.Finished {
					// On a phone, whose move it is and what happened since the reader's
					// last mail are in the first screen, before any scrolling.
					got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](firstScreen))
					if err != nil {
						t.Fatal(err)
					}
					turnBottom, _ := strconv.ParseFloat(got[1], 64)
					height, _ := strconv.ParseFloat(got[2], 64)
					accountTop, _ := strconv.ParseFloat(got[3], 64)
					wantTurn := set.words(st.Lang).turn(st.YourTurn, st.ToAct, st.Deadline, false, nil)
					switch {
					case got[0] != wantTurn:
						t.Errorf("%s at 390 px (%s): the first line reads %q, want %q", s.name, scheme, got[0], wantTurn)
					case turnBottom > height:
						t.Errorf("%s at 390 px (%s): the turn ends at %v px, below the first screen (%v px)", s.name, scheme, turnBottom, height)
					case len(st.Moves) > 0 && (accountTop < 0 || accountTop > height):
						t.Errorf("%s at 390 px (%s): what happened starts at %v px, not in the first screen (%v px)", s.name, scheme, accountTop, height)
					}
				}
				if inline != "" { // the picture shows, whole, within the window
					shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](pictureCheck))
					if err != nil {
						t.Fatal(err)
					}
					if len(shown) != 3 || shown[0] == 0 || shown[1] > float64(w) || shown[1] < min(float64(w)-40, 560) {
						t.Errorf("%s at %d px (%s): picture natural width, shown width, height %v: want it loaded, as wide as the window allows up to 600 px", s.name, w, scheme, shown)
					}
				}
				if shots != "" && w == 390 && s.kind == "state" && slices.ContainsFunc([]string{"sm-", "ne-", "un-", "em-", "du-"}, func(p string) bool { return strings.HasPrefix(s.name, p) }) {
					png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%s-%s.png", s.name, scheme)), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// boardPicture draws a view's picture for a sample state mail (issue 22): the
// picture the mail would carry, kept by its Content-ID until inlinePicture writes it.
func boardPicture(t *testing.T, view any, tr *i18n.Bundle, lang i18n.Lang) *Picture {
	t.Helper()
	sc, err := draw.Scene(draw.Input{View: view, Words: pictureWords{words{tr: tr, lang: lang}}})
	if err != nil {
		t.Fatal(err)
	}
	png, err := raster.PNG(sc)
	if err != nil {
		t.Fatal(err)
	}
	cid := fmt.Sprintf("board.%d@example.org", len(pictures))
	pictures[cid] = png
	return &Picture{CID: cid, Width: int(sc.Width), Height: int(sc.Height), Alt: sc.Alt}
}

// pictures are the sample pictures by Content-ID.
var pictures = map[string][]byte{}

// inlinePicture writes a state mail's picture beside its page and points the page's
// <img> at it, as a mail client shows the inline part; it returns the page and the
// src attribute it replaced ("" when the mail has no picture).
func inlinePicture(t *testing.T, dir string, data any, page string) (string, string) {
	t.Helper()
	var pic *Picture
	switch d := data.(type) {
	case State:
		pic = d.Picture
	case Refusal:
		pic = d.Picture
	}
	if pic == nil {
		return page, ""
	}
	src := `src="cid:` + pic.CID + `"`
	if !strings.Contains(page, src) {
		t.Fatalf("the mail does not show its picture by %s", src)
	}
	name := strings.TrimSuffix(pic.CID, "@example.org") + ".png"
	if err := os.WriteFile(filepath.Join(dir, name), pictures[pic.CID], 0o644); err != nil {
		t.Fatal(err)
	}
	local := `src="` + name + `"`
	return strings.Replace(page, src, local, 1), local
}

// firstScreen returns, as text: the turn line, where it ends, the window's height,
// and where the first item of the account of what happened starts (-1: none), in
// CSS pixels from the top of the page.
const firstScreen = `(() => {
  const t = document.querySelector("p.turn"), a = document.querySelector("p.turn ~ ul li");
  return [t ? t.innerText : "", String(t ? t.getBoundingClientRect().bottom : 1e9), String(window.innerHeight), String(a ? a.getBoundingClientRect().top : -1)];
})()`

// pictureCheck returns the picture's natural width, its width and height as shown.
const pictureCheck = `(() => { const i = document.images[0]; if (!i) return []; const r = i.getBoundingClientRect(); return [i.naturalWidth, r.width, r.height]; })()`
