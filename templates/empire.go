package templates

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	emp "github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/templates/doc"
)

// empire is Eight-Minute Empire: Legends' part of its mails.
type empire struct{}

// emGame is Empire's engine, whose command words its mails use.
const emGame = "empire"

// board: the turn and the action under way, the players, and the regions the reader
// holds armies or cities in or that changed since their last mail. The row is in the
// details: when the reader may take a card, each card they can pay is told whole
// beside its take command.
func (e empire) board(w words, b board) []doc.Block {
	v := b.View
	if len(v) == 0 {
		return nil
	}
	out := []doc.Block{e.turn(w, v), e.players(w, b)}
	var regions []map[string]any
	for _, r := range objs(v["regions"]) {
		mine := b.Player != "" && (obj(r["armies"])[b.Player] != nil || obj(r["cities"])[b.Player] != nil)
		if mine || slices.Contains(b.Changed, Str(r["id"])) {
			regions = append(regions, r)
		}
	}
	if len(regions) > 0 {
		out = append(out, e.regions(w, b, regions, w.t("Your regions and those that changed since your last mail (* changed):")))
	}
	return out
}

// details: the row, in short, unless the reader may take any card of it, each told
// beside its take command (the islands are on the whole board).
func (e empire) details(w words, b board) []doc.Block {
	v := b.View
	var out []doc.Block
	takes := 0
	for _, c := range b.Legal {
		if canon, _ := w.tr.Canonical(emGame, c); strings.HasPrefix(canon, "take ") {
			takes++
		}
	}
	if row := objs(v["row"]); len(row) > 0 && takes < len(row) {
		var parts []string
		for _, c := range row {
			parts = append(parts, w.t("%s. %s (cost %s)", Str(c["position"]), w.term(c["name"]), Str(c["cost"])))
		}
		out = append(out, doc.P(doc.L(w.t("The row: %s.", strings.Join(parts, "; ")))))
	}
	return out
}

// full: the turn, the players, the row, the islands and every region.
func (e empire) full(w words, b board) []doc.Block {
	v := b.View
	if len(v) == 0 {
		return nil
	}
	out := []doc.Block{e.turn(w, v), e.players(w, b)}
	if len(objs(v["row"])) > 0 {
		out = append(out, e.row(w, v))
	}
	if is := objs(v["islands"]); len(is) > 0 {
		l := &doc.List{Title: doc.L(w.t("Islands:"))}
		for _, i := range is {
			l.Items = append(l.Items, doc.Item{Line: doc.L(e.island(w, i))})
		}
		out = append(out, l)
	}
	return append(out, e.regions(w, b, objs(v["regions"]), w.t("Regions (armies by player; land and sea neighbours):")))
}

// help: how to read the shapes of the patterns the reader's list uses.
func (empire) help(w words, b board) []doc.Block {
	pats := EmpirePatterns(w.cmd(emGame, "<region>"), b.Legal)
	if len(pats) == 0 {
		return nil
	}
	d := &doc.Defs{Title: doc.L(w.t("How to read the patterns above:")), Column: 18}
	for _, p := range pats {
		var what string
		switch p.Kind {
		case "choice":
			what = w.t("one of the regions listed")
		case "range":
			what = w.t("a number from %d to %d", p.Lo, p.Hi)
		case "optional":
			what = w.t("how many armies, %d to %d; 1 if you leave it out", p.Lo, p.Hi)
		case "path":
			what = w.t("from 1 to 5: the cheapest way, or through 2 (the path you name)")
		default:
			continue
		}
		d.Items = append(d.Items, doc.Def{Term: doc.Line{doc.C(p.Sample)}, Text: doc.L(what)})
	}
	return []doc.Block{d}
}

// pieces: what the cards of the row do.
func (e empire) pieces(w words, b board) []doc.Block {
	if len(objs(b.View["row"])) == 0 {
		return nil
	}
	return []doc.Block{e.row(w, b.View)}
}

