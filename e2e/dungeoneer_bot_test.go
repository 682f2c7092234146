package e2e

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// dungeonMark starts the map in a Dungeoneer state mail.
const dungeonMark = "\nThe dungeon ("

var (
	dgPhaseRe = regexp.MustCompile(`(?m)^Round \d+ — (\w+) phase`)
	dgTurnRe  = regexp.MustCompile(`(?m)^Round \d+ — (\w+) phase, (\S+)'s turn`)
	dgCellRe  = regexp.MustCompile(`(m\d\d) (-?\d+),(-?\d+)`)
	dgSeatRe  = regexp.MustCompile(`^  \d+\. (\S+) — `)
	dgAtRe    = regexp.MustCompile(`^     at (-?\d+),(-?\d+);`)
	dgQuestRe = regexp.MustCompile(`quest: (q\d\d) .*?\((\w+), at (m\d\d)(?: → (m\d\d))?`)
	dgCarryRe = regexp.MustCompile(`carrying the component of (q\d\d)`)
)

// dungeon is the purposeful play of a Dungeoneer player who reads only the mail, so
// that a whole game ends within the test's time (random commands take hundreds of
// mails). As Dungeon Lord it plays the Encounters and Banes the mail lists where they
// have the edge (a monster's attack over the target's score, a trap's test over it,
// both read from the cards and hero sheets the mail shows), gives the Peril to an
// opponent and keeps unhurt monsters; as the player to the left it picks a quest or
// map monster's best form; asked to respond it cancels or defends when it can and
// challenges a monster that attacked it; as a hero it does a quest when one is
// listed, takes a component lying in its space, challenges a map monster when healthy,
// else steps towards the nearest quest's map card (read from the drawn map and the
// hero sheets), exploring when it is not on the map yet. It returns "" when the mail is
// not a Dungeoneer one or the phase is left to chance (building, discarding).
func (b *bot) dungeon(entries []string, board string) string {
	if !strings.Contains(board, dungeonMark) {
		return ""
	}
	entries = slices.Clone(entries)
	for i, e := range entries {
		cmd, _, _ := strings.Cut(e, " #") // a note explains the command
		entries[i] = strings.TrimSpace(cmd)
	}
	has := func(c string) bool { return slices.Contains(entries, c) }
	line := func(c string) string { return c }
	for _, e := range entries {
		if strings.HasPrefix(e, "quest ") {
			return e
		}
	}
	phase := ""
	if m := dgPhaseRe.FindStringSubmatch(board); m != nil {
		phase = m[1]
	}
	mail := dgRead(board)
	switch phase {
	case "lord":
		return b.dungeonLord(entries, mail)
	case "spoils":
		return b.dungeonSpoils(entries)
	case "guard":
		return dungeonGuard(entries, mail)
	case "respond", "counter":
		return b.dungeonRespond(entries, mail)
	case "hero":
	default:
		return ""
	}
	if has("stand") {
		return "stand"
	}
	for _, e := range entries {
		if strings.HasPrefix(e, "take ") {
			return e
		}
	}
	if me := mail.heroes[b.name]; me.life >= 4 && b.rng.IntN(2) == 0 {
		if c := bestOf(entries, "challenge m", func(f []string) int { return me.stats[f[2]] }); c != "" {
			return c
		}
	}
	x, y, goals := dungeonGoals(board, b.name)
	best := dungeonWay(dungeonDoors(board), [2]int{x, y}, goals)
	if best != "" && !has(best) {
		best = ""
	}
	// A locked door can hold the hero back a turn or two: a random step in
	// four tries another way.
	if best != "" && b.rng.IntN(4) > 0 {
		return best
	}
	if has("explore") && b.rng.IntN(3) > 0 {
		return "explore"
	}
	var moves []string
	for _, e := range entries {
		if strings.HasPrefix(e, "move ") {
			moves = append(moves, e)
		}
	}
	if len(moves) > 0 && b.rng.IntN(2) == 0 {
		return moves[b.rng.IntN(len(moves))]
	}
	if has("done") {
		return line("done")
	}
	return ""
}

// dungeonLord plays, one a mail, the Encounter or Bane of the listed ones with the
// best edge — a monster's attack in the chosen form over the target's score in it, a
// trap's test over the target's score plus an average die — three times in four while
// one has an edge; then done.
func (b *bot) dungeonLord(entries []string, mail dgMail) string {
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
	if c := bestOf(entries, "play ", edge); c != "" && edge(strings.Fields(c)) >= 0 && b.rng.IntN(4) > 0 {
		return c
	}
	return "done"
}

// dungeonSpoils trims a pack over three, keeps unhurt monsters in the hand (to play
// them again), and gives the Peril the monsters earned, all of it, to an opponent.
func (b *bot) dungeonSpoils(entries []string) string {
	for _, prefix := range []string{"discard ", "keep "} {
		for _, e := range entries {
			if strings.HasPrefix(e, prefix) && !strings.HasSuffix(e, " pack") {
				return e
			}
		}
	}
	return bestOf(entries, "peril ", func(f []string) int {
		if f[1] == b.name {
			return -1
		}
		n, _ := strconv.Atoi(f[2])
		return n
	})
}

