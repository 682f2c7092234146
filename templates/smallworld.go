package templates

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/templates/doc"
)

// smallWorld is the Small World family's part of its mails (the base game,
// Necromancer Island and Underground share one engine and one view).
type smallWorld struct{}

// swGame is the game whose command words the Small World family's mails use
// (Necromancer Island and Underground share its words).
const swGame = "smallworld"

// board: the turn and the players, the offer when the reader may pick from it, the
// reader's regions and those that changed since their last mail, and what the
// reader's own combos do while the game goes on.
func (sw smallWorld) board(w words, b board) []doc.Block {
	v := b.View
	if len(v) == 0 {
		return nil
	}
	out := sw.head(w, b)
	if hasVerb(w, swGame, b.Legal, "pick") || hasVerb(w, swGame, b.Legal, "swap") {
		out = append(out, sw.offer(w, v))
	}
	if p := sw.regions(w, b); p != nil {
		out = append(out, p)
	}
	if abouts := swAbout(w, b.Player, v, false); len(abouts) > 0 && v["finished"] != true {
		l := &doc.List{Title: doc.L(w.t("What your combos do:"))}
		for _, a := range abouts {
			l.Items = append(l.Items, doc.Item{Line: doc.L(a)})
		}
		out = append(out, l)
	}
	return out
}

// details: the offer (when the board leaves it out, and the game goes on), in
// short, and the places and relics found.
func (sw smallWorld) details(w words, b board) []doc.Block {
	v := b.View
	var out []doc.Block
	if offer := objs(v["offer"]); len(offer) > 0 && v["finished"] != true && !hasVerb(w, swGame, b.Legal, "pick") && !hasVerb(w, swGame, b.Legal, "swap") {
		var parts []string
		for i, c := range offer {
			parts = append(parts, fmt.Sprintf("%d. %s", i+1, sw.comboOnOffer(w, c)))
		}
		out = append(out, doc.P(doc.L(w.t("On offer: %s.", strings.Join(parts, "; ")))))
	}
	if p := sw.found(w, v); p != nil {
		out = append(out, p)
	}
	if sw.marksOwn(b) {
		// The footnote of the mark on the reader's regions above.
		out = append(out, doc.P(doc.L(w.t("* marks your regions that changed since your last mail."))))
	}
	return out
}

// marksOwn reports whether the list of the reader's regions marks one as changed.
func (smallWorld) marksOwn(b board) bool {
	for _, r := range objs(b.View["regions"]) {
		if b.Player != "" && Str(r["owner"]) == b.Player && slices.Contains(b.Changed, Str(r["id"])) {
			return true
		}
	}
	return false
}

// full: the whole board — the players, the offer, the Necromancer, the places and
// relics, the map key and every region with its neighbours.
func (sw smallWorld) full(w words, b board) []doc.Block {
	v := b.View
	if len(v) == 0 {
		return nil
	}
	out := sw.head(w, b)
	if len(objs(v["offer"])) > 0 {
		out = append(out, sw.offer(w, v))
	}
	if p := sw.found(w, v); p != nil {
		out = append(out, p)
	}
	out = append(out, sw.regionTable(w, b))
	return out
}

// help: what the verbs of the reader's abilities do (smallworld.Helps).
func (smallWorld) help(w words, b board) []doc.Block {
	helps := smallworld.Helps(verbsOf(w, swGame, b.Legal))
	if len(helps) == 0 {
		return nil
	}
	d := &doc.Defs{Title: doc.L(w.t("What these commands do:")), Column: 16}
	for _, h := range helps {
		d.Items = append(d.Items, doc.Def{Term: doc.Line{doc.C(w.cmd(swGame, string(h.Pattern)))}, Text: doc.L(w.tr.GameText(swGame, w.lang, h.Text))})
	}
	return []doc.Block{d}
}

// pieces: what every combo in play and on offer does.
func (smallWorld) pieces(w words, b board) []doc.Block {
	abouts := swAbout(w, "", b.View, true)
	if len(abouts) == 0 {
		return nil
	}
	l := &doc.List{Title: doc.L(w.t("What the combos in play and on offer do:"))}
	for _, a := range abouts {
		l.Items = append(l.Items, doc.Item{Line: doc.L(a)})
	}
	return []doc.Block{l}
}

