package page

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/templates"
)

//go:embed assets
var assets embed.FS

// Assets are the style sheet and the script every page carries inline (a page and a
// replay file need nothing else), for the web server's Content-Security-Policy.
var (
	CSS = mustAsset("assets/style.css") + markerCSS()
	JS  = mustAsset("assets/nav.js")
)

func mustAsset(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic("page: " + err.Error()) // embedded: a build without it is a bug
	}
	return string(b)
}

// unpackJS is the script of a compressed replay file.
var unpackJS = mustAsset("assets/unpack.js")

// Writer writes pages and replay files. It is safe for concurrent use.
type Writer struct {
	tmpl *template.Template
	tr   *i18n.Bundle
}

// New parses the pages' templates.
func New(tr *i18n.Bundle) (*Writer, error) {
	t, err := template.New("page").Funcs(template.FuncMap{"join": strings.Join}).ParseFS(assets, "assets/page.html")
	if err != nil {
		return nil, fmt.Errorf("page: %w", err)
	}
	return &Writer{tmpl: t, tr: tr}, nil
}

// data is what the templates read.
type data struct {
	w       words
	Lang    string
	Title   string
	Heading string
	GameID  string
	Who     string
	Now     string
	Private bool
	Footer  string
	CSS     template.CSS
	JS      template.JS
	// File is true for a replay file: every step in one document.
	File bool
	// Step is the step a template writes; Steps every step of a file.
	Step  *StepView
	Steps []*StepView
	// LastN is the number of the last event.
	LastN int
	// MoveList is the list of every move (see Writer.moveList).
	MoveList template.HTML
	// Pictures are a file's pictures (see pack).
	Pictures template.JS
	// LeftOut says which pictures a file leaves out.
	LeftOut string
	// Packed is a compressed file (base64 of its gzip), Unpack the script that opens
	// it.
	Packed template.HTML
	Unpack template.JS
	href   func(i int) string
}

// T renders a text of the catalogues in the reader's language.
func (d *data) T(format string, args ...any) string { return d.w.say(format, args...) }

// Turn names game turn n.
func (d *data) Turn(n int) string { return d.w.turn(n) }

// Href is the address of step i.
func (d *data) Href(i int) string { return d.href(i) }

// With returns d writing step s.
func (d *data) With(s *StepView) *data {
	c := *d
	c.Step = s
	return &c
}

// base fills what every page of a replay shows.
func (w *Writer) base(r *Replay, href func(int) string) *data {
	title := r.w.term(templates.GameTitle(r.rec.Kind))
	d := &data{w: r.w, Lang: string(r.rd.Lang), Heading: title, GameID: r.rec.ID, CSS: template.CSS(CSS), JS: template.JS(JS), href: href,
		Now: r.Now(), LastN: r.steps[len(r.steps)-1].N}
	d.Title = strings.TrimSpace(title + " " + r.rec.ID)
	switch v := r.rd.Viewer; v {
	case engine.Observer:
		d.Who = r.w.say("The public view: what every observer of the game sees.")
	case "":
		d.Who = r.w.say("The complete record: every hand and every secret, as the host's export has them.")
	default:
		d.Private = true
		d.Who = r.w.say("%s's view. This link is yours: whoever has it sees what you see.", v)
	}
	d.Footer = r.w.say("turnmail: this page only shows the game; moves are made by mail.")
	return d
}

