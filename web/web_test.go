package web

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
	"github.com/turnmail/turnmail/web/page"
)

var secret = []byte("a test secret of the web pages")

// fakeGame is one game of a fakeSource.
type fakeGame struct {
	head page.Head
	rec  *page.Record
}

// fakeSource serves games played by selfplay, counting the records it builds and
// keeping the last earlier record it was given.
type fakeSource struct {
	mu      sync.Mutex
	games   map[string]*fakeGame
	order   []string
	records int
	prev    *page.Record
}

func (f *fakeSource) PageGames(context.Context) ([]page.Summary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []page.Summary
	for _, id := range f.order {
		g := f.games[id]
		if g.head.Private || !g.head.Started {
			continue
		}
		out = append(out, page.Summary{ID: id, Kind: g.rec.Kind, Players: g.rec.Players, Finished: g.rec.Last().Finished()})
	}
	return out, nil
}

func (f *fakeSource) PageHead(_ context.Context, id string) (page.Head, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, ok := f.games[id]
	if !ok {
		return page.Head{}, fmt.Errorf("game %s: %w", id, store.ErrNotFound)
	}
	return g.head, nil
}

func (f *fakeSource) PageRecord(_ context.Context, id string, prev *page.Record) (*page.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, ok := f.games[id]
	if !ok {
		return nil, fmt.Errorf("game %s: %w", id, store.ErrNotFound)
	}
	f.records++
	f.prev = prev
	return g.rec, nil
}

// played are the self-played games of every engine, played once for the package.
var played = sync.OnceValues(func() (map[string]*page.Record, error) {
	tr, err := i18n.Load()
	if err != nil {
		return nil, err
	}
	tmpl, err := templates.Load()
	if err != nil {
		return nil, err
	}
	reg := games.Registry()
	out := map[string]*page.Record{}
	for _, kind := range reg.Names() {
		a, err := selfplay.Play(reg[kind], selfplay.Config{Seed: 2}, func(selfplay.Step) error { return nil })
		if err != nil {
			return nil, err
		}
		// An undo and an administrative event, as the service records them.
		a.Events = append(a.Events[:3:3], append([]engine.Event{{Kind: engine.KindAdmin, Player: "ann", Command: "say hello"},
			{Kind: engine.KindUndo, Player: "ann", Command: "agreed by ben, taking back " + a.Events[2].Player + ": " + a.Events[2].Command}}, a.Events[2:]...)...)
		for i := 5; i < len(a.Events); i++ {
			a.Events[i].Hash = "" // the undo shifted the draws' sequence numbers
		}
		rec, err := page.FromArchive(reg, a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kind, err)
		}
		rec.ID = strings.ReplaceAll(kind[:2], "n", "x") + "-" + strconv.Itoa(len(out)) + "abc"
		rec.Tell = service.Teller(tr, tmpl)
		out[kind] = rec
	}
	return out, nil
})