// dungeonGuard chooses the form a quest or map monster strikes the current hero with:
// its attack with the greatest lead over the hero's score, read from the card the mail
// describes ("… chooses how the monster of this card strikes …") and the hero's sheet.
func dungeonGuard(entries []string, mail dgMail) string {
	c, h := mail.cards[mail.guard], mail.heroes[mail.guarded]
	if c.attacks == nil || h.stats == nil {
		return "" // a defect of the mail: the bot falls back on a random entry
	}
	return bestOf(entries, "attack ", func(f []string) int { return c.attacks[f[1]] - h.stats[f[1]] })
}

// dungeonRespond answers what an attack asks: a Favor that cancels, else any response
// or defense, else a challenge of the monster that attacked with the hero's best
// score, else pass.
func (b *bot) dungeonRespond(entries []string, mail dgMail) string {
	me := mail.heroes[b.name]
	for _, e := range entries {
		if f := strings.Fields(e); f[0] == "play" && len(f) == 3 {
			return e
		}
	}
	for _, e := range entries {
		if strings.HasPrefix(e, "play ") || strings.HasPrefix(e, "use ") {
			return e
		}
	}
	if me.life > 2 {
		if c := bestOf(entries, "challenge ", func(f []string) int { return me.stats[f[1]] }); c != "" {
			return c
		}
	}
	return "pass"
}

// dungeonOutOfTurn is what the bot sends from a mail that lists no move of its own
// but commands of any moment: a heal (a ready card, the ability) when its hero is hurt;
// an always Bane on the hero whose turn it is, one time in two.
func (b *bot) dungeonOutOfTurn(body, board string) string {
	if !strings.Contains(board, dungeonMark) {
		return ""
	}
	mail := dgRead(board)
	me := mail.heroes[b.name]
	turn := dgTurnRe.FindStringSubmatch(board)
	for _, e := range anyTimeEntries(body) {
		f := strings.Fields(e)
		switch {
		case me.life < 4 && (e == "ability" && strings.Contains(me.ability, "heal") || len(f) == 2 && strings.Contains(mail.cards[f[1]].text, "heal")):
			return e
		case len(f) == 4 && mail.cards[f[1]].kind == "bane" && turn != nil && f[3] == turn[2] && b.rng.IntN(2) == 0:
			return e
		}
	}
	return ""
}