// moveList returns the list of every move of r, grouped by turn (each turn a
// <details> a reader opens: see openAt), each linked by href;
// it is written once per replay and kind of links (mode), and shared by its pages.
// It is written here rather than by a template: a long game has hundreds of moves,
// which the template's escaping made the slowest part of a page.
func (w *Writer) moveList(r *Replay, mode string, href func(int) string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l, ok := r.lists[mode]; ok {
		return l
	}
	var b strings.Builder
	turn := -1
	for i, st := range r.steps {
		title := ""
		switch {
		case i == 0:
			title = r.w.say("Start")
		case st.Turn != turn:
			title, turn = r.w.turn(st.Turn), st.Turn
		}
		if title != "" {
			if i > 0 {
				b.WriteString("</ol></details>")
			}
			fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n<ol>", template.HTMLEscapeString(title))
		}
		fmt.Fprintf(&b, `<li value="%d"><a href="%s" data-i="%d">%s</a></li>`, st.N, template.HTMLEscapeString(href(i)), st.N, template.HTMLEscapeString(st.Said))
	}
	b.WriteString("</ol></details>")
	if r.lists == nil {
		r.lists = map[string]string{}
	}
	r.lists[mode] = b.String()
	return b.String()
}

// Page writes the page of step i of a replay for the web server: its links to other
// steps are relative ("12" is event 12's page, beside this one).
func (w *Writer) Page(out io.Writer, r *Replay, i int) error {
	v, err := r.View(i)
	if err != nil {
		return err
	}
	href := func(j int) string { return strconv.Itoa(r.steps[j].N) }
	d := w.base(r, href)
	d.Step = v
	if v.N > 0 {
		d.Title += " — " + d.T("Move %d of %d", v.N, d.LastN)
	}
	list := w.moveList(r, "page", href)
	d.MoveList = template.HTML(openAt(list, v.N)) // escaped by moveList
	return w.exec(out, "page", d)
}

// openAt returns a list of moves (see moveList) with the move of event n marked as
// the current step and its turn open.
func openAt(list string, n int) string {
	at := fmt.Sprintf(` data-i="%d">`, n)
	i := strings.Index(list, at)
	if i < 0 {
		return list
	}
	d := strings.LastIndex(list[:i], "<details>") + len("<details")
	return list[:d] + " open" + list[d:i] + at[:len(at)-1] + ` aria-current="step">` + list[i+len(at):]
}

// FileOptions bound a replay file.
type FileOptions struct {
	// MaxBytes, when not 0, is the largest file to write: see File.
	MaxBytes int
}

// ErrTooLarge reports a replay file that does not fit its bound even without
// pictures.
var ErrTooLarge = errors.New("page: the replay file is larger than its bound")

// Pictures says which steps of a replay file show their board.
type Pictures int

// The pictures a replay file keeps, from most to fewest.
const (
	EveryPicture Pictures = iota // every step's board
	TurnPictures                 // the board at the end of each game turn, and the last
	LastPicture                  // the last board only
	NoPicture                    // none
)

// Form is how a replay file is written.
type Form struct {
	// Pictures are the pictures it keeps.
	Pictures Pictures
	// Packed is true for a file compressed to fit its bound: a small page that
	// unpacks the file with the browser's DecompressionStream.
	Packed bool
}

