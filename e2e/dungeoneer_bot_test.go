package e2e

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/turnmail/turnmail/i18n"
)

// dungeon is the purposeful play of a Dungeoneer player who reads only the mail, so
// that a whole game ends within the test's time (random commands take hundreds of
// mails). As Dungeon Lord it plays the Encounters and Banes the mail lists where they
// have the edge (a monster's attack over the target's score, a trap's test over it,
// both read from the cards and hero sheets the mail shows), gives the Peril to an
// opponent and keeps unhurt monsters; as the player to the left it picks a quest or
// map monster's best form; asked to respond it cancels or defends when it can (and in
// games of the older rules challenges a monster that attacked it); out of turn it
// stands up and challenges a monster that attacked in its space; as a hero it does a quest when one is
// listed, takes a component lying in its space, challenges a map monster when healthy,
// else steps towards the nearest quest's map card (read from the drawn map and the
// hero sheets), exploring when it is not on the map yet. It returns "" when the mail is
// not a Dungeoneer one or the phase is left to chance (building, discarding).
//
// The bot reads the mail in its language (dgWords) and weighs the listed commands
// by their canonical words (play, on, melee …), and it sends the one it chose as the
// mail lists it, in the mail's words: one strategy in every language.
func (b *bot) dungeon(listed []string, board string) string {
	rd := b.reading()
	w := rd.dungeoneer()
	if !strings.Contains(board, w.heroes) {
		return ""
	}
	e := rd.dungeonEntries(listed)
	if q := e.first("quest "); q != "" {
		return q
	}
	mail := w.read(board)
	switch mail.phase {
	case "lord":
		return b.dungeonLord(e, mail)
	case "spoils":
		return b.dungeonSpoils(e)
	case "guard":
		return dungeonGuard(e, mail)
	case "respond", "counter":
		return b.dungeonRespond(e, mail)
	case "hero":
	default:
		return ""
	}
	if e.has("stand") {
		return e.send("stand")
	}
	if c := e.first("take "); c != "" {
		return c
	}
	me := mail.heroes[b.name]
	if me.life >= 4 && b.rng.IntN(2) == 0 {
		if c, _ := e.best("challenge m", func(f []string) int { return me.stats[f[2]] }); c != "" {
			return c
		}
	}
	// A locked door can hold the hero back a turn or two: a random step in
	// four tries another way.
	way := dungeonWay(w.doors(board), [2]int{me.x, me.y}, mail.goals(b.name))
	if c := e.send(way); c != "" && b.rng.IntN(4) > 0 {
		return c
	}
	if e.has("explore") && b.rng.IntN(3) > 0 {
		return e.send("explore")
	}
	if moves := e.all("move "); len(moves) > 0 && b.rng.IntN(2) == 0 {
		return moves[b.rng.IntN(len(moves))]
	}
	return e.send("done")
}

// dungeonLord plays, one a mail, the Encounter or Bane of the listed ones with the
// best edge — a monster's attack in the chosen form over the target's score in it, a
// trap's test over the target's score plus an average die — three times in four while
// one has an edge; then done.
func (b *bot) dungeonLord(e dgEntries, mail dgMail) string {
	edge := func(f []string) int {
		// play CARD on PLAYER [FORM]
		if len(f) != 4 && len(f) != 5 || f[2] != "on" {
			return -99
		}
		c, h := mail.cards[f[1]], mail.heroes[f[3]]
		switch {
		case h.stats == nil:
			return -99
		case c.kind == "monster" && len(f) == 5:
			return c.attacks[f[4]] - h.stats[f[4]]
		case c.kind == "trap":
			return c.test - h.stats[c.stat] - 3
		case c.kind == "bane":
			return b.rng.IntN(2) - 1
		}
		return -99
	}
	if c, v := e.best("play ", edge); c != "" && v >= 0 && b.rng.IntN(4) > 0 {
		return c
	}
	return e.send("done")
}

