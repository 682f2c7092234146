package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/web/page"
)

// chromium returns the path of a Chromium binary, or "" when there is none.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts headless Chromium for a test (skipped without one, unless
// TURNMAIL_BROWSER_REQUIRED=1), recording every request the pages make that is not
// to one of allowed (prefixes) or a data: URL.
func browser(t *testing.T, allowed ...string) (context.Context, func() []string) {
	t.Helper()
	bin := chromium()
	if bin == "" {
		if os.Getenv("TURNMAIL_BROWSER_REQUIRED") == "1" {
			t.Fatal("no Chromium (chromium, chromium-browser or google-chrome) on PATH and TURNMAIL_BROWSER_REQUIRED=1")
		}
		t.Skip("no Chromium on PATH (apt-get install chromium); TURNMAIL_BROWSER_REQUIRED=1 makes this a failure")
	}
	ctx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")))
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(ctx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancel3)
	var mu sync.Mutex
	var outside []string
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			u := e.Request.URL
			for _, a := range append(allowed, "data:") {
				if strings.HasPrefix(u, a) {
					return
				}
			}
			mu.Lock()
			outside = append(outside, u)
			mu.Unlock()
		}
	})
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
			return err
		}))
	}
	if err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), outside...)
	}
}

// layout is run in a page: the window's width, then one line per problem — the
// document or an element wider than the window, a light page in dark mode, text too
// close to its background (WCAG contrast under 4.5; a disabled button, hidden from
// assistive technology, may be fainter) — and last the number of the step shown.
const layout = `(() => {
  const doc = document.documentElement, W = doc.clientWidth, out = [String(W)];
  if (doc.scrollWidth > W) out.push("document is " + doc.scrollWidth + " px wide in a " + W + " px window");
  const lum = c => { const m = c.match(/[\d.]+/g).map(Number); const f = v => { v /= 255; return v <= 0.03928 ? v/12.92 : Math.pow((v+0.055)/1.055, 2.4); }; return [0.2126*f(m[0]) + 0.7152*f(m[1]) + 0.0722*f(m[2]), m.length > 3 ? m[3] : 1]; };
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const bg = el => { for (; el; el = el.parentElement) { const [l, a] = lum(getComputedStyle(el).backgroundColor); if (a > 0) return l; } return dark ? lum("rgb(18, 18, 18)")[0] : 1; };
  if (dark && bg(document.body) > 0.2) out.push("the page stays light in dark mode");
  const step = [...document.querySelectorAll(".step")].find(s => s.offsetParent !== null);
  for (const el of (step || document.body).querySelectorAll("*")) {
    if (el.closest("svg")) continue;
    const r = el.getBoundingClientRect();
    if (r.right > W + 0.5) out.push(el.tagName + "." + el.className + " reaches " + Math.round(r.right) + " px");
    if (!el.closest("[aria-hidden]") && [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) {
      const [fl] = lum(getComputedStyle(el).color), bl = bg(el);
      const ratio = (Math.max(fl, bl) + 0.05) / (Math.min(fl, bl) + 0.05);
      if (ratio < 4.5) out.push(el.tagName + " " + JSON.stringify(el.textContent.slice(0, 40)) + " contrast " + ratio.toFixed(2));
    }
  }
  out.push(step ? step.getAttribute("data-n") : "none");
  return out;
})()`

// look checks the layout of the page shown and returns the step it shows.
func look(t *testing.T, ctx context.Context, where string) string {
	t.Helper()
	res, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](layout))
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	for _, p := range res[1 : len(res)-1] {
		t.Errorf("%s: %s", where, p)
	}
	return res[len(res)-1]
}

// open sets the window's width and colour scheme and opens url.
func open(ctx context.Context, width int64, scheme, url string) error {
	return chromedp.Do(ctx,
		chromedp.EmulateViewport(width, 800, chromedp.EmulateMobile, chromedp.EmulateScale(1)),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}),
		chromedp.Navigate(url))
}

// shown is run in a page: the number of the step it shows once it is loaded, else "".
const shown = `(() => { const s = [...document.querySelectorAll(".step")].find(s => s.offsetParent !== null); return s && document.readyState === "complete" ? s.getAttribute("data-n") : ""; })()`

// press presses a key and waits until the page shows step want (the page may be
// replaced meanwhile: a server's page links the next step's page).
func press(t *testing.T, ctx context.Context, key string, want int, where string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	got := ""
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[string](shown))
		if got = n; err == nil && n == strconv.Itoa(want) {
			return
		}
	}
	t.Fatalf("%s: after the key the page shows step %q, want %d", where, got, want)
}

// stepsOf returns the event numbers of a record's steps.
func stepsOf(t *testing.T, rec *page.Record) []int {
	t.Helper()
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r, err := page.Build(rec, page.Reader{Viewer: engine.Observer}, tr)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, s := range r.Steps() {
		out = append(out, s.N)
	}
	return out
}

