package service

import (
	"errors"
	"math"
	"strings"
	"sync"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/scene/raster"
	"github.com/turnmail/turnmail/templates"
)

// PictureWords are the words of a game's pictures in lang (scene/draw.Words), from the
// catalogues: the picture domain, the game's terms and texts, the printed names of
// terrains, pieces and symbols.
func PictureWords(tr *i18n.Bundle, lang i18n.Lang, game string) draw.Words {
	return pictureWords{tr: tr, lang: lang.Or(i18n.English), game: game}
}

type pictureWords struct {
	tr   *i18n.Bundle
	lang i18n.Lang
	game string
}

func (w pictureWords) Say(format string, args ...any) string {
	return w.tr.Sprintf(w.lang, format, args...)
}
func (w pictureWords) Term(name string) string   { return w.tr.Term(w.lang, name) }
func (w pictureWords) Text(t engine.Text) string { return w.tr.GameText(w.game, w.lang, t) }
func (w pictureWords) Lang() string              { return string(w.lang) }
func (w pictureWords) Name(key string) string {
	if sym, ok := strings.CutPrefix(key, "symbol:"); ok {
		// A symbol's term names it in Italian; in English it is its key, as the
		// mails print it (templates.SymbolNames), without the hyphen.
		if n := templates.SymbolNames(w.tr, string(w.lang), []any{sym}); len(n) == 1 && n[0] != sym {
			return n[0]
		}
		return strings.ReplaceAll(sym, "-", " ")
	}
	return templates.DisplayName(w.tr, string(w.lang), key)
}

// Picture draws the board of a game's view as the mail shows it: the scene (to size
// the <img>) and its PNG. A view of a game without a picture gives errNoPicture.
func Picture(tr *i18n.Bundle, lang i18n.Lang, game string, view any, changed []string) (*scene.Scene, []byte, error) {
	sc, err := draw.Scene(draw.Input{View: view, Changed: changed, Words: PictureWords(tr, lang, game)})
	if err != nil {
		return nil, nil, err
	}
	png, err := raster.PNG(sc)
	return sc, png, err
}

// pictureCache keeps the latest pictures by the hash of their scene, so that readers
// who see the same board (every player of a Small World game whose last mail was the
// same) share one drawing, and its encoding for the mail. Safe for concurrent use.
type pictureCache struct {
	mu    sync.Mutex
	order [][32]byte
	pngs  map[[32]byte]keptPicture
}

// keptPicture is a picture drawn: the PNG and its base64 body (compose.Base64Lines).
type keptPicture struct{ png, encoded []byte }

// pictureCacheSize bounds the pictures kept (about 100 KB each, 240 with the base64).
const pictureCacheSize = 32

func (c *pictureCache) get(k [32]byte) (keptPicture, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pngs[k]
	return p, ok
}

func (c *pictureCache) put(k [32]byte, p keptPicture) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pngs == nil {
		c.pngs = map[[32]byte]keptPicture{}
	}
	if _, ok := c.pngs[k]; ok {
		return
	}
	if len(c.order) >= pictureCacheSize {
		delete(c.pngs, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, k)
	c.pngs[k] = p
}

// picture draws the board of state for a mail to viewer (a state mail, a refusal):
// the inline part and what the HTML needs to show it; after names the player whose
// move the mail tells last, for the alt text. A game without a picture, or a picture that cannot
// be drawn (logged: the mail goes without it), gives nil.
func (s *Service) picture(l *Loaded, state engine.State, viewer string, changed []string, lang i18n.Lang, after string) (*compose.Inline, *templates.Picture) {
	if s.opts.NoPictures {
		return nil, nil
	}
	sc, err := draw.Scene(draw.Input{View: state.View(viewer), Changed: changed, After: after, Words: PictureWords(s.tr, lang, l.Game.Kind)})
	if err != nil {
		if !errors.Is(err, draw.ErrNoPicture) {
			s.log.Warn("board picture not drawn", "game", l.Game.ID, "err", err)
		}
		return nil, nil
	}
	key := raster.Key(sc)
	pic, ok := s.pictures.get(key)
	if !ok {
		png, err := s.boards.PNG(sc)
		if err != nil {
			s.log.Warn("board picture not drawn", "game", l.Game.ID, "err", err)
			return nil, nil
		}
		pic = keptPicture{png, compose.Base64Lines(png)}
		s.pictures.put(key, pic)
	}
	cid := strings.TrimSuffix(strings.TrimPrefix(s.newMessageID(l.Game.ID), "<"), ">")
	cid = "board." + cid
	return &compose.Inline{ContentID: cid, Name: "board.png", ContentType: "image/png", Data: pic.png, Encoded: pic.encoded},
		&templates.Picture{CID: cid, Width: int(math.Round(sc.Width)), Height: int(math.Round(sc.Height)), Alt: sc.Alt}
}