// newTestServer serves every played game (the Italian ones in Italian), one of them
// private, and an open game.
func newTestServer(t *testing.T, opts Options) (*Server, *fakeSource, map[string]*page.Record) {
	t.Helper()
	recs, err := played()
	if err != nil {
		t.Fatal(err)
	}
	src := &fakeSource{games: map[string]*fakeGame{}}
	for kind, rec := range recs {
		r := *rec
		if kind == "empire" {
			r.Lang = i18n.Italian
		}
		head := page.Head{Version: "v1", Started: true, Private: kind == "necromancer"}
		for i, p := range r.Players {
			head.Seats = append(head.Seats, page.Seat{Seat: i, Name: p, Epoch: i})
		}
		head.Seats = append(head.Seats, page.Seat{Seat: len(r.Players), Name: "olga", Observer: true})
		src.games[r.ID] = &fakeGame{head: head, rec: &r}
		src.order = append(src.order, r.ID)
	}
	slices.Sort(src.order)
	src.games["op-1"] = &fakeGame{head: page.Head{Version: "v1"}}
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	opts.Secret = secret
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := New(src, tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, src, recs
}

// get fetches path from h, as a client at addr.
func get(h http.Handler, method, path string, hdr ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var hrefRe = regexp.MustCompile(`href="([^"]*)"`)

// TestServer_routes fetches, for every game, its public page, the start and a step in
// the middle, each seat's private page, and follows the navigation links of the
// page: each is a page of the same game.
func TestServer_routes(t *testing.T) {
	s, _, recs := newTestServer(t, Options{Rate: 1e6, Burst: 1e6})
	h := s.Handler()
	for kind, rec := range recs {
		t.Run(kind, func(t *testing.T) {
			base := "/g/" + rec.ID + "/"
			if kind == "necromancer" {
				base = "/p/" + auth.PageToken(secret, rec.ID, 0, 0) + "/"
			}
			last := len(rec.Events)
			for _, path := range []string{base, base + "0", base + strconv.Itoa(last/2+1), base + strconv.Itoa(last)} {
				res := get(h, "GET", path)
				if res.Code != http.StatusOK {
					if res.Code == http.StatusNotFound && rec.Events[last/2].Kind == engine.KindAdmin {
						continue
					}
					t.Fatalf("%s: %d %s", path, res.Code, res.Body)
				}
				body := res.Body.String()
				for _, want := range []string{"<!DOCTYPE html>", rec.ID, `<table class="players">`, `class="moves"`, rec.Players[0], rec.Players[1]} {
					if !strings.Contains(body, want) {
						t.Errorf("%s lacks %q", path, want)
					}
				}
				if kind != "tally" && !strings.Contains(body, "<svg") {
					t.Errorf("%s has no board", path)
				}
				if got := res.Header().Get("Content-Security-Policy"); !strings.HasPrefix(got, "default-src 'none'") {
					t.Errorf("%s: Content-Security-Policy %q", path, got)
				}
				// Every link of the page is a step of the same game (relative).
				for _, m := range hrefRe.FindAllStringSubmatch(body, -1) {
					n, err := strconv.Atoi(m[1])
					if err != nil || n < 0 || n > last {
						t.Fatalf("%s links %q", path, m[1])
					}
				}
			}
			// The navigation leads, link by link, from the start on and to the end (a
			// long game: its first and last 40 steps).
			follow := func(path string, steps int) string {
				for range steps {
					body := get(h, "GET", path).Body.String()
					next := regexp.MustCompile(`data-nav="next" rel="next" href="(\d+)"`).FindStringSubmatch(body)
					if next == nil {
						break
					}
					path = base + next[1]
				}
				return path
			}
			if at := follow(base+"0", 40); at == base+"0" {
				t.Error("the start links no next step")
			}
			start := len(rec.Events) - 40
			for start > 0 && rec.Events[start-1].Kind == engine.KindAdmin {
				start--
			}
			if path := follow(base+strconv.Itoa(max(0, start)), 100); !strings.HasSuffix(path, "/"+strconv.Itoa(last)) {
				t.Errorf("next links end at %s, want event %d", path, last)
			}
			// Each seat's private page is theirs.
			for i, p := range rec.Players {
				res := get(h, "GET", "/p/"+auth.PageToken(secret, rec.ID, i, i)+"/")
				if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), p) {
					t.Fatalf("%s's page: %d", p, res.Code)
				}
				if got := res.Header().Get("Cache-Control"); !strings.Contains(got, "private") {
					t.Errorf("%s's page: Cache-Control %q", p, got)
				}
			}
			// The observer's private link shows the public view.
			if res := get(h, "GET", "/p/"+auth.PageToken(secret, rec.ID, len(rec.Players), 0)+"/"); res.Code != http.StatusOK {
				t.Errorf("the observer's page: %d", res.Code)
			}
		})
	}
}

// TestServer_notFound: every address that shows nothing is the same plain 404.
func TestServer_notFound(t *testing.T) {
	s, _, recs := newTestServer(t, Options{Rate: 1e6, Burst: 1e6})
	h := s.Handler()
	sw, nx := recs["smallworld"], recs["necromancer"]
	admin := 0
	for i, e := range sw.Events {
		if e.Kind == engine.KindAdmin {
			admin = i + 1
		}
	}
	paths := []string{
		"/g/zz-0abc/", "/g/zz-0abc/3", "/g/" + nx.ID + "/", "/g/" + nx.ID + "/0", "/g/op-1/",
		"/g/" + sw.ID + "/" + strconv.Itoa(admin), "/g/" + sw.ID + "/" + strconv.Itoa(len(sw.Events)+1),
		"/g/" + sw.ID + "/01", "/g/" + sw.ID + "/-1", "/g/" + sw.ID + "/x", "/g/" + sw.ID + "/99999999999999999999",
		"/g/SW-0ABC/", "/g/" + strings.Repeat("a", 100) + "/",
		"/p/" + auth.PageToken(secret, sw.ID, 0, 1) + "/", // the seat changed hands
		"/p/" + auth.PageToken(secret, sw.ID, 7, 0) + "/", // no such seat
		"/p/" + auth.PageToken([]byte("another secret, not ours"), sw.ID, 0, 0) + "/",
		"/p/" + auth.PageToken(secret, "zz-0abc", 0, 0) + "/",
		"/p/" + auth.PageToken(secret, "op-1", 0, 0) + "/",
		"/p/" + auth.Token(secret, sw.ID, 0) + "/", "/p/x/", "/p/" + strings.Repeat("a.", 300) + "/",
		"/favicon.ico", "/g/", "/p/", "/static/x.css", "/g/" + sw.ID + "/1/2",
	}
	want := get(h, "GET", paths[0])
	for _, p := range paths {
		res := get(h, "GET", p)
		if res.Code != http.StatusNotFound || res.Body.String() != want.Body.String() || res.Header().Get("Content-Type") != want.Header().Get("Content-Type") {
			t.Errorf("%s: %d %q, want the plain 404", p, res.Code, res.Body.String())
		}
	}
	if want.Body.String() != "404 page not found\n" {
		t.Errorf("404 body %q", want.Body)
	}
}