// dungeonSpoils trims a pack over three, keeps unhurt monsters in the hand (to play
// them again), and gives the Peril the monsters earned, all of it, to an opponent.
func (b *bot) dungeonSpoils(e dgEntries) string {
	for _, prefix := range []string{"discard ", "keep "} {
		for i, c := range e.canon {
			if strings.HasPrefix(c, prefix) && !strings.HasSuffix(c, " pack") {
				return e.listed[i]
			}
		}
	}
	c, _ := e.best("peril ", func(f []string) int {
		if f[1] == b.name {
			return -1
		}
		n, _ := strconv.Atoi(f[2])
		return n
	})
	return c
}

// dungeonGuard chooses the form a quest or map monster strikes the current hero with:
// its attack with the greatest lead over the hero's score, read from the card the mail
// describes ("… chooses how the monster of this card strikes …") and the hero's sheet.
func dungeonGuard(e dgEntries, mail dgMail) string {
	c, h := mail.cards[mail.guard], mail.heroes[mail.guarded]
	if c.attacks == nil || h.stats == nil {
		return "" // a defect of the mail: the bot falls back on a random entry
	}
	best, _ := e.best("attack ", func(f []string) int { return c.attacks[f[1]] - h.stats[f[1]] })
	return best
}

// dungeonRespond answers what an attack asks: a Favor that cancels, else any response
// or defense, else a challenge of the monster that attacked with the hero's best
// score, else pass.
func (b *bot) dungeonRespond(e dgEntries, mail dgMail) string {
	me := mail.heroes[b.name]
	for i, c := range e.canon {
		if f := strings.Fields(c); f[0] == "play" && len(f) == 3 {
			return e.listed[i]
		}
	}
	for i, c := range e.canon {
		if strings.HasPrefix(c, "play ") || strings.HasPrefix(c, "use ") {
			return e.listed[i]
		}
	}
	if me.life > 2 {
		if c, _ := e.best("challenge ", func(f []string) int { return me.stats[f[1]] }); c != "" {
			return c
		}
	}
	return e.send("pass")
}

// dungeonOutOfTurn is what the bot sends from a mail that lists no move of its own
// but commands of any moment: a heal (a ready card, the ability) when its hero is hurt;
// an always Bane on the hero whose turn it is, one time in two; with the Movement it
// saved, standing up when knocked down, and with 3 life or more a challenge, with its
// best score, of an Encounter monster that attacked in its space (its card id, aNN).
func (b *bot) dungeonOutOfTurn(body, board string) string {
	rd := b.reading()
	w := rd.dungeoneer()
	if !strings.Contains(board, w.heroes) {
		return ""
	}
	mail := w.read(board)
	me := mail.heroes[b.name]
	e := rd.dungeonEntries(w.anyTimeEntries(body))
	for i, c := range e.canon {
		f := strings.Fields(c)
		switch {
		case me.life < 4 && (c == "ability" && w.heals(me.ability) || len(f) == 2 && w.heals(mail.cards[f[1]].text)):
			return e.listed[i]
		case len(f) == 4 && mail.cards[f[1]].kind == "bane" && mail.turn != "" && f[3] == mail.turn && b.rng.IntN(2) == 0:
			return e.listed[i]
		case c == "stand":
			return e.listed[i]
		}
	}
	if me.life >= 3 {
		best, bv := "", -1
		for i, c := range e.canon {
			if f := strings.Fields(c); dgEncounterChallenge.MatchString(c) && me.stats[f[2]] > bv {
				best, bv = e.listed[i], me.stats[f[2]]
			}
		}
		return best
	}
	return ""
}

// dgEncounterChallenge matches a challenge of an Encounter monster (named by its
// card id) in canonical words.
var dgEncounterChallenge = regexp.MustCompile(`^challenge a\d\d `)

// dgEntries are the commands a mail lists, each as the mail lists it — in the
// reader's words, what the bot sends — and canonical — in English words, what the
// bot's choices read ("gioca a13 su bob mischia", "play a13 on bob melee").
type dgEntries struct{ listed, canon []string }