// anyTimeEntries returns the commands a mail lists under "At any moment, even out of
// your turn, you may send:".
func anyTimeEntries(body string) []string {
	_, rest, ok := strings.Cut(body, "At any moment, even out of your turn, you may send:\n")
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

// bestOf returns the entry starting with prefix with the highest score (its words
// given to score), the first of equals; "" when none starts with prefix.
func bestOf(entries []string, prefix string, score func([]string) int) string {
	best, top := "", 0
	for _, e := range entries {
		if !strings.HasPrefix(e, prefix) {
			continue
		}
		if v := score(strings.Fields(e)); best == "" || v > top {
			best, top = e, v
		}
	}
	return best
}

// dgCard is what the mail says of an Adventure, quest or map card: its kind, the
// scores of its monster's standard attacks by form, a trap's test, its text.
type dgCard struct {
	kind    string
	attacks map[string]int
	stat    string
	test    int
	text    string
}

// dgHero is a hero sheet of the mail: its scores by form (and its life and level, which
// a test may use), its life, its ability.
type dgHero struct {
	stats   map[string]int
	life    int
	ability string
}

// dgMail is what the bot reads from a Dungeoneer state mail: every card described in
// it, the hero sheets by player, and in the guard step the card whose monster strikes
// and the hero it strikes.
type dgMail struct {
	cards          map[string]dgCard
	heroes         map[string]dgHero
	guard, guarded string
}

var (
	dgCardRe    = regexp.MustCompile(`\b([amq]\d\d) [^(\n]*\((monster|trap|bane|favor|treasure|kill|fetch|visit|escort|chance|entrance|passage|room)([^)]*)\)(: [^\n]*)?`)
	dgAttacksRe = regexp.MustCompile(`attacks ((?:(?:Melee|Magic|Speed) \d+(?:, )?)+)`)
	dgFormRe    = regexp.MustCompile(`(Melee|Magic|Speed) (\d+)`)
	dgTestRe    = regexp.MustCompile(`^: (Melee|Magic|Speed|Life|Level) (\d+)\+`)
	dgSheetRe   = regexp.MustCompile(`(?m)^  \d+\. (\S+) — .*, level (\d+), life (\d+)/6.*\n\s*Melee (\d+), Magic (\d+), Speed (\d+);.*\n.*\n\s*ability: (.*)`)
	dgEntryRe   = regexp.MustCompile(`^(\d+\. |at |quest: |quests done: |carrying |favor: |treasure: |bane: |pack: |ability: |[amq]\d\d |-?\d+,-?\d+ )`)
	dgGuardRe   = regexp.MustCompile(`to the left, chooses how the monster of this card strikes (\S+) first[^\n]*\n\s*([mq]\d\d) `)
)

// dgRead reads a Dungeoneer mail (dgMail). The mail wraps long descriptions: a line
// indented as the one before it that starts no entry of a list (a hero, a line of its
// sheet, a card, a place on the map) continues it, and is joined to it first.
func dgRead(board string) dgMail {
	var lines []string
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for _, l := range strings.Split(board, "\n") {
		t := strings.TrimLeft(l, " ")
		if n := len(lines); n > 0 && t != "" && indent(l) > 0 && indent(l) == indent(lines[n-1]) && !dgEntryRe.MatchString(t) {
			lines[n-1] += " " + t
			continue
		}
		lines = append(lines, l)
	}
	text := strings.Join(lines, "\n")
	m := dgMail{cards: map[string]dgCard{}, heroes: map[string]dgHero{}}
	for _, c := range dgCardRe.FindAllStringSubmatch(text, -1) {
		card := dgCard{kind: c[2], text: c[4]}
		if a := dgAttacksRe.FindStringSubmatch(c[3]); a != nil {
			card.attacks = map[string]int{}
			for _, f := range dgFormRe.FindAllStringSubmatch(a[1], -1) {
				card.attacks[strings.ToLower(f[1])], _ = strconv.Atoi(f[2])
			}
		}
		if t := dgTestRe.FindStringSubmatch(c[4]); t != nil && c[2] == "trap" {
			card.stat = strings.ToLower(t[1])
			card.test, _ = strconv.Atoi(t[2])
		}
		m.cards[c[1]] = card
	}
	for _, h := range dgSheetRe.FindAllStringSubmatch(text, -1) {
		// The scores a test may use: the forms, the life and the level.
		st := map[string]int{}
		for i, f := range []string{"level", "life", "melee", "magic", "speed"} {
			st[f], _ = strconv.Atoi(h[2+i])
		}
		m.heroes[h[1]] = dgHero{stats: st, life: st["life"], ability: h[7]}
	}
	if g := dgGuardRe.FindStringSubmatch(text); g != nil {
		m.guard, m.guarded = g[2], g[1]
	}
	return m
}

// dungeonCell is a map card read from the drawn map: its id and whether each side
// (n, e, s, w) has a way through (open, locked or trapped: no wall).
type dungeonCell struct {
	id   string
	ways [4]bool
}

var dgSteps = [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
var dgDirs = [4]string{"n", "e", "s", "w"}

// dungeonDoors reads the map drawn in the mail (dungeoneer.DrawMap: boxes of 16×5
// characters, the id and coordinates on the box's second line, a door in the middle
// of each edge — "──" or "│" a wall).
func dungeonDoors(board string) map[[2]int]dungeonCell {
	_, drawn, ok := strings.Cut(board, dungeonMark)
	if !ok {
		return nil
	}
	drawn, _, _ = strings.Cut(drawn, "\nHeroes:")
	drawn, _, _ = strings.Cut(drawn, "\nOn the map:")
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
// goals' cells through doors that are not walls on either side ("" when there is none).
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

// dungeonGoals reads the bot's hero sheet: where the hero stands and the map cards of
// its quests (an escort's destination once it carries the component) and of the
// global quest.
func dungeonGoals(board, me string) (x, y int, goals []string) {
	mine, carrying, global := false, "", false
	var quests [][]string
	for _, l := range strings.Split(board, "\n") {
		if m := dgSeatRe.FindStringSubmatch(l); m != nil {
			mine = m[1] == me
			continue
		}
		if l == "Global quest:" { // the card is on the next line
			mine, global = false, true
			continue
		}
		if global {
			if m := dgQuestRe.FindStringSubmatch("quest: " + strings.TrimSpace(l)); m != nil {
				quests = append(quests, m)
			}
			global = false
			continue
		}
		if !mine {
			continue
		}
		if m := dgAtRe.FindStringSubmatch(l); m != nil {
			x, _ = strconv.Atoi(m[1])
			y, _ = strconv.Atoi(m[2])
		}
		if m := dgQuestRe.FindStringSubmatch(l); m != nil {
			quests = append(quests, m)
		}
		if m := dgCarryRe.FindStringSubmatch(l); m != nil {
			carrying = m[1]
		}
	}
	for _, q := range quests {
		switch {
		case q[2] == "escort" && q[1] == carrying:
			goals = append(goals, q[4])
		case q[2] != "escort" || carrying == "":
			goals = append(goals, q[3])
		}
	}
	return x, y, goals
}