// turn is the paragraph of the turn, the phase and the action under way.
func (empire) turn(w words, v map[string]any) *doc.Para {
	s := w.t("Turn %s — %s.", Str(v["turn"]), w.text(emp.PhaseText(Str(v["phase"]))))
	if g := Str(v["games"]); v["games"] != nil && g != "1" {
		s += " " + w.t("Game %s of %s.", Str(v["game_number"]), g)
	}
	if v["start"] != nil {
		s += " " + w.t("Start region: %s.", Str(v["start"]))
	}
	if v["deck"] != nil {
		s += " " + w.t("Cards left in the deck: %s.", Str(v["deck"]))
	}
	p := doc.P(doc.L(s))
	if a := obj(v["action"]); a != nil {
		p.Lines = append(p.Lines, doc.L(w.t("%s is carrying out %s: %s.", Str(a["player"]), w.term(a["card"]), empireAction(w, a))))
	}
	return p
}

// players is the table of the players: coins, armies, cities, elixirs, points, and
// the bid while the bids decide the first player;
// under each, their leader and cards.
func (empire) players(w words, b board) *doc.Table {
	t := &doc.Table{Head: []string{w.t("Player"), w.t("Coins"), w.t("Armies (supply)"), w.t("Cities"), w.t("Elixirs"), w.t("VP")}}
	// The bids matter until the first player is chosen; later the column is only
	// width on a phone.
	bids := Str(b.View["phase"]) == "bid" || Str(b.View["phase"]) == "first"
	if bids {
		t.Head = append(t.Head, w.t("Bid"))
	}
	for _, p := range objs(b.View["players"]) {
		name := Str(p["name"])
		bid := ""
		if p["has_bid"] == true {
			bid = w.t("sent, secret")
			if p["bid"] != nil {
				bid = Str(p["bid"])
			}
		}
		row := doc.Row{Cells: []doc.Line{playerCell(w, b, name), doc.L(Str(p["coins"])), doc.L(Str(p["armies"]) + " (" + Str(p["supply"]) + ")"),
			doc.L(Str(p["cities"])), doc.L(Str(p["elixirs"])), doc.L(Str(p["score"]))}}
		if bids {
			row.Cells = append(row.Cells, doc.L(bid))
		}
		var sub []string
		if p["leader"] != nil {
			sub = append(sub, w.t("leader: %s", w.term(p["leader"])))
		}
		if cards := Terms(w.tr, string(w.lang), p["cards"]); len(cards) > 0 {
			sub = append(sub, w.t("cards: %s", strings.Join(cards, ", ")))
		}
		if len(sub) > 0 {
			row.Sub = []doc.Line{doc.L(strings.Join(sub, "; "))}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// row is the table of the cards of the row, each with its action and ability.
func (empire) row(w words, v map[string]any) *doc.Table {
	t := &doc.Table{Title: doc.L(w.t("The row (%s pays the cost shown):", w.cmd(emGame, "take N"))), Head: []string{"#", w.t("Card"), w.t("Cost")}}
	for _, c := range objs(v["row"]) {
		action, ability := empireCard(w, c)
		t.Rows = append(t.Rows, doc.Row{Cells: []doc.Line{doc.L(Str(c["position"])), doc.L(w.term(c["name"])), doc.L(Str(c["cost"]))},
			Sub: []doc.Line{doc.L(w.t("action: %s; ability: %s", action, ability))}})
	}
	return t
}

// island names an island, its regions and who controls it.
func (empire) island(w words, i map[string]any) string {
	regions := Strs(i["regions"])
	s := w.t("%s (regions %s)", w.term(i["name"]), strings.Join(regions, ", "))
	if len(regions) == 1 {
		s = w.t("%s (region %s)", w.term(i["name"]), regions[0])
	}
	if c := i["controller"]; c != nil {
		s += " — " + empireControl(w, Str(c))
	}
	return s
}

// regions is a table of regions: their armies and cities by player, who controls
// them and their land and sea neighbours.
func (empire) regions(w words, b board, regions []map[string]any, title string) *doc.Table {
	t := &doc.Table{Title: doc.L(title), Head: []string{w.t("Region"), w.t("Armies and cities"), w.t("Neighbours")}, Record: []string{"  ", " — "}}
	for _, r := range regions {
		var held []string
		if a := obj(r["armies"]); len(a) > 0 {
			held = append(held, w.t("armies %s", empireOwners(w, a)))
		}
		if c := obj(r["cities"]); len(c) > 0 {
			held = append(held, w.t("cities %s", empireOwners(w, c)))
		}
		if c := r["controller"]; c != nil {
			held = append(held, empireControl(w, Str(c)))
		}
		land, sea := w.t("land none"), w.t("sea none")
		if l := Strs(r["land"]); len(l) > 0 {
			land = w.t("land %s", strings.Join(l, ", "))
		}
		if s := Strs(r["sea"]); len(s) > 0 {
			sea = w.t("sea %s", strings.Join(s, ", "))
		}
		t.Rows = append(t.Rows, doc.Row{Mark: slices.Contains(b.Changed, Str(r["id"])),
			Cells: []doc.Line{doc.L(Str(r["id"])), doc.L(strings.Join(held, ", ")), doc.L(land + "; " + sea)}})
	}
	return t
}

// empireControl says who controls a region or an island.
func empireControl(w words, who string) string {
	if who == emp.Neutral {
		return w.t("controlled by the neutral armies")
	}
	return w.t("controlled by %s", who)
}

// empireCard words a card of the view's row (a decoded RowCard): its action and
// ability from the card data, or the view's English texts for a card the data does
// not know.
func empireCard(w words, card map[string]any) (action, ability string) {
	ab, ac, ok := emp.CardTexts(Str(card["id"]))
	if !ok {
		return Str(card["action"]), Str(card["ability"])
	}
	return w.text(ac), w.text(ab)
}

// empireAction words what is left of the action under way (the view's "action").
func empireAction(w words, action map[string]any) string {
	b, err := json.Marshal(action)
	if err != nil {
		return ""
	}
	var a emp.ActionView
	if json.Unmarshal(b, &a) != nil || len(a.Steps) == 0 {
		return strings.Join(a.Parts, ", ")
	}
	return w.text(emp.ActionText(a))
}

// empireWho names an owner of armies in the view: a player by name, the neutral
// armies in the reader's words.
func empireWho(tr *i18n.Bundle, lang i18n.Lang, name string) string {
	if name == emp.Neutral {
		return tr.Term(lang, emp.Neutral)
	}
	return name
}

// empireOwners lists armies or cities by owner (a decoded map of name → count), as
// "ann×2 neutral×1" in the reader's words, by name.
func empireOwners(w words, m map[string]any) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		names[i] = empireWho(w.tr, w.lang, n) + "×" + Str(m[n])
	}
	return strings.Join(names, " ")
}

// EmpirePattern is one shape of the Legal patterns a list uses, which the mail
// explains under it: Kind is "choice" (<3,5>), "range" (<1…6>), "optional"
// ([1…3]), "path" (1>5, 1>2>5) or "any" (<region>, <n>, which needs no
// explaining); Sample shows it as the list does, and for a range (and the optional
// number of armies) Lo and Hi are its bounds, as the first entry of the list that
// has one writes them.
type EmpirePattern struct {
	Kind, Sample string
	Lo, Hi       int
}

// empireShapes are the shapes of Legal patterns, in the order the mail explains them,
// each with what shows it.
var empireShapes = []struct {
	kind, sample string
	re           *regexp.Regexp
}{
	{"choice", "<3,5>", regexp.MustCompile(`<\d+(,\d+)+>`)},
	{"range", "", regexp.MustCompile(`<\d+…\d+>`)},
	{"optional", "", regexp.MustCompile(` \[\d+…\d+\]`)},
	{"path", "1>5, 1>2>5", regexp.MustCompile(`[\d>]>[\d<]`)},
	{"any", "", regexp.MustCompile(`<[^\d>,…][^>]*>`)},
}

// EmpirePatterns lists the shapes of pattern the legal entries use (in the reader's
// words: region is how the list names <region>), once each; a range is shown with
// the bounds the list uses ("<8…26>" is explained as 8 to 26).
func EmpirePatterns(region string, legal []string) []EmpirePattern {
	var out []EmpirePattern
	for _, sh := range empireShapes {
		for _, e := range legal {
			cmd, _, _ := strings.Cut(e, "#")
			m := sh.re.FindString(cmd)
			if m == "" {
				continue
			}
			p := EmpirePattern{Kind: sh.kind, Sample: sh.sample}
			switch sh.kind {
			case "any":
				p.Sample = region + ", <n>"
			case "range", "optional":
				p.Sample = strings.TrimSpace(m)
				lo, hi, _ := strings.Cut(strings.Trim(p.Sample, "<>[]"), "…")
				p.Lo, _ = strconv.Atoi(lo)
				p.Hi, _ = strconv.Atoi(hi)
			}
			out = append(out, p)
			break
		}
	}
	return out
}