// dungeonEntries reads the commands of a mail's list, leaving out their notes.
func (r *reading) dungeonEntries(entries []string) dgEntries {
	var e dgEntries
	for _, l := range entries {
		cmd, _, _ := strings.Cut(l, " #") // a note explains the command
		cmd = strings.TrimSpace(cmd)
		e.listed = append(e.listed, cmd)
		e.canon = append(e.canon, r.canonicalCommand("dungeoneer", cmd))
	}
	return e
}

// has reports whether the canonical command c is listed.
func (e dgEntries) has(c string) bool { return slices.Contains(e.canon, c) }

// send is the listed entry of the canonical command c, "" when it is not listed.
func (e dgEntries) send(c string) string {
	if i := slices.Index(e.canon, c); c != "" && i >= 0 {
		return e.listed[i]
	}
	return ""
}

// all are the listed entries whose canonical command starts with prefix.
func (e dgEntries) all(prefix string) []string {
	var out []string
	for i, c := range e.canon {
		if strings.HasPrefix(c, prefix) {
			out = append(out, e.listed[i])
		}
	}
	return out
}

// first is the first listed entry whose canonical command starts with prefix ("" when
// none does).
func (e dgEntries) first(prefix string) string {
	if all := e.all(prefix); len(all) > 0 {
		return all[0]
	}
	return ""
}

// best returns the listed entry whose canonical command starts with prefix with the
// highest score (its canonical words given to score), the first of equals, and its
// score; "" when none starts with prefix.
func (e dgEntries) best(prefix string, score func([]string) int) (string, int) {
	best, top := "", 0
	for i, c := range e.canon {
		if !strings.HasPrefix(c, prefix) {
			continue
		}
		if v := score(strings.Fields(c)); best == "" || v > top {
			best, top = e.listed[i], v
		}
	}
	return best, top
}

// dgCard is what the mail says of an Adventure, quest or map card: its kind, the
// scores of its monster's standard attacks by form, a trap's test, a quest's map card
// (an escort's start) and an escort's destination, its text.
type dgCard struct {
	kind    string
	attacks map[string]int
	stat    string
	test    int
	at, to  string
	text    string
}

// dgHero is a hero sheet of the mail: its scores by form (and its life and level, which
// a test may use), its life, its ability, where it stands, its quests and the escort
// component it carries.
type dgHero struct {
	stats    map[string]int
	life     int
	ability  string
	x, y     int
	quests   []string
	carrying string
}

// dgMail is what the bot reads from a Dungeoneer state mail: the phase and whose turn
// it is, every card described in it, the hero sheets by player, the global quest, and
// in the guard step the card whose monster strikes and the hero it strikes.
type dgMail struct {
	phase, turn    string
	cards          map[string]dgCard
	heroes         map[string]dgHero
	global         string
	guard, guarded string
}

// goals are the map cards the hero of player makes for: those of its quests (an
// escort's destination once it carries the component) and of the global quest.
func (m dgMail) goals(player string) []string {
	h := m.heroes[player]
	quests := slices.Clone(h.quests)
	if m.global != "" {
		quests = append(quests, m.global)
	}
	var goals []string
	for _, q := range quests {
		switch c := m.cards[q]; {
		case c.kind == "escort" && q == h.carrying:
			goals = append(goals, c.to)
		case c.kind != "escort" || h.carrying == "":
			goals = append(goals, c.at)
		}
	}
	return goals
}