// File writes every step of a replay as one self-contained HTML file: no request
// leaves it (style, script and pictures are inside), its steps are addressed as
// #sN, and it shows the last step when opened. With a bound (opts.MaxBytes), a file
// too large is written compressed (it then needs JavaScript to open), and still too
// large leaves out pictures, keeping those of the last step of each turn, then the
// last one only, then none. It returns the form it wrote, or ErrTooLarge.
func (w *Writer) File(out io.Writer, r *Replay, opts FileOptions) (Form, error) {
	href := func(j int) string { return "#s" + strconv.Itoa(r.steps[j].N) }
	d := w.base(r, href)
	d.File = true
	if d.Private { // a file is no link: whoever has it sees what the player saw
		d.Who = d.T("The game as %s saw it.", r.rd.Viewer)
	}
	d.MoveList = template.HTML(openAt(w.moveList(r, "file", href), r.steps[len(r.steps)-1].N)) // escaped by moveList
	docs := make([]string, len(r.steps))
	for i := range r.steps {
		v, err := r.View(i)
		if err != nil {
			return Form{}, err
		}
		docs[i] = string(v.Board)
		v.Board = ""
		d.Steps = append(d.Steps, v)
	}
	for keep := EveryPicture; keep <= NoPicture; keep++ {
		var p pack
		for i, doc := range docs {
			d.Steps[i].LeftOut = doc != "" && !r.keeps(keep, i)
			if doc != "" && !d.Steps[i].LeftOut {
				p.add(r.steps[i].N, doc)
			}
		}
		b, err := json.Marshal(p)
		if err != nil {
			return Form{}, fmt.Errorf("page: pictures: %w", err)
		}
		d.Pictures = template.JS(b) // JSON: <, > and & are escaped
		switch keep {
		case TurnPictures:
			d.LeftOut = d.T("To keep this file small, it shows the board at the end of each turn only.")
		case LastPicture:
			d.LeftOut = d.T("To keep this file small, it shows the last board only.")
		}
		var buf bytes.Buffer
		if err := w.exec(&buf, "file", d); err != nil {
			return Form{}, err
		}
		if opts.MaxBytes <= 0 || buf.Len() <= opts.MaxBytes {
			_, err = out.Write(buf.Bytes())
			return Form{Pictures: keep}, err
		}
		packed, err := w.packed(d, buf.Bytes())
		if err != nil {
			return Form{}, err
		}
		if len(packed) <= opts.MaxBytes {
			_, err = out.Write(packed)
			return Form{Pictures: keep, Packed: true}, err
		}
	}
	return Form{}, ErrTooLarge
}

// packed writes a replay file compressed: a page that unpacks it.
func (w *Writer) packed(d *data, file []byte) ([]byte, error) {
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(file); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	c := *d
	// Base64 holds no character that HTML would read as markup.
	c.Packed, c.Unpack = template.HTML(base64.StdEncoding.EncodeToString(z.Bytes())), template.JS(unpackJS)
	var buf bytes.Buffer
	if err := w.exec(&buf, "packed", &c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// keeps reports whether a file keeping pictures k shows step i's.
func (r *Replay) keeps(k Pictures, i int) bool {
	last := i == len(r.steps)-1
	switch k {
	case EveryPicture:
		return true
	case TurnPictures:
		return last || r.steps[i+1].Turn != r.steps[i].Turn
	case LastPicture:
		return last
	}
	return false
}

func (w *Writer) exec(out io.Writer, name string, d *data) error {
	if err := w.tmpl.ExecuteTemplate(out, name, d); err != nil {
		return fmt.Errorf("page: %w", err)
	}
	return nil
}

// indexData is what the index of games reads.
type indexData struct {
	w                                 words
	Lang, Title, Heading, Who, Footer string
	CSS                               template.CSS
	Games                             []indexGame
}

// T renders a text of the catalogues in the reader's language.
func (d *indexData) T(format string, args ...any) string { return d.w.say(format, args...) }

// indexGame is one game of the index.
type indexGame struct {
	ID, Title, Players, Status, Href string
}

// Index writes the list of the public games, in lang, each linked by href(id).
func (w *Writer) Index(out io.Writer, lang i18n.Lang, games []Summary, href func(id string) string) error {
	wd := words{tr: w.tr, lang: lang.Or(i18n.English)}
	d := &indexData{w: wd, Lang: string(wd.lang), Title: wd.say("Games"), Heading: wd.say("Games"), CSS: template.CSS(CSS),
		Who:    wd.say("The games anyone may follow, newest first. Private games are not listed."),
		Footer: wd.say("turnmail: this page only shows the game; moves are made by mail.")}
	for _, g := range games {
		status := wd.say("going on")
		if g.Finished {
			status = wd.say("over")
		}
		d.Games = append(d.Games, indexGame{ID: g.ID, Title: wd.term(templates.GameTitle(g.Kind)), Players: strings.Join(g.Players, ", "), Status: status, Href: href(g.ID)})
	}
	if err := w.tmpl.ExecuteTemplate(out, "index", d); err != nil {
		return fmt.Errorf("page: %w", err)
	}
	return nil
}

// Bundle returns the catalogues the writer's pages are written with.
func (w *Writer) Bundle() *i18n.Bundle { return w.tr }
