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
	dgCellRe  = regexp.MustCompile(`(m\d\d) (-?\d+),(-?\d+)`)
	dgSeatRe  = regexp.MustCompile(`^  \d+\. (\S+) — `)
	dgAtRe    = regexp.MustCompile(`^     at (-?\d+),(-?\d+);`)
	dgQuestRe = regexp.MustCompile(`quest: (q\d\d) .*?\((\w+), at (m\d\d)(?: → (m\d\d))?`)
	dgCarryRe = regexp.MustCompile(`carrying the component of (q\d\d)`)
)

// dungeon is the purposeful play of a Dungeoneer player who reads only the mail, so
// that a whole game ends within the test's time (random commands take hundreds of
// mails): no Encounters as Dungeon Lord, no responses, and as a hero a quest when one
// can be done, else a step towards the nearest quest's map card (read from the
// drawn map and the hero sheets), exploring when it is not on the map yet. It
// returns "" when the mail is not a Dungeoneer one or the phase is left to chance
// (building, discarding).
func (b *bot) dungeon(entries []string, board string) string {
	if !strings.Contains(board, dungeonMark) {
		return ""
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
	switch {
	case has("pass"):
		return "pass"
	case phase == "lord" && has("done"):
		return line("done")
	case phase != "hero":
		return ""
	case has("stand"):
		return "stand"
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