// dgWords is how a bot reads a Dungeoneer mail in its language: the marks of the
// mail's parts and the shapes of its lines — the round, a card, a hero sheet, the
// guard step — each built from the catalogue's translation of the English format the
// templates write (reading.shape), and the words of the phases, kinds of card and
// scores, which are the engine catalogue's texts.
type dgWords struct {
	// mark starts the drawn map; heroes and onMap are the headings after it, global
	// the global quest's and anyTime the list of the commands of any moment.
	mark, heroes, onMap, global, anyTime string
	// globalRe reads the global quest told in short on one line.
	globalRe *regexp.Regexp
	// roundRe reads the phase and whose turn it is; phases map a phase's text to the
	// phase.
	roundRe *regexp.Regexp
	phases  map[string]string
	// cardRe reads a card: its id, kind, the rest of its parentheses and its text;
	// kinds map a kind's word to the kind.
	cardRe *regexp.Regexp
	kinds  map[string]string
	// attacksRe reads a monster's standard attacks, scores a score by form (melee,
	// magic, speed), tests a trap's test by score (life too) at the start of its text,
	// places a quest's map cards (from → to, or at) after its kind.
	attacksRe *regexp.Regexp
	scores    map[string]*regexp.Regexp
	tests     map[string]*regexp.Regexp
	places    []*regexp.Regexp
	// The lines of a hero sheet: its row of the heroes' table (name, level, life,
	// scores, where it stands), its ability, a quest, the component it carries.
	seatRe, abilityRe, questRe, carryRe *regexp.Regexp
	// entryRe matches the start of a list's entry (a hero, a line of a hero sheet, a
	// card, a place on the map): a line indented like the one before that starts no
	// entry continues it.
	entryRe *regexp.Regexp
	// guard are the texts of the guard step (with the form the hero attacks with
	// next, and without).
	guard []fact
	// heal is how a card's text says that it heals.
	heal string
}

// dgPhases are the phases the round line names, each by its text "PHASE phase".
var dgPhases = []string{"lord", "respond", "counter", "spoils", "guard", "build", "hero", "place", "discard"}

// dgKinds are the kinds of card a card's description names first in its parentheses.
var dgKinds = []string{"monster", "trap", "bane", "favor", "treasure", "kill", "fetch", "visit", "escort", "chance", "entrance", "passage", "room"}

// dgForms are the forms of attack; dgScoreKeys the formats of a score by form, and of
// life, which a trap may test.
var (
	dgForms     = []string{"melee", "magic", "speed"}
	dgScoreKeys = map[string]string{"melee": "Melee %d", "magic": "Magic %d", "speed": "Speed %d", "life": "life %d"}
)

var (
	dgWordsMu sync.Mutex
	dgWordsOf = map[i18n.Lang]*dgWords{}
)

// dungeoneer returns how r reads a Dungeoneer mail (built once for each language).
func (r *reading) dungeoneer() *dgWords {
	dgWordsMu.Lock()
	defer dgWordsMu.Unlock()
	if w := dgWordsOf[r.lang]; w != nil {
		return w
	}
	w := newDgWords(r)
	dgWordsOf[r.lang] = w
	return w
}