// TestServer_methods: pages only read; a game's address without its slash leads to
// it with one, relatively (behind a proxy's path prefix too).
func TestServer_methods(t *testing.T) {
	s, _, recs := newTestServer(t, Options{Rate: 1e6, Burst: 1e6})
	h := s.Handler()
	path := "/g/" + recs["empire"].ID + "/"
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		if res := get(h, m, path); res.Code != http.StatusMethodNotAllowed || res.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d", m, res.Code)
		}
	}
	for _, p := range []string{"/g/" + recs["empire"].ID, "/p/" + auth.PageToken(secret, recs["empire"].ID, 0, 0)} {
		res := get(h, "GET", p)
		if want := p[strings.LastIndexByte(p, '/')+1:] + "/"; res.Code != http.StatusMovedPermanently || res.Header().Get("Location") != want {
			t.Errorf("%s: %d to %q, want a redirect to %q (relative)", p, res.Code, res.Header().Get("Location"), want)
		}
	}
	head := get(h, "HEAD", path)
	if head.Code != http.StatusOK || head.Body.Len() != 0 || head.Header().Get("Content-Length") == "" {
		t.Errorf("HEAD: %d, %d bytes, length %q", head.Code, head.Body.Len(), head.Header().Get("Content-Length"))
	}
}

// TestServer_cache: a page is replayed once per version of its game, answers 304 to
// its ETag, compresses for who accepts it; a new version replays the game again,
// from the record of the version before.
func TestServer_cache(t *testing.T) {
	s, src, recs := newTestServer(t, Options{Rate: 1e6, Burst: 1e6})
	h := s.Handler()
	rec := recs["smallworld"]
	path := "/g/" + rec.ID + "/"
	first := get(h, "GET", path)
	for range 3 {
		get(h, "GET", path)
		get(h, "GET", path+"0")
	}
	if src.records != 1 || src.prev != nil {
		t.Errorf("%d records built (from %p), want 1 from none", src.records, src.prev)
	}
	etag := first.Header().Get("ETag")
	if res := get(h, "GET", path, "If-None-Match", etag); res.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", res.Code)
	}
	gz := get(h, "GET", path, "Accept-Encoding", "gzip")
	if gz.Header().Get("Content-Encoding") != "gzip" {
		t.Fatal("not compressed")
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if string(plain) != first.Body.String() {
		t.Error("the compressed page differs")
	}
	src.mu.Lock()
	src.games[rec.ID].head.Version = "v2"
	src.mu.Unlock()
	if res := get(h, "GET", path, "If-None-Match", etag); res.Code != http.StatusOK {
		t.Errorf("after a new event, If-None-Match: %d", res.Code)
	}
	if src.records != 2 || src.prev != src.games[rec.ID].rec {
		t.Errorf("%d records built after a new version (from %p), want 2 from the first", src.records, src.prev)
	}
}