// walkThrough steps through a whole game with the keys from its start, at each step
// checking the layout, then goes to its end and back.
func walkThrough(t *testing.T, ctx context.Context, where string, steps []int) {
	t.Helper()
	if got := look(t, ctx, where); got != "0" {
		t.Fatalf("%s: the start shows step %s", where, got)
	}
	for i := 1; i < len(steps); i++ {
		press(t, ctx, kb.ArrowRight, steps[i], where)
		if i%10 == 0 || i == len(steps)-1 {
			look(t, ctx, fmt.Sprintf("%s, step %d", where, steps[i]))
		}
	}
	last := steps[len(steps)-1]
	press(t, ctx, kb.ArrowRight, last, where+", → at the end")
	press(t, ctx, kb.Home, 0, where+", Home")
	press(t, ctx, kb.ArrowLeft, 0, where+", ← at the start")
	press(t, ctx, kb.End, last, where+", End")
	press(t, ctx, kb.ArrowLeft, steps[len(steps)-2], where+", ← from the end")
}

// TestBrowser_pages steps through a whole game with the keys on the server's pages
// and in its replay file, at a phone's width (390 px) and a computer's (1000 px), in
// light and dark mode: no page is wider than the window or has text too faint for
// its background, and no page asks for anything outside itself.
func TestBrowser_pages(t *testing.T) {
	s, _, recs := newTestServer(t, Options{Rate: 1e6, Burst: 1e6})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	dir := t.TempDir()
	rec := recs["empire"] // the shortest game: 75 events
	file := filepath.Join(dir, rec.ID+".html")
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	w, err := page.New(tr)
	if err != nil {
		t.Fatal(err)
	}
	r, err := page.Build(rec, page.Reader{Viewer: engine.Observer, Lang: i18n.Italian}, tr)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := w.File(&b, r, page.FileOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, outside := browser(t, srv.URL+"/", "file://"+dir+"/")
	steps := stepsOf(t, rec)
	for _, width := range []int64{390, 1000} {
		scheme := map[int64]string{390: "dark", 1000: "light"}[width]
		where := fmt.Sprintf("pages at %d px (%s)", width, scheme)
		if err := open(ctx, width, scheme, srv.URL+"/g/"+rec.ID+"/0"); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		walkThrough(t, ctx, where, steps)
		t.Logf("%s: %d steps in %v", where, len(steps), time.Since(start))
		where = fmt.Sprintf("replay file at %d px (%s)", width, scheme)
		if err := open(ctx, width, scheme, "file://"+file+"#s0"); err != nil {
			t.Fatal(err)
		}
		walkThrough(t, ctx, where, steps)
		svgs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("figure.board svg").length`))
		if err != nil || svgs != 1 {
			t.Errorf("%s: %d pictures shown, want 1 (%v)", where, svgs, err)
		}
		// Opened at a step (a link to #sN), the file shows it under its heading, with
		// the step's turn open in the list of moves.
		mid := steps[len(steps)/2]
		if err := open(ctx, width, scheme, "file://"+file+"#s"+strconv.Itoa(mid)); err != nil {
			t.Fatal(err)
		}
		state := `(() => { const a = document.querySelector(".moves a[aria-current]");
			return [document.readyState, window.scrollY, a ? a.getAttribute("data-i") : "none", !!a && a.closest("details").open].join(" "); })()`
		want := fmt.Sprintf("complete 0 %d true", mid)
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](state+` === "`+want+`"`, chromedp.WithPollingTimeout(5*time.Second)))
		if err != nil {
			at, _ := chromedp.Run(ctx, chromedp.Evaluate[string](state))
			t.Errorf("%s, opened at step %d: loaded, scrolled, current and open %q, want %q (%v)", where, mid, at, want, err)
		}
	}
	for _, u := range outside() {
		t.Errorf("a page asked for %s", u)
	}
	// A compressed replay file opens as the file itself.
	b.Reset()
	if form, err := w.File(&b, r, page.FileOptions{MaxBytes: b.Cap()/4 + 1}); err != nil || !form.Packed {
		t.Fatalf("packed file: %+v %v", form, err)
	}
	packed := filepath.Join(dir, "packed.html")
	if err := os.WriteFile(packed, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	err = open(ctx, 390, "light", "file://"+packed)
	var shown string
	if err == nil {
		shown, err = chromedp.Run(ctx, chromedp.Poll[string](
			`(() => { const s = document.querySelector(".step.last"); return s && document.querySelector("figure.board svg") ? s.getAttribute("data-n") : false; })()`,
			chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err != nil || shown != strconv.Itoa(steps[len(steps)-1]) {
		t.Errorf("the packed file shows step %q (%v)", shown, err)
	}
}