// newDgWords builds the reading of a Dungeoneer mail in r's language.
func newDgWords(r *reading) *dgWords {
	legend := r.say("The dungeon (x grows east, y south; @n is the hero of seat n; a gap is an open door, Ln/Tn a locked/trapped door of value n; qNN marks an escort component):")
	w := &dgWords{
		mark:     "\n" + legend[:strings.Index(legend, "(")+1],
		heroes:   "\n" + r.say("Heroes:"),
		onMap:    "\n" + r.say("On the map:"),
		global:   r.say("Global quest:"),
		globalRe: regexp.MustCompile(`^` + r.shape("Global quest: %s", `(q\d\d) `)),
		anyTime:  r.say("At any moment, even out of your turn, you may send:"),
		phases:   map[string]string{},
		kinds:    map[string]string{},
		scores:   map[string]*regexp.Regexp{},
		tests:    map[string]*regexp.Regexp{},
		guard: []fact{
			r.fact("%s, to the left, chooses how the monster of this card strikes %s first (then %s attacks with %s):"),
			r.fact("%s, to the left, chooses how the monster of this card strikes %s first:"),
		},
		heal: r.healWord(),
	}
	w.roundRe = regexp.MustCompile(`^` + r.shape("Round %s", `\d+`) + ` — (.+?)(?:, ` + r.shape("%s's turn", `(\S+)`) + `)?\.(?: |$)`)
	for _, p := range dgPhases {
		w.phases[r.say(p+" phase")] = p
	}
	var kinds []string
	for _, k := range dgKinds {
		w.kinds[r.say(k)] = k
		kinds = append(kinds, regexp.QuoteMeta(r.say(k)))
	}
	w.cardRe = regexp.MustCompile(`\b([amq]\d\d) [^(]*\((` + strings.Join(kinds, "|") + `)((?:[,;][^)]*)?)\)(: .*)?`)
	var scores []string
	for _, f := range dgForms {
		w.scores[f] = regexp.MustCompile(r.shape(dgScoreKeys[f], `(\d+)`))
		scores = append(scores, r.shape(dgScoreKeys[f], `\d+`))
	}
	for stat, key := range dgScoreKeys {
		w.tests[stat] = regexp.MustCompile(`(?i)^: ` + r.shape(key, `(\d+)`) + `\+`)
	}
	score := `(?:` + strings.Join(scores, "|") + `)`
	w.attacksRe = regexp.MustCompile(r.shape("attacks %s", `(`+score+`(?:, `+score+`)*)`))
	w.places = []*regexp.Regexp{
		regexp.MustCompile(`^, ` + r.shape("at %s → %s", `(?P<at>m\d\d)`, `(?P<to>m\d\d)`)),
		regexp.MustCompile(`^, ` + r.shape("at %s", `(?P<at>m\d\d)`)),
	}
	// A row of the heroes' table: "  1. ann (blue)  2     2     11      5         2/3/2     -1,-1"
	// (seat, name and colour, level, life, Glory, Peril, Melee/Magic/Speed, place).
	w.seatRe = regexp.MustCompile(`^  \d+\. (?P<name>\S+)(?: \([^)]*\))? +(?P<level>\d+) +(?P<life>-?\d+) +-?\d+ +-?\d+ +(?P<melee>-?\d+)/(?P<magic>-?\d+)/(?P<speed>-?\d+) +(?P<x>-?\d+),(?P<y>-?\d+)`)
	sheet := []string{
		r.shape("ability: %s", `(?P<text>.*)`),
		r.shape("quest: %s", `(?P<id>q\d\d) `),
		r.shape("carrying the component of %s", `(?P<id>q\d\d)`),
		r.shape("quests done: %s", `q\d\d`),
		r.shape("favor: %s", `a\d\d `),
		r.shape("treasure: %s", `a\d\d `),
		r.shape("bane: %s", `a\d\d `),
		r.shape("pack: %s", `a\d\d `),
	}
	for _, form := range r.tr.Forms(r.lang, "%d cards in hand") { // both plural forms
		sheet = append(sheet, formShape(form, func(int, string, bool) string { return `\d+` }))
	}
	w.abilityRe, w.questRe, w.carryRe = regexp.MustCompile(`^`+sheet[0]), regexp.MustCompile(`^`+sheet[1]), regexp.MustCompile(`^`+sheet[2])
	w.entryRe = regexp.MustCompile(`^(?:\d+\. |- |[amq]\d\d |-?\d+,-?\d+ |` + strings.Join(sheet, "|") + `)`)
	return w
}

// healWord is how the texts of the cards and of the heroes' abilities say that they
// heal, in r's language. They are the editions' texts, which no catalogue format
// writes, so this is the one word of the rules a reader brings: "heal 1", and in
// the Italian rulebook's words "recuperare 1 Vita" ("Recuperare o guadagnare 1
// Vita": "recuperi 1 vita").
func (r *reading) healWord() string {
	if r.lang == i18n.Italian {
		return "recuper"
	}
	return "heal"
}

// heals reports whether a card's text or a hero's ability heals.
func (w *dgWords) heals(text string) bool { return strings.Contains(strings.ToLower(text), w.heal) }

// dgNumbered matches the start of a numbered row ("  1. ") or of a list's item
// ("  - "), which continues under its text.
var dgNumbered = regexp.MustCompile(`^ +(?:\d+\.|-|!) +`)

// dgCardID reads the card a line starts with ("  - m09 Collapsed Gallery (…").
var dgCardID = regexp.MustCompile(`^\s+(?:- )?([amq]\d\d) `)

