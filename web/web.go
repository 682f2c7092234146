// Package web serves the games' web pages over HTTP (issue 25): for every game the
// board now and each step of the game at its own address, the public view for anyone
// and each player's own view behind an unguessable link. Pages only read: no move is
// made on the web.
//
// Addresses, all relative to the base URL, so that a reverse proxy may serve them
// under any path:
//
//	/                    the public games, newest first
//	/g/GAME/             the public page of a game: its latest step
//	/g/GAME/N            the public page of event N (0: the start)
//	/p/TOKEN/, /p/TOKEN/N  a seat's private page (auth.PageToken)
//
// An unknown game, a private game's public address, a token that does not verify or
// whose seat changed hands, a step that is no move: all are the same plain 404.
package web

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/ratelimit"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/web/page"
)

// Source is where the pages read the games (the game service).
type Source interface {
	// PageGames lists the games with a public page, newest first.
	PageGames(ctx context.Context) ([]page.Summary, error)
	// PageHead returns what the pages need to know of a game before replaying it;
	// an unknown game is an error wrapping store.ErrNotFound.
	PageHead(ctx context.Context, id string) (page.Head, error)
	// PageRecord returns the game replayed; prev, when not nil, is the record the
	// pages hold of an earlier version, whose states the new one may share.
	PageRecord(ctx context.Context, id string, prev *page.Record) (*page.Record, error)
}

// Options configure a Server. Zero fields take the defaults.
type Options struct {
	// Secret keys the private pages' tokens (the service's secret). Required.
	Secret []byte
	// Lang is the language of the index of games (default English).
	Lang i18n.Lang
	// Logger receives the errors a page could not be written for (default
	// slog.Default()).
	Logger *slog.Logger
	// Rate and Burst bound the requests of one client: Rate a second on average,
	// Burst at once (defaults DefaultRate, DefaultBurst). A client is the remote
	// address; behind a reverse proxy on loopback, the address the proxy names last
	// in X-Forwarded-For.
	Rate  float64
	Burst int
	// Games bounds the games kept replayed (default DefaultGames), and States the
	// states they hold together (default DefaultStates).
	Games, States int
	// PageBytes bounds the written pages kept (default DefaultPageBytes).
	PageBytes int
	// Clock is the clock of the rate limits (default time.Now).
	Clock func() time.Time
}

// Defaults of Options.
const (
	DefaultRate      = 10
	DefaultBurst     = 40
	DefaultGames     = 16
	DefaultStates    = 20000
	DefaultPageBytes = 32 << 20
	// MaxIndex is the most games the index lists.
	MaxIndex = 100
)

// Server serves the pages. It is safe for concurrent use.
type Server struct {
	src    Source
	w      *page.Writer
	opts   Options
	log    *slog.Logger
	games  *gameCache
	pages  *pageCache
	limit  *ratelimit.Buckets // each client's requests
	render chan struct{}      // bounds the pages written at once
	csp    string
}

// maxClients bounds the clients whose request rates are remembered.
const maxClients = 10000