// TestServer_rate: a client's requests beyond its burst are refused until its rate
// lets them in again; other clients are not held up; a proxy on loopback counts its
// clients apart.
func TestServer_rate(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	s, _, _ := newTestServer(t, Options{Rate: 2, Burst: 3, Clock: func() time.Time { return now }})
	h := s.Handler()
	from := func(addr, fwd string) int {
		req := httptest.NewRequest("GET", "/g/none-1/", nil)
		req.RemoteAddr = addr
		if fwd != "" {
			req.Header.Set("X-Forwarded-For", fwd)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for i := range 3 {
		if c := from("203.0.113.5:1000", ""); c != http.StatusNotFound {
			t.Fatalf("request %d: %d", i, c)
		}
	}
	if c := from("203.0.113.5:1001", ""); c != http.StatusTooManyRequests {
		t.Fatalf("beyond the burst: %d", c)
	}
	if c := from("203.0.113.6:1000", ""); c != http.StatusNotFound {
		t.Fatalf("another client: %d", c)
	}
	// A forged X-Forwarded-For from afar changes nothing.
	if c := from("203.0.113.5:1002", "198.51.100.1"); c != http.StatusTooManyRequests {
		t.Fatalf("forwarded from afar: %d", c)
	}
	for i := range 3 {
		if c := from("127.0.0.1:5000", "198.51.100.1, 198.51.100."+strconv.Itoa(i)); c != http.StatusNotFound {
			t.Fatalf("proxied client %d: %d", i, c)
		}
	}
	now = now.Add(time.Second)
	if c := from("203.0.113.5:1003", ""); c != http.StatusNotFound {
		t.Fatalf("a second later: %d", c)
	}
}

// TestServer_index lists the public games only.
func TestServer_index(t *testing.T) {
	s, _, recs := newTestServer(t, Options{Rate: 1e6, Burst: 1e6})
	body := get(s.Handler(), "GET", "/").Body.String()
	for kind, rec := range recs {
		if got, want := strings.Contains(body, `href="g/`+rec.ID+`/"`), kind != "necromancer"; got != want {
			t.Errorf("%s listed: %v, want %v", kind, got, want)
		}
	}
	if strings.Contains(body, "op-1") {
		t.Error("a game that has not started is listed")
	}
}

// TestServer_concurrent: readers of several games at once, while one game gets new
// versions, each get their page (run it under -race: the caches are shared).
func TestServer_concurrent(t *testing.T) {
	s, src, recs := newTestServer(t, Options{Rate: 1e6, Burst: 1e6, Games: 2, PageBytes: 1 << 20})
	h := s.Handler()
	var ids []string
	for kind, rec := range recs {
		if kind != "necromancer" && kind != "dungeoneer" {
			ids = append(ids, rec.ID)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 15 {
				id := ids[(g+i)%len(ids)]
				if g == 0 && i%5 == 0 {
					src.mu.Lock()
					src.games[id].head.Version = fmt.Sprintf("v%d", i)
					src.mu.Unlock()
				}
				if res := get(h, "GET", "/g/"+id+"/"+strconv.Itoa(i)); res.Code != http.StatusOK && res.Code != http.StatusNotFound {
					errs <- fmt.Sprintf("%s step %d: %d", id, i, res.Code)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestServer_behindProxy: under a proxy's path prefix, every link and redirect of the
// pages leads to a page (they are relative).
func TestServer_behindProxy(t *testing.T) {
	s, _, recs := newTestServer(t, Options{Rate: 1e6, Burst: 1e6})
	proxy := http.StripPrefix("/turnmail", s.Handler())
	base, _ := url.Parse("https://games.example.org/turnmail/")
	follow := func(from *url.URL, ref string) (*url.URL, *httptest.ResponseRecorder) {
		to := from.ResolveReference(&url.URL{Path: ref})
		return to, get(proxy, "GET", to.Path)
	}
	_, index := follow(base, "")
	m := hrefRe.FindStringSubmatch(index.Body.String())
	if index.Code != http.StatusOK || m == nil {
		t.Fatalf("the index: %d", index.Code)
	}
	game, res := follow(base, m[1])
	if res.Code != http.StatusOK {
		t.Fatalf("%s: %d", game, res.Code)
	}
	for _, l := range hrefRe.FindAllStringSubmatch(res.Body.String(), 3) {
		if to, r := follow(game, l[1]); r.Code != http.StatusOK {
			t.Errorf("%s: %d", to, r.Code)
		}
	}
	noSlash, _ := url.Parse("https://games.example.org/turnmail/g/" + recs["empire"].ID)
	_, r := follow(noSlash, "")
	if r.Code != http.StatusMovedPermanently {
		t.Fatalf("without the slash: %d", r.Code)
	}
	if to, r := follow(noSlash, r.Header().Get("Location")); r.Code != http.StatusOK {
		t.Errorf("the redirect to %s: %d", to, r.Code)
	}
}