// lines returns the lines of a mail with the lines the templates wrapped joined
// again: a line without indentation broken softly (it ends in a space) goes on on
// the next; an indented one goes on on the lines below indented as its text (a
// numbered row's under its text) that start no entry of a list (entryRe).
func (w *dgWords) lines(board string) []string {
	var out []string
	under, soft := -1, false // the indentation the last line goes on at; whether it broke softly
	for _, l := range strings.Split(board, "\n") {
		t := strings.TrimLeft(l, " ")
		indent := len(l) - len(t)
		switch n := len(out); {
		case n > 0 && soft && indent == 0 && t != "":
			out[n-1] += l
		case n > 0 && t != "" && indent > 0 && indent == under && !w.entryRe.MatchString(t):
			out[n-1] += " " + t
		default:
			out = append(out, l)
			under = -1
			if indent > 0 {
				under = indent
				if row := dgNumbered.FindString(l); row != "" {
					under = len(row)
				}
			}
		}
		soft = indent == 0 && strings.HasSuffix(l, " ")
	}
	return out
}

// read reads a Dungeoneer state mail (dgMail) in w's language.
func (w *dgWords) read(board string) dgMail {
	lines := w.lines(board)
	m := dgMail{cards: map[string]dgCard{}, heroes: map[string]dgHero{}}
	seat := "" // the player whose sheet the lines are
	for i, l := range lines {
		if g := w.roundRe.FindStringSubmatch(l); g != nil && m.phase == "" {
			m.phase, m.turn = w.phases[g[1]], g[2]
		}
		for _, c := range w.cardRe.FindAllStringSubmatch(l, -1) {
			m.cards[c[1]] = w.card(c[2], c[3], c[4])
		}
		if g := w.seatRe.FindStringSubmatch(l); g != nil {
			seat = g[w.seatRe.SubexpIndex("name")]
			number := func(name string) int {
				v, _ := strconv.Atoi(g[w.seatRe.SubexpIndex(name)])
				return v
			}
			h := dgHero{stats: map[string]int{"level": number("level"), "life": number("life")}, life: number("life"), x: number("x"), y: number("y")}
			for _, f := range dgForms {
				h.stats[f] = number(f)
			}
			m.heroes[seat] = h
			continue
		}
		if !strings.HasPrefix(l, "    ") {
			seat = "" // a sheet's lines are indented under its seat's row
		}
		if seat != "" {
			h := m.heroes[seat]
			w.sheetLine(&h, strings.TrimSpace(l))
			m.heroes[seat] = h
		}
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		if g := w.globalRe.FindStringSubmatch(l); g != nil {
			m.global = g[1] // in short, on one line
		}
		if g := dgCardID.FindStringSubmatch(next); g != nil {
			if l == w.global {
				m.global = g[1] // in full, under its title
			}
			for _, f := range w.guard {
				if who := f.find(l); who != nil {
					m.guard, m.guarded = g[1], who[2]
					break
				}
			}
		}
	}
	return m
}

// card reads a card of the mail from its kind's word, the rest of its parentheses and
// its text (": …").
func (w *dgWords) card(kindWord, rest, text string) dgCard {
	c := dgCard{kind: w.kinds[kindWord], text: text}
	if a := w.attacksRe.FindStringSubmatch(rest); a != nil {
		c.attacks = map[string]int{}
		for _, f := range dgForms {
			if s := w.scores[f].FindStringSubmatch(a[1]); s != nil {
				c.attacks[f], _ = strconv.Atoi(s[1])
			}
		}
	}
	if c.kind == "trap" {
		for stat, re := range w.tests {
			if t := re.FindStringSubmatch(text); t != nil {
				c.stat = stat
				c.test, _ = strconv.Atoi(t[1])
			}
		}
	}
	for _, re := range w.places {
		if p := re.FindStringSubmatch(rest); p != nil {
			c.at = p[re.SubexpIndex("at")]
			if i := re.SubexpIndex("to"); i >= 0 {
				c.to = p[i]
			}
			break
		}
	}
	return c
}

