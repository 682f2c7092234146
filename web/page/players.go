package page

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/scene/svg"
	"github.com/turnmail/turnmail/templates"
)

// players returns the heading of the score column and the players' rows of a view
// (the "players" list every engine's view has, in turn order: the order the picture
// gives the seats their colours in).
func (r *Replay) players(view map[string]any, state engine.State) (string, []PlayerRow) {
	list, _ := view["players"].([]any)
	toAct := state.ToAct()
	pw := pictureWords{draw.English{}, r.w}
	if r.rec.PictureWords != nil {
		pw.Words = r.rec.PictureWords(r.rd.Lang)
	}
	head := r.w.say("Score")
	var rows []PlayerRow
	for i, x := range list {
		p, ok := x.(map[string]any)
		if !ok {
			continue
		}
		name := templates.Str(p["name"])
		row := PlayerRow{Name: name, Marker: marker(i), Colour: draw.SwatchName(pw, scene.Seat(i)), You: r.rd.you(name),
			ToAct: !r.rec.Resigned[name] && contains(toAct, name)}
		switch templates.Family(r.rec.Kind) {
		case "smallworld":
			head = r.w.say("Coins")
			row.Score, row.Note = r.smallWorldPlayer(p)
		case "empire":
			row.Score, row.Note = number(p["score"]), r.w.say("coins: %s", number(p["coins"]))
		case "dungeoneer":
			head = r.w.say("Glory")
			row.Score, row.Note = r.dungeonPlayer(p)
		default:
			row.Score = number(p["score"])
		}
		if r.rec.Resigned[name] {
			row.Note = strings.TrimPrefix(row.Note+"; "+r.w.say("resigned"), "; ")
		}
		rows = append(rows, row)
	}
	return head, rows
}

// smallWorldPlayer is a Small World player's coins (hidden until the end but from
// their owner) and the races they play.
func (r *Replay) smallWorldPlayer(p map[string]any) (score, note string) {
	var parts []string
	if a, ok := p["active"].(map[string]any); ok {
		parts = append(parts, templates.Combo(r.w.tr, string(r.w.lang), a["race"], a["power"]))
	}
	var declined []string
	for _, d := range objs(p["declined"]) {
		declined = append(declined, r.w.term(templates.Str(d["race"])))
	}
	if len(declined) > 0 {
		parts = append(parts, r.w.say("in decline: %s", strings.Join(declined, ", ")))
	}
	return number(p["score"]), strings.Join(parts, "; ")
}

// dungeonPlayer is a Dungeoneer hero's Glory, name and Life.
func (r *Replay) dungeonPlayer(p map[string]any) (score, note string) {
	hero := ""
	if n, ok := p["hero_name"].(map[string]any); ok {
		hero = templates.Str(n[string(r.w.lang)])
		if hero == "-" || hero == "" {
			hero = templates.Str(n["en"])
		}
	}
	note = r.w.say("%s, life %s", hero, number(p["life"]))
	if out, _ := p["out"].(bool); out {
		note = r.w.say("%s, out of the game", hero)
	}
	return number(p["glory"]), note
}

// hand returns the reader's own cards in a game whose view shows them (Dungeoneer's
// hand), with their texts; nil for the public page and for other games.
func (r *Replay) hand(view map[string]any) []HandCard {
	if templates.Family(r.rec.Kind) != "dungeoneer" || !r.rd.you(r.rd.Viewer) {
		return nil
	}
	var out []HandCard
	for _, p := range objs(view["players"]) {
		if templates.Str(p["name"]) != r.rd.Viewer {
			continue
		}
		list, _ := p["hand"].([]any)
		for _, id := range list {
			c, ok := dungeoneer.Card(templates.Str(id))
			if !ok {
				continue
			}
			out = append(out, HandCard{Name: r.pick(c.Name), Text: r.pick(c.Text)})
		}
	}
	return out
}

// pick is a Dungeoneer card's name or text in the reader's language.
func (r *Replay) pick(n dungeoneer.Names) string {
	if r.rd.Lang == i18n.Italian && n.It != "" {
		return n.It
	}
	return n.En
}

// number is a JSON number as the table shows it; "?" for one the reader may not see
// (null) or that is missing.
func number(v any) string {
	if _, ok := v.(float64); !ok {
		return "?"
	}
	return templates.Str(v)
}

// objs returns the objects of a JSON-decoded list.
func objs(v any) []map[string]any {
	list, _ := v.([]any)
	var out []map[string]any
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// markerCSS is the style of the seats' markers as the tables show them: a small
// picture of each seat's marker (scene.Marker, as the board draws it) as a data: URL,
// so that a page or a file carries each once however many rows show it.
var markerCSS = sync.OnceValue(func() string {
	var b strings.Builder
	b.WriteString(".mk{display:inline-block;width:22px;height:22px;vertical-align:middle;background:no-repeat center/contain}\n")
	for i := range scene.Seats {
		s := scene.New(22, 22)
		s.Background = scene.White
		s.Add(scene.Marker(scene.Seat(i), scene.Point{X: 11, Y: 11}, 9, false))
		doc, err := svg.Marshal(s)
		if err != nil {
			panic("page: a seat's marker: " + err.Error()) // a constant scene: a bug
		}
		fmt.Fprintf(&b, ".m%d{background-image:url(data:image/svg+xml;base64,%s)}\n", i, base64.StdEncoding.EncodeToString(doc))
	}
	return b.String()
})

// marker returns the class of seat i's marker.
func marker(i int) string { return "m" + strconv.Itoa(i%scene.Seats) }