// head is what every mail of the board starts with: the players, and Necromancer
// Island's paragraph.
func (sw smallWorld) head(w words, b board) []doc.Block {
	return append([]doc.Block{sw.players(w, b)}, sw.necromancer(w, b.View)...)
}

// players is the table of the players in turn order: coins, tokens in hand, races.
func (smallWorld) players(w words, b board) *doc.Table {
	v := b.View
	title := w.t("Game turn %s.", Str(v["turn"]))
	if turns := Num(v["turns"]); turns > 0 {
		title = w.t("Game turn %s of %d.", Str(v["turn"]), turns)
	}
	t := &doc.Table{Title: doc.L(title), Head: []string{w.t("Player"), w.t("Coins"), w.t("In hand"), w.t("Races")}}
	for _, p := range objs(v["players"]) {
		name := Str(p["name"])
		var races []string
		if a := obj(p["active"]); a != nil {
			races = append(races, Combo(w.tr, string(w.lang), a["race"], a["power"]))
		}
		for _, d := range objs(p["declined"]) {
			races = append(races, w.t("in decline: %s", Combo(w.tr, string(w.lang), d["race"], d["power"])))
		}
		row := doc.Row{Cells: []doc.Line{playerCell(w, b, name), doc.L(Str(p["score"])), doc.L(Str(p["hand"])), doc.L(strings.Join(races, "; "))}}
		if a := obj(p["active"]); a != nil {
			for _, m := range swMarks(w, obj(a["marks"])) {
				row.Sub = append(row.Sub, doc.L(m))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// swMarks are the notes on a race's marks (silver hammers, a power still to take, a
// volcano still to move, armours to place).
func swMarks(w words, m map[string]any) []string {
	var out []string
	switch {
	case m["hammers_in_play"] != nil:
		out = append(out, w.t("%s of the tokens in hand or on the map are silver hammers: they come off the map after the redeployment (never a region's last token)", Str(m["hammers_in_play"])))
	case m["hammers"] != nil:
		out = append(out, w.t("silver hammers: %s, joining the hand at the start of the next turn", Str(m["hammers"])))
	}
	if n := m["may_swap"]; n != nil {
		out = append(out, w.t("%s may still take the power of combo 1–%s of the offer (%s), before conquering", w.term("Shadow Mimes"), Str(n), w.cmd(swGame, "swap N")))
	}
	if m["may_move_volcano"] != nil {
		out = append(out, w.t("the %s may still move to another volcano chasm (%s), before the first conquest", w.term("Volcano"), w.cmd(swGame, "volcano R")))
	}
	if n := m["armours_to_place"]; n != nil {
		out = append(out, w.t("Mushroom Armours to place: %s (%s); the rest go to the first region at the end of the turn", Str(n), w.cmd(swGame, "armour R")))
	}
	return out
}

// offer is the numbered list of the combos on offer.
func (sw smallWorld) offer(w words, v map[string]any) *doc.List {
	l := &doc.List{Title: doc.L(w.t("Race and power combos on offer (%s costs N-1 coins):", w.cmd(swGame, "pick N"))), Numbered: true}
	for _, c := range objs(v["offer"]) {
		l.Items = append(l.Items, doc.Item{Line: doc.L(sw.comboOnOffer(w, c))})
	}
	return l
}

// comboOnOffer names a combo of the offer with its tokens and the coins on it.
func (smallWorld) comboOnOffer(w words, c map[string]any) string {
	s := Combo(w.tr, string(w.lang), c["race"], c["power"])
	if c["tokens"] != nil {
		s = w.t("%s, %d tokens", s, Num(c["tokens"]))
	}
	if n := Num(c["coins"]); n > 0 {
		s += w.t(" (+%d coins on it)", n)
	}
	return s
}

// necromancer is Necromancer Island's paragraph (none in other games).
func (smallWorld) necromancer(w words, v map[string]any) []doc.Block {
	n := obj(v["necromancer"])
	if n == nil {
		return nil
	}
	lines := []doc.Line{
		doc.L(w.t("Necromancer Island: %s is the %s (plays last; the %s count as a race in decline).", Str(n["player"]), w.term("Necromancer"), w.term("Ghosts"))),
		doc.L(w.t("Island: region %s, %d Ghosts on it (in the Necromancer's hand during their turn).", Str(n["island"]), Num(n["on_island"]))),
	}
	well := w.t("Soul Well: %d tokens; every 4 summon a Ghost after each turn.", Num(n["well_souls"]))
	if Num(n["well_ghosts"]) > 0 {
		well = w.t("Soul Well: %d Ghosts", Num(n["well_ghosts"])) + " " + w.t("on top of %d other tokens; every 4 summon a Ghost after each turn.", Num(n["well_souls"]))
	}
	lines = append(lines, doc.L(w.t("Ghost reserve: %s.", Str(n["reserve"]))+" "+well))
	powers := w.t("Powers in use: none yet.")
	if p := Terms(w.tr, string(w.lang), n["powers"]); len(p) > 0 {
		powers = w.t("Powers in use: %s.", strings.Join(p, ", "))
	}
	spare := w.t("In reserve: none.")
	if p := Terms(w.tr, string(w.lang), n["spare"]); len(p) > 0 {
		spare = w.t("In reserve: %s.", strings.Join(p, ", "))
	}
	lines = append(lines, doc.L(powers+" "+spare+" "+w.t("A Ghost or a power costs %d coins.", Num(n["price"]))))
	out := []doc.Block{&doc.Para{Lines: lines}}
	if v["finished"] == true {
		end := w.t("The %s brought all their Ghosts into play and wins.", w.term("Necromancer"))
		if Num(n["reserve"]) > 0 || Num(n["well_ghosts"]) > 0 {
			end = w.t("The %s did not bring all their Ghosts into play before the end: the other players compete on coins; the Necromancer's do not count.", w.term("Necromancer"))
		}
		out = append(out, doc.P(doc.L(end)))
	}
	return out
}

// found is the paragraph of Underground's places and relics (nil in other games).
func (smallWorld) found(w words, v map[string]any) *doc.List {
	if _, ok := v["pool"]; !ok {
		return nil
	}
	found := objs(v["found"])
	if len(found) == 0 {
		return &doc.List{Title: doc.L(w.t("Places and relics: %d still face down under the monsters; none found yet.", Num(v["pool"])))}
	}
	l := &doc.List{Title: doc.L(w.t("Places and relics: %d still face down under the monsters; face up:", Num(v["pool"])))}
	for _, f := range found {
		var what, who string
		switch {
		case Str(f["kind"]) == "relic":
			what = w.t("%s (relic) in region %s", w.term(f["name"]), Str(f["region"]))
		case f["power"] != nil:
			what = w.t("%s (place, gives the power %s) in region %s", w.term(f["name"]), w.term(f["power"]), Str(f["region"]))
		default:
			what = w.t("%s (place) in region %s", w.term(f["name"]), Str(f["region"]))
		}
		switch {
		case f["holder"] == nil:
			who = w.t("nobody holds it")
		case f["declined"] == true:
			who = w.t("held by %s (declined %s)", Str(f["holder"]), w.term(f["race"]))
		default:
			who = w.t("held by %s (%s)", Str(f["holder"]), w.term(f["race"]))
		}
		l.Items = append(l.Items, doc.Item{Line: doc.L(what + " — " + who)})
	}
	return l
}

// regions is the paragraph of the regions that concern the reader's next move: their
// own (the tokens redeploy counts from), those in decline, and the others that
// changed since their last mail, each in short ("14 ×4 [hero]"); "*" marks a changed
// one of the reader's.
func (sw smallWorld) regions(w words, b board) *doc.Para {
	var own, declined, changed []string
	for _, r := range objs(b.View["regions"]) {
		id := Str(r["id"])
		mark := slices.Contains(b.Changed, id)
		mine := b.Player != "" && Str(r["owner"]) == b.Player
		switch {
		case mine && r["declined"] == true:
			declined = append(declined, sw.short(w, r, mark, false))
		case mine:
			own = append(own, sw.short(w, r, mark, false))
		case mark:
			changed = append(changed, sw.short(w, r, false, true))
		}
	}
	var lines []doc.Line
	if len(own) > 0 {
		lines = append(lines, doc.L(w.t("Your regions: %s.", strings.Join(own, ", "))))
	}
	if len(declined) > 0 {
		lines = append(lines, doc.L(w.t("Your regions in decline: %s.", strings.Join(declined, ", "))))
	}
	if len(changed) > 0 {
		lines = append(lines, doc.L(w.t("Changed since your last mail: %s.", strings.Join(changed, "; "))))
	}
	if len(lines) == 0 {
		return nil
	}
	return &doc.Para{Lines: lines}
}

// short names a region in short: its id, its tokens and pieces; with holder, who
// holds it (or that it is empty).
func (smallWorld) short(w words, r map[string]any, mark, holder bool) string {
	s := Str(r["id"])
	if mark {
		s += "*"
	}
	switch {
	case holder && r["owner"] == nil:
		s += " " + w.t("empty")
	case holder:
		s += " " + Owner(w.tr, string(w.lang), r["owner"])
		if r["race"] != nil {
			s += " " + w.term(r["race"])
		}
		s += " ×" + Str(r["tokens"])
	default:
		s += " ×" + Str(r["tokens"])
	}
	if p := Pieces(w.tr, string(w.lang), r["pieces"]); p != "" {
		s += " [" + p + "]"
	}
	return s
}

// regionTable is every region of the map: terrain, symbols, holder and pieces, and
// neighbours; the reader's first, the changed ones marked.
func (smallWorld) regionTable(w words, b board) *doc.Table {
	rows := Board(b.View, b.Player, b.Changed, b.Lang)
	title := w.t("Regions:")
	if Num(rows["own"]) > 0 {
		title = w.t("Regions (yours first):")
	}
	t := &doc.Table{Title: doc.L(title), Head: []string{w.t("Region"), w.t("Held by"), w.t("Next to")}, Record: []string{" — ", "; " + w.prefix("next to %s")}}
	list, _ := rows["regions"].([]any)
	for _, x := range list {
		r := obj(x)
		if r == nil {
			continue
		}
		where := Str(r["id"]) + " " + DisplayName(w.tr, b.Lang, Str(r["terrain"]))
		if sy := SymbolNames(w.tr, b.Lang, r["symbols"]); len(sy) > 0 {
			where += " (" + strings.Join(sy, ", ") + ")"
		}
		if r["border"] == true {
			where += ", " + w.t("entry")
		}
		held := w.t("empty")
		if r["owner"] != nil {
			held = Owner(w.tr, b.Lang, r["owner"])
			if r["race"] != nil {
				held += " " + w.term(r["race"])
			}
			held += " ×" + Str(r["tokens"])
			if r["declined"] == true {
				held += " " + w.t("(declined)")
			}
		}
		if p := Pieces(w.tr, b.Lang, r["pieces"]); p != "" {
			held += " [" + p + "]"
		}
		t.Rows = append(t.Rows, doc.Row{Mark: r["changed"] == true, Cells: []doc.Line{doc.L(where), doc.L(held), doc.L(strings.Join(Strs(r["adjacent"]), ", "))}})
	}
	var notes []string
	if rows["marked"] == true {
		notes = append(notes, w.t("* changed since your last mail"))
	}
	if Str(b.View["game"]) == "underground" {
		key := w.t("Map key: \"%s ×2\" guard a place or relic, revealed to whoever conquers them.", Owner(w.tr, b.Lang, "monsters"))
		ug := UndergroundBoard(b.View["regions"])
		if ug {
			key += w.t(" A river costs 1 token, which leaves it when your conquests end.") + w.t(" A chasm is never entered (the %s' volcano stands on one).", w.term("Flames")) +
				w.t(" [%s] on a black mountain is its marker (+1 defence).", DisplayName(w.tr, b.Lang, "mountain"))
		}
		key += w.t(" Other pieces in brackets: %s (+1 defence each), and the places and relics found.", MapKeyPieces(w.tr, b.Lang, ug))
		notes = append(notes, key)
	}
	if len(notes) > 0 {
		t.Note = doc.L(strings.Join(notes, " "))
	}
	return t
}

// Board returns the data of a map game's region table: a copy of the engine's view
// whose regions list the reader's own first (the order of the view otherwise) and
// mark with "changed" those whose ids are in changed (see State.Changed). It adds
// "Lang", the reader's language, "own", the number of the reader's regions, and
// "marked", true when a region is marked. The view itself is not modified. reader is
// "" for observers: the order is the view's.
func Board(view map[string]any, reader string, changed []string, lang string) map[string]any {
	out := make(map[string]any, len(view)+3)
	for k, v := range view {
		out[k] = v
	}
	out["Lang"], out["own"], out["marked"] = lang, 0, false
	regions, _ := view["regions"].([]any)
	if regions == nil {
		return out
	}
	rows := make([]any, 0, len(regions))
	marked, own := false, 0
	mine := func(r any) bool {
		m, ok := r.(map[string]any)
		return ok && reader != "" && Str(m["owner"]) == reader
	}
	for _, r := range regions {
		m, ok := r.(map[string]any)
		if !ok {
			rows = append(rows, r)
			continue
		}
		row := make(map[string]any, len(m)+1)
		for k, v := range m {
			row[k] = v
		}
		if slices.Contains(changed, Str(m["id"])) {
			row["changed"] = true
			marked = true
		}
		if mine(row) {
			own++
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b any) int {
		switch ma, mb := mine(a), mine(b); {
		case ma && !mb:
			return -1
		case mb && !ma:
			return 1
		}
		return 0
	})
	out["regions"], out["own"], out["marked"] = rows, own, marked
	return out
}

// aboutFormats is how a piece is presented with its text, by kind (engine.Entry).
var aboutFormats = map[string]string{
	"race":  "%s (race): %s",
	"power": "%s (special power): %s",
	"place": "%s (place): %s",
	"relic": "%s (relic): %s",
	"card":  "%s (card): %s",
}

// AboutLine presents the piece name of kind kind with what it does, text, in lang:
// "Ratmen (race): No ability: …" (the answer to "rules GAME NAME", the lines of the
// Small World state mail under the combos).
func AboutLine(tr *i18n.Bundle, lang i18n.Lang, name engine.Term, kind, text string) string {
	format, ok := aboutFormats[kind]
	if !ok {
		format = "%s: %s"
	}
	return tr.Sprintf(lang, format, name, text)
}

// swAbout lists what the races and powers of a Small World view do, each once: the
// reader player's own combos (active and in decline), or with all every player's and
// the offer's; the texts of the abilities catalogue.
func swAbout(w words, player string, view map[string]any, all bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(c map[string]any) {
		for _, kind := range []string{"race", "power"} {
			name, _ := c[kind].(string)
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			if text, ok := w.tr.About(w.lang, name); ok {
				out = append(out, AboutLine(w.tr, w.lang, engine.Term(name), kind, text))
			}
		}
	}
	for _, p := range objs(view["players"]) {
		if !all && (player == "" || p["name"] != player) {
			continue
		}
		add(obj(p["active"]))
		for _, d := range objs(p["declined"]) {
			add(d)
		}
	}
	if all {
		for _, c := range objs(view["offer"]) {
			add(c)
		}
	}
	return out
}

// DisplayName returns the printed name of a view key (a terrain or a piece) in lang:
// the English name as printed (smallworld.PrintedName), or its name in lang from the
// terms catalogue.
func DisplayName(tr *i18n.Bundle, lang, key string) string {
	return tr.Term(i18n.Lang(lang).Or(i18n.English), smallworld.PrintedName(key))
}

// symbolTerm is the term of a region symbol's name: its key and " symbol" ("mine
// symbol"), since a symbol and a terrain may share a key and an English name but not
// an Italian one (the base game's mine symbol is a "miniera", Underground's mine
// terrain a "giacimento").
func symbolTerm(key string) string { return key + " symbol" }

// SymbolNames returns the printed names of a JSON-decoded list of region symbols in
// lang ("mine", "lost-tribe" in English).
func SymbolNames(tr *i18n.Bundle, lang string, v any) []string {
	keys := Strs(v)
	for i, k := range keys {
		if n := tr.Term(i18n.Lang(lang).Or(i18n.English), symbolTerm(k)); n != symbolTerm(k) {
			keys[i] = n
		}
	}
	return keys
}

// Owner names a region's holder in lang: a player by their name, and the view's
// "lost-tribe" and "monsters" by the terms Lost Tribe and Monsters (kept as they are
// in English, where the mails have always shown them so).
func Owner(tr *i18n.Bundle, lang string, v any) string {
	o := Str(v)
	if lang == string(i18n.English) || lang == "" {
		return o
	}
	switch o {
	case "lost-tribe":
		return tr.Term(i18n.Lang(lang), "Lost Tribe")
	case "monsters":
		return tr.Term(i18n.Lang(lang), "Monsters")
	}
	return o
}

// Combo names a race and power combo in lang ("Flying Ratmen"), or the race alone
// when power is empty: the engine's text for a combo (the smallworld catalogue's
// "%[1]s %[2]s"), so that mails and accounts name it alike.
func Combo(tr *i18n.Bundle, lang string, race, power any) string {
	r, p := Str(race), Str(power)
	l := i18n.Lang(lang).Or(i18n.English)
	if p == "" || p == "-" {
		return tr.Term(l, r)
	}
	return tr.Sprintf(l, "%[1]s %[2]s", engine.Term(p), engine.Term(r))
}

// Pieces renders a region's pieces in lang, given as a list of view keys or as an
// object of key → count/flag, by their printed names (DisplayName), as "fortress,
// encampment×2".
func Pieces(tr *i18n.Bundle, lang string, v any) string {
	name := func(k string) string { return DisplayName(tr, lang, k) }
	var parts []string
	switch x := v.(type) {
	case []any:
		for _, p := range x {
			parts = append(parts, name(Str(p)))
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			switch n := x[k].(type) {
			case bool:
				if n {
					parts = append(parts, name(k))
				}
			case float64:
				if n == 1 {
					parts = append(parts, name(k))
				} else if n > 1 {
					parts = append(parts, fmt.Sprintf("%s×%d", name(k), int(n)))
				}
			case nil:
			default:
				parts = append(parts, name(k)+" "+Str(n))
			}
		}
	case nil:
	default:
		parts = append(parts, Str(x))
	}
	return strings.Join(parts, ", ")
}

// UndergroundBoard reports whether a Small World view's regions (a JSON-decoded list)
// are of an Underground board: some region is a river or a chasm. The Underground
// game may be played on a surface board, whose mails do not explain them.
func UndergroundBoard(regions any) bool {
	for _, m := range objs(regions) {
		if m["terrain"] == "river" || m["terrain"] == "chasm" {
			return true
		}
	}
	return false
}

// Terms returns the names in lang of a JSON-decoded list of game terms (powers,
// races).
func Terms(tr *i18n.Bundle, lang string, v any) []string {
	out := Strs(v)
	for i, t := range out {
		out[i] = tr.Term(i18n.Lang(lang).Or(i18n.English), t)
	}
	return out
}

// mapKeyPieceKeys are the Underground pieces the map key lists, the volcano first.
var mapKeyPieceKeys = []string{"volcano", "great_ancient", "balrog", "black_queen", "laras_ghost", "mushroom_armour"}

// MapKeyPieces lists the printed names in lang of the pieces the Underground map key
// explains; the volcano only when the board has chasms for it (volcano).
func MapKeyPieces(tr *i18n.Bundle, lang string, volcano bool) string {
	keys := mapKeyPieceKeys
	if !volcano {
		keys = keys[1:]
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = DisplayName(tr, lang, k)
	}
	return strings.Join(names, ", ")
}