// New returns a Server reading src. It does no I/O.
func New(src Source, tr *i18n.Bundle, opts Options) (*Server, error) {
	if len(opts.Secret) < 16 {
		return nil, errors.New("web: secret shorter than 16 bytes")
	}
	if opts.Rate <= 0 {
		opts.Rate = DefaultRate
	}
	if opts.Burst <= 0 {
		opts.Burst = DefaultBurst
	}
	if opts.Games <= 0 {
		opts.Games = DefaultGames
	}
	if opts.States <= 0 {
		opts.States = DefaultStates
	}
	if opts.PageBytes <= 0 {
		opts.PageBytes = DefaultPageBytes
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	w, err := page.New(tr)
	if err != nil {
		return nil, err
	}
	return &Server{
		src: src, w: w, opts: opts, log: log,
		games:  newGameCache(opts.Games, opts.States),
		pages:  newPageCache(opts.PageBytes),
		limit:  ratelimit.New(opts.Rate, opts.Burst, maxClients, opts.Clock),
		render: make(chan struct{}, 4),
		csp:    contentPolicy(),
	}, nil
}

// contentPolicy is the pages' Content-Security-Policy: nothing is loaded from
// anywhere; the inline style sheet and script are allowed by their hashes, pictures
// only as data: URLs (the players' markers).
func contentPolicy() string {
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	return "default-src 'none'; style-src " + hash(page.CSS) + "; script-src " + hash(page.JS) +
		"; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

// Handler returns the pages' handler: only GET and HEAD, every request counted
// against its client's rate.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /g/{game}/{$}", s.public)
	mux.HandleFunc("GET /g/{game}/{n}", s.public)
	mux.HandleFunc("GET /g/{game}", slash)
	mux.HandleFunc("GET /p/{token}/{$}", s.private)
	mux.HandleFunc("GET /p/{token}/{n}", s.private)
	mux.HandleFunc("GET /p/{token}", slash)
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { notFound(w) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "only GET and HEAD: pages only read", http.StatusMethodNotAllowed)
			return
		}
		if !s.limit.Allow(clientOf(r)) {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many requests", http.StatusTooManyRequests)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// notFound is the one answer to every address that shows nothing: it says nothing of
// why.
func notFound(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintln(w, "404 page not found")
}

// slash sends /g/GAME to /g/GAME/, where the relative links of its steps resolve.
func slash(w http.ResponseWriter, r *http.Request) {
	last := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	if len(last) > 200 {
		notFound(w)
		return
	}
	// A relative Location (http.Redirect would make it absolute), so that a proxy's
	// path prefix stays in it.
	w.Header().Set("Location", last+"/")
	w.WriteHeader(http.StatusMovedPermanently)
}

// index lists the public games.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	games, err := s.src.PageGames(r.Context())
	if err != nil {
		s.fail(w, "list games", err)
		return
	}
	if len(games) > MaxIndex {
		games = games[:MaxIndex]
	}
	var b strings.Builder
	if err := s.w.Index(&b, s.opts.Lang, games, func(id string) string { return "g/" + id + "/" }); err != nil {
		s.fail(w, "index", err)
		return
	}
	s.headers(w, false)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = writeBody(w, r, b.String())
}

// public serves a game's public page.
func (s *Server) public(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("game")
	if !validID(id) {
		notFound(w)
		return
	}
	head, err := s.src.PageHead(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && (head.Private || !head.Started) {
		notFound(w)
		return
	}
	if err != nil {
		s.fail(w, "game "+id, err)
		return
	}
	s.serve(w, r, id, head, engine.Observer, "", false)
}

// private serves a seat's private page.
func (s *Server) private(w http.ResponseWriter, r *http.Request) {
	id, seat, epoch, err := auth.ParsePage(s.opts.Secret, r.PathValue("token"))
	if err != nil {
		notFound(w)
		return
	}
	head, err := s.src.PageHead(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		notFound(w)
		return
	}
	if err != nil {
		s.fail(w, "game "+id, err)
		return
	}
	for _, st := range head.Seats {
		if st.Seat != seat {
			continue
		}
		if st.Epoch != epoch || !head.Started {
			break // the seat changed hands: the link is revoked
		}
		viewer := st.Name
		if st.Observer {
			viewer = engine.Observer
		}
		s.serve(w, r, id, head, viewer, st.Name, true)
		return
	}
	notFound(w)
}

// serve writes the page of the step the address names (the latest without one) for
// viewer, whose seat is named name ("" for the public page).
func (s *Server) serve(w http.ResponseWriter, r *http.Request, id string, head page.Head, viewer, name string, private bool) {
	n := -1
	if ns := r.PathValue("n"); ns != "" {
		v, err := strconv.Atoi(ns)
		if err != nil || v < 0 || strconv.Itoa(v) != ns {
			notFound(w)
			return
		}
		n = v
	}
	key := pageKey{game: id, version: head.Version, viewer: viewer, name: name, n: n}
	etag := key.etag()
	s.headers(w, private)
	w.Header().Set("ETag", etag)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body, ok := s.pages.get(key)
	if !ok {
		var err error
		body, err = s.write(r.Context(), key)
		if errors.Is(err, errNoStep) {
			notFound(w)
			return
		}
		if err != nil {
			s.fail(w, "game "+id, err)
			return
		}
		s.pages.put(key, body)
	}
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(body.gz)))
		if r.Method != http.MethodHead {
			_, _ = w.Write(body.gz)
		}
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body.plain)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(body.plain)
	}
}

// errNoStep reports an address of a step that is not one.
var errNoStep = errors.New("web: no such step")

// write writes the page of key (at most a few at once: the machine's cores are the
// mail's first).
func (s *Server) write(ctx context.Context, key pageKey) (*written, error) {
	rep, err := s.games.replay(ctx, s.src, s.w, key.game, key.version, key.viewer, key.name)
	if err != nil {
		return nil, err
	}
	i := len(rep.Steps()) - 1
	if key.n >= 0 {
		var ok bool
		if i, ok = rep.Find(key.n); !ok {
			return nil, errNoStep
		}
	}
	select {
	case s.render <- struct{}{}:
		defer func() { <-s.render }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var plain strings.Builder
	if err := s.w.Page(&plain, rep, i); err != nil {
		return nil, err
	}
	return newWritten([]byte(plain.String())), nil
}

// headers sets the headers of every page.
func (s *Server) headers(w http.ResponseWriter, private bool) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", s.csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Vary", "Accept-Encoding")
	if private {
		h.Set("Cache-Control", "private, no-cache")
		h.Set("X-Robots-Tag", "noindex, nofollow")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
}

// fail answers a page that could not be written, and logs why.
func (s *Server) fail(w http.ResponseWriter, what string, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	s.log.Error("web page", "what", what, "err", err)
	http.Error(w, "the page could not be written; try again later", http.StatusInternalServerError)
}

// written is a page as it is sent: plain, and compressed for clients that accept it.
type written struct {
	plain, gz []byte
}

func newWritten(plain []byte) *written {
	var b strings.Builder
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed) // a valid level never fails
	_, _ = zw.Write(plain)
	_ = zw.Close()
	return &written{plain: plain, gz: []byte(b.String())}
}

func (w *written) size() int { return len(w.plain) + len(w.gz) }

// validID reports whether s can be a game id, of at most 64 bytes.
func validID(s string) bool { return len(s) <= 64 && auth.ValidGameID(s) }

// zoneName names a time zone for a cache key.
func zoneName(z *time.Location) string {
	if z == nil {
		return "UTC"
	}
	return z.String()
}

// clientOf is who a request counts against: its remote address, or, when it comes
// from a reverse proxy on loopback, the last address the proxy put in
// X-Forwarded-For.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return host
	}
	fwd := r.Header.Get("X-Forwarded-For")
	if fwd == "" {
		return host
	}
	last := strings.TrimSpace(fwd[strings.LastIndexByte(fwd, ',')+1:])
	if net.ParseIP(last) == nil {
		return host
	}
	return last
}

// writeBody writes a small page's body (none for HEAD).
func writeBody(w http.ResponseWriter, r *http.Request, s string) (int, error) {
	w.Header().Set("Content-Length", strconv.Itoa(len(s)))
	if r.Method == http.MethodHead {
		return 0, nil
	}
	return w.Write([]byte(s))
}