// sheetLine reads a line of a hero sheet (without its indentation) into h.
func (w *dgWords) sheetLine(h *dgHero, l string) {
	group := func(re *regexp.Regexp, g []string, name string) string { return g[re.SubexpIndex(name)] }
	if g := w.abilityRe.FindStringSubmatch(l); g != nil {
		h.ability = group(w.abilityRe, g, "text")
	} else if g := w.questRe.FindStringSubmatch(l); g != nil {
		h.quests = append(h.quests, group(w.questRe, g, "id"))
	} else if g := w.carryRe.FindStringSubmatch(l); g != nil {
		h.carrying = group(w.carryRe, g, "id")
	}
}

// anyTimeEntries returns the commands a mail lists under "At any moment, even out of
// your turn, you may send:".
func (w *dgWords) anyTimeEntries(body string) []string {
	_, rest, ok := strings.Cut(body, w.anyTime+"\n")
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "    ") {
			break
		}
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// dungeonCell is a map card read from the drawn map: its id and whether each side
// (n, e, s, w) has a way through (open, locked or trapped: no wall).
type dungeonCell struct {
	id   string
	ways [4]bool
}

var (
	dgCellRe = regexp.MustCompile(`(m\d\d) (-?\d+),(-?\d+)`)
	dgSteps  = [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	// dgDirs are the sides in the canonical words of the move command.
	dgDirs = [4]string{"n", "e", "s", "w"}
)

// doors reads the map drawn in the mail (dungeoneer.DrawMap: boxes of 16×5
// characters, the id and coordinates on the box's second line, a door in the middle
// of each edge — "──" or "│" a wall; its words, the obstacles and the marks of the
// doors, are not needed).
func (w *dgWords) doors(board string) map[[2]int]dungeonCell {
	_, drawn, ok := strings.Cut(board, w.mark)
	if !ok {
		return nil
	}
	drawn, _, _ = strings.Cut(drawn, w.heroes)
	drawn, _, _ = strings.Cut(drawn, w.onMap)
	var lines [][]rune
	for _, l := range strings.Split(drawn, "\n") {
		lines = append(lines, []rune(l))
	}
	at := func(r, c int) rune {
		if r < 0 || r >= len(lines) || c < 0 || c >= len(lines[r]) {
			return ' '
		}
		return lines[r][c]
	}
	cells := map[[2]int]dungeonCell{}
	for r, l := range lines {
		for _, m := range dgCellRe.FindAllStringSubmatchIndex(string(l), -1) {
			c0 := len([]rune(string(l)[:m[0]])) - 2 // the box's left edge
			x, _ := strconv.Atoi(string(l)[m[4]:m[5]])
			y, _ := strconv.Atoi(string(l)[m[6]:m[7]])
			wall := func(ch rune) bool { return ch == '─' || ch == '│' }
			cells[[2]int{x, y}] = dungeonCell{id: string(l)[m[2]:m[3]], ways: [4]bool{
				!wall(at(r-1, c0+7)), !wall(at(r, c0+15)), !wall(at(r+3, c0+7)), !wall(at(r, c0))}}
		}
	}
	return cells
}

// dungeonWay is the first step of a shortest way from the hero's cell to one of the
// goals' cells through doors that are not walls on either side, as a canonical
// command ("move w"; "" when there is none).
func dungeonWay(cells map[[2]int]dungeonCell, from [2]int, goals []string) string {
	type node struct {
		at    [2]int
		first int
	}
	seen := map[[2]int]bool{from: true}
	queue := []node{{from, -1}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.first >= 0 && slices.Contains(goals, cells[n.at].id) {
			return "move " + dgDirs[n.first]
		}
		for side, d := range dgSteps {
			next := [2]int{n.at[0] + d[0], n.at[1] + d[1]}
			there, ok := cells[next]
			if !ok || seen[next] || !cells[n.at].ways[side] || !there.ways[(side+2)%4] {
				continue
			}
			seen[next] = true
			first := n.first
			if first < 0 {
				first = side
			}
			queue = append(queue, node{next, first})
		}
	}
	return ""
}
