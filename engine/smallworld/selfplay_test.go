package smallworld

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

var soak = flag.Bool("soak", false, "run the long self-play soak (also TURNMAIL_SOAK=1)")

var registry = engine.Registry{"smallworld": Game{}, "necromancer": Necromancer{}}

var boardNames = []string{"smallworld-2p", "smallworld-3p", "smallworld-4p", "smallworld-5p"}

// TestSelfPlay plays seeded games with random legal commands to the end, checking
// the invariants after every command and replay determinism at the end; games
// alternate between the original rules and the current ones.
func TestSelfPlay(t *testing.T) {
	t.Parallel()
	games := 40
	switch {
	case *soak || os.Getenv("TURNMAIL_SOAK") == "1":
		games = 1500
	case testing.Short(): // make race: every number of players on every board once
		games = 16
	}
	for i := range games {
		players := 2 + i%4
		board := boardNames[(i/4)%4]
		seed := int64(1000 + i)
		rules := []int{rulesOriginal, currentRules}[i%2]
		t.Run(fmt.Sprintf("%dp-%s-%d-rules%d", players, board, seed, rules), func(t *testing.T) {
			a := selfPlay(t, seed, players, board, rules, true)
			s, err := engine.Replay(registry, a, -1)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if !s.Finished() {
				t.Fatalf("replayed game is not finished")
			}
			if got, want := s.Hash(), a.Events[len(a.Events)-1].Hash; got != want {
				t.Fatalf("replay hash %s, recorded %s", got, want)
			}
		})
	}
}

// selfPlay plays one game under a rules version and returns its archive (hashes and
// outcomes recorded).
func selfPlay(t testing.TB, seed int64, players int, board string, rules int, check bool) *engine.Archive {
	return selfPlayGame(t, Game{}, seed, players, mapOption(board), rules, check)
}

// mapOption is the options of a game on board.
func mapOption(board string) map[string]json.RawMessage {
	return map[string]json.RawMessage{"map": json.RawMessage(strconv.Quote(board))}
}

// selfPlayGame plays one game of g (Small World or a variant) with options, under a
// rules version.
func selfPlayGame(t testing.TB, g engine.Game, seed int64, players int, opts map[string]json.RawMessage, rules int, check bool) *engine.Archive {
	return selfPlayFixed(t, g, json.RawMessage(fmt.Sprintf(`{"seed": %d, "rules": %d}`, seed, rules)), seed, players, opts, check)
}

// selfPlayFixed is selfPlayGame with the setup fields given (a race stack).
func selfPlayFixed(t testing.TB, g engine.Game, fixed json.RawMessage, seed int64, players int, opts map[string]json.RawMessage, check bool) *engine.Archive {
	names := []string{"alice", "bob", "carol", "dave", "erin", "frank"}[:players]
	a := &engine.Archive{Format: engine.ArchiveFormat, Game: g.Name(), Options: opts, Setup: fixed}
	for _, n := range names {
		a.Players = append(a.Players, engine.Player{Name: n})
	}
	setup, err := a.SetupOf()
	if err != nil {
		t.Fatal(err)
	}
	st, outcomes, err := engine.Start(g, setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.SetupOutcomes = outcomes
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	for step := 0; !st.Finished(); step++ {
		if step > 20000 {
			t.Fatalf("game does not end after %d commands", step)
		}
		toAct := st.ToAct()
		if len(toAct) == 0 {
			t.Fatalf("nobody to act in an unfinished game")
		}
		who := toAct[r.IntN(len(toAct))]
		legal := st.Legal(who)
		if len(legal) == 0 {
			t.Fatalf("step %d: %s must act but has no legal command", step, who)
		}
		seq := len(a.Events) + 1
		notes := st.(engine.Noter).Notes(who)
		if check {
			checkNotes(t, fmt.Sprintf("step %d, %s", step, who), legal, notes)
			checkLegalApplies(t, st, who, legal, notes, seed, seq)
			checkIllegalRejected(t, st, who, legal, notes, r, seed, seq)
		}
		cmd := chooseCommand(st.(*state), who, legal, notes, r)
		// Now and then the deadline passes: the skip commands must apply in order.
		if skip := st.(engine.Skipper).SkipCommands(who); r.IntN(100) < 4 {
			if len(skip) == 0 {
				t.Fatalf("step %d: %s must act but SkipCommands is empty", step, who)
			}
			for _, c := range skip[:len(skip)-1] {
				next, out, err := engine.Step(st, seed, len(a.Events)+1, who, c, nil)
				if err != nil {
					t.Fatalf("step %d: skip %q: %v", step, c, err)
				}
				a.Events = append(a.Events, engine.Event{Player: who, Command: c, Outcomes: out, Hash: next.Hash()})
				st = next
			}
			cmd, seq = skip[len(skip)-1], len(a.Events)+1
		}
		next, out, err := engine.Step(st, seed, seq, who, cmd, nil)
		if err != nil {
			t.Fatalf("step %d: %s %q (legal %q): %v", step, who, cmd, legal, err)
		}
		if check {
			checkInvariants(t, st.(*state), next.(*state), who, cmd)
		}
		a.Events = append(a.Events, engine.Event{Player: who, Command: cmd, Outcomes: out, Hash: next.Hash()})
		st = next
	}
	return a
}

// checkLegalApplies applies every concrete command Legal lists, and every one a pair
// pattern stands for.
func checkLegalApplies(t testing.TB, st engine.State, who string, legal []string, notes map[string]engine.Text, seed int64, seq int) {
	t.Helper()
	for _, c := range legal {
		cmds := []string{c}
		if engine.IsPattern(c) {
			cmds = pairsOf(c, notes[c]) // nil for the other patterns
		}
		for _, c := range cmds {
			if _, _, err := engine.Step(st, seed, seq, who, c, nil); err != nil {
				t.Fatalf("Legal lists %q for %s but it fails: %v", c, who, err)
			}
		}
	}
}

// pairPattern matches a Legal pattern naming two different regions (`hero`,
// `reborn`); pairNote its note, which lists them.
var (
	pairPattern = regexp.MustCompile(`^([a-z]+) <region> <region>$`)
	pairNote    = regexp.MustCompile(`^two different regions of ([0-9,]+)$`)
)

// pairsOf returns every concrete command a pair pattern stands for, from its note,
// or nil when entry is not one.
func pairsOf(entry string, note engine.Text) []string {
	m := pairPattern.FindStringSubmatch(entry)
	n := pairNote.FindStringSubmatch(note.String())
	if m == nil || n == nil {
		return nil
	}
	ids := strings.Split(n[1], ",")
	var out []string
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			out = append(out, m[1]+" "+a+" "+b, m[1]+" "+b+" "+a)
		}
	}
	return out
}

// listed reports whether command c is in legal, directly or as one a pair pattern
// stands for.
func listed(legal []string, notes map[string]engine.Text, c string) bool {
	c = engine.Normalize(c)
	return slices.ContainsFunc(legal, func(l string) bool {
		return engine.Normalize(l) == c || slices.Contains(pairsOf(l, notes[l]), c)
	})
}

// checkIllegalRejected tries commands Legal does not list and expects ErrIllegal.
func checkIllegalRejected(t testing.TB, st engine.State, who string, legal []string, notes map[string]engine.Text, r *rand.Rand, seed int64, seq int) {
	t.Helper()
	s := st.(*state)
	ids := s.b.ids
	candidates := []string{"decline", "done", "berserk roll", "pick " + strconv.Itoa(1+r.IntN(7)), "hole " + ids[r.IntN(len(ids))], "jump 3", "conquer", "pick x",
		"buy ghost", "buy power " + strconv.Itoa(1+r.IntN(6)), "keep " + strconv.Itoa(1+r.IntN(7)), "buy", "keep"}
	for range 6 {
		id := ids[r.IntN(len(ids))]
		verb := []string{"conquer", "conquer %s roll", "abandon", "dragon", "enchant", "fortress", "conquer %s ghouls"}[r.IntN(7)]
		if strings.Contains(verb, "%s") {
			candidates = append(candidates, fmt.Sprintf(verb, id))
		} else {
			candidates = append(candidates, verb+" "+id)
		}
	}
	for _, n := range s.names {
		candidates = append(candidates, "ally "+n)
	}
	candidates = append(candidates, undergroundCandidates(s, who, r)...)
	for _, c := range candidates {
		if listed(legal, notes, c) {
			continue
		}
		_, _, err := engine.Step(st, seed, seq, who, c, nil)
		if err == nil {
			t.Fatalf("%s %q is not in Legal %q but applies", who, c, legal)
		}
		if !errors.Is(err, engine.ErrIllegal) {
			t.Fatalf("%s %q: error %v is not ErrIllegal", who, c, err)
		}
	}
	// Someone who is not to act is always refused.
	for _, name := range s.names {
		if !slices.Contains(st.ToAct(), name) {
			if _, _, err := engine.Step(st, seed, seq, name, "done", nil); !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("%s acted out of turn: %v", name, err)
			}
			if l := st.Legal(name); len(l) != 0 {
				t.Fatalf("%s is not to act but has Legal %q", name, l)
			}
		}
	}
}

// undergroundCandidates are commands of the Underground verbs: on random regions, and
// on the player's own regions (where the verbs that take one or two of them apply).
func undergroundCandidates(s *state, who string, r *rand.Rand) []string {
	ids := s.b.ids
	random := func() string { return ids[r.IntN(len(ids))] }
	var own []string
	for slot := range nSlots {
		own = append(own, idsOf(s, s.held(s.playerIndex(who), slot))...)
	}
	mine := random
	if len(own) > 0 {
		mine = func() string { return own[r.IntN(len(own))] }
	}
	out := []string{"swap " + strconv.Itoa(r.IntN(7)), "bag " + []string{"sword", "socks", "doormat", "orb", "ring"}[r.IntN(5)],
		"reborn " + mine() + " " + mine(), "reborn " + mine() + " " + mine() + " " + mine(), "armour " + mine(), "altar " + mine()}
	for _, v := range []string{"volcano", "ancient", "wisp", "vampire", "reborn", "queen", "sword", "socks", "doormat", "orb", "balrog", "ghost", "scepter", "ring"} {
		out = append(out, v+" "+random())
	}
	return out
}

// chooseCommand picks a random legal command, favouring conquests so that games
// develop, and makes patterns concrete.
func chooseCommand(s *state, who string, legal []string, notes map[string]engine.Text, r *rand.Rand) string {
	p := s.playerIndex(who)
	var conquests, choices, others []string
	for _, c := range legal {
		switch {
		case strings.HasPrefix(c, "swap"), strings.HasPrefix(c, "ancient"), strings.HasPrefix(c, "volcano"):
			// Underground races' choices, taken half the time so that short runs
			// play them.
			choices = append(choices, c)
		case strings.HasPrefix(c, "conquer"), strings.HasPrefix(c, "dragon"), strings.HasPrefix(c, "enchant"), c == "berserk roll", strings.HasPrefix(c, "wisp"):
			conquests = append(conquests, c)
		case strings.HasPrefix(c, "pick"):
			return legal[r.IntN(len(legal))] // only picks (and ghoul conquests) then
		default:
			others = append(others, c)
		}
	}
	if len(choices) > 0 && r.IntN(2) == 0 {
		return choices[r.IntN(len(choices))]
	}
	if len(conquests) > 0 && r.IntN(100) < 85 {
		return conquests[r.IntN(len(conquests))]
	}
	if slices.Contains(others, "decline") && !s.T.Acted && r.IntN(100) < 25 {
		return "decline"
	}
	c := others[r.IntN(len(others))]
	if c == "decline" && r.IntN(3) > 0 {
		c = "done"
	}
	switch {
	case strings.HasPrefix(c, "redeploy"):
		return randomRedeploy(s, p, r)
	case strings.HasPrefix(c, "camp"):
		return randomCamps(s, p, r)
	case strings.HasPrefix(c, "hero <"), strings.HasPrefix(c, "reborn <"):
		pairs := pairsOf(c, notes[c])
		return pairs[r.IntN(len(pairs))]
	case strings.HasPrefix(c, "abandon") && r.IntN(4) > 0:
		return "done"
	}
	return c
}

// randomRedeploy builds a valid concrete redeploy for player p.
func randomRedeploy(s *state, p int, r *rand.Rand) string {
	n := s.clone()
	if n.ownTurn(p) {
		n.closeConquests()
	}
	var parts []string
	for slot := range nSlots {
		move, place := n.redeployable(p, slot)
		regs := n.held(p, slot)
		if !place || len(regs) == 0 {
			continue
		}
		a := n.army(p, slot)
		target := 0
		if n.ownTurn(p) {
			target = n.handTarget(p, slot)
		}
		if move {
			total := a.Hand + n.boardTokens(p, slot) - target
			counts := make([]int, len(regs))
			placed := 0
			for i := range counts {
				if n.Scn == nil || !n.Scn.mayBeEmpty(regs[i]) {
					counts[i] = 1
					placed++
				}
			}
			for range total - placed {
				counts[r.IntN(len(regs))]++
			}
			for i, g := range regs {
				parts = append(parts, fmt.Sprintf("%s=%d", n.b.ids[g], counts[i]))
			}
		} else {
			add := make([]int, len(regs))
			for range a.Hand {
				add[r.IntN(len(regs))]++
			}
			for i, g := range regs {
				if add[i] > 0 {
					parts = append(parts, fmt.Sprintf("%s=%d", n.b.ids[g], int(n.Regions[g].Tokens)+add[i]))
				}
			}
		}
	}
	if len(parts) == 0 {
		regs := n.held(p, slotActive)
		if len(regs) == 0 { // Underground: the only region was a river, left when conquests end
			return "done"
		}
		return fmt.Sprintf("redeploy %s=%d", n.b.ids[regs[0]], n.Regions[regs[0]].Tokens)
	}
	r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	return "redeploy " + strings.Join(parts, " ")
}

func randomCamps(s *state, p int, r *rand.Rand) string {
	regs := s.kept(p) // not a river about to be left (Underground)
	if !s.ownTurn(p) {
		g := regs[r.IntN(len(regs))]
		return fmt.Sprintf("camp %s=%d", s.b.ids[g], s.pieces(g, camp)+camp.box-s.campsOnMap(p))
	}
	counts := make([]int, len(regs))
	for range r.IntN(camp.box + 1) {
		counts[r.IntN(len(regs))]++
	}
	var parts []string
	for i, g := range regs {
		parts = append(parts, fmt.Sprintf("%s=%d", s.b.ids[g], counts[i]))
	}
	return "camp " + strings.Join(parts, " ")
}

// checkInvariants compares the state before and after one command.
func checkInvariants(t testing.TB, before, after *state, who, cmd string) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("after %s %q: %s", who, cmd, fmt.Sprintf(format, args...))
	}
	nec, _ := after.Scn.(*necroState)
	if nec != nil {
		checkGhosts(before, after, nec, fail)
	}
	for _, c := range after.Offer {
		if c.Coins < 0 {
			fail("negative coins on the offer")
		}
	}
	for p := range after.Players {
		pl := &after.Players[p]
		if pl.Coins < 0 {
			fail("%s has %d coins", after.names[p], pl.Coins)
		}
		for slot := range nSlots {
			a := &pl.Armies[slot]
			if !a.exists() {
				continue
			}
			if a.Race == nameGhosts {
				continue
			}
			if a.Hand < 0 || a.Aside < 0 {
				fail("%s %s hand %d aside %d", after.names[p], a.Race, a.Hand, a.Aside)
			}
			if box := after.cat.races[a.Race].Box; after.inPlay(a.Race) > box {
				fail("%d %s in play, box holds %d", after.inPlay(a.Race), a.Race, box)
			}
			if slot != slotActive && after.count(p, slot) == 0 {
				fail("%s keeps declined %s without regions", after.names[p], a.Race)
			}
			// Tokens of a race only grow for its owner's own commands (Skeletons,
			// Sorcerers) and never for anyone else's.
			if b := before.army(p, slot); b.Race == a.Race && after.inPlay(a.Race) > before.inPlay(a.Race) {
				h := abilityOf(a.Race)
				own := after.names[p] == who && (h.reinforce != nil || len(h.verbs) > 0 || bringsTokens(before, p))
				if !own && !foundTokens(before, p, slot) && !foundTokens(after, p, slot) {
					fail("%s grew from %d to %d tokens", a.Race, before.inPlay(a.Race), after.inPlay(a.Race))
				}
			}
		}
	}
	// No more pieces of a kind on the map than the box holds.
	for _, k := range reg.pieces {
		if n := after.onMap(k, -1); k.box > 0 && n > k.box {
			fail("%d pieces %s on the map, the box holds %d", n, k.name, k.box)
		}
	}
	// Banners and badges are all somewhere, once: those of the catalogue, or in a
	// mixed game those of its stacks at setup, each fitting the board (mixing.go).
	races, powers := bannersAndBadges(after)
	wantRaces, wantPowers := bannersAndBadges(before)
	if after.cat.mixed == nil {
		wantRaces, wantPowers = sortedCopy(after.cat.raceNames), sortedCopy(after.cat.powerNames)
	}
	if !slices.Equal(races, wantRaces) || len(slices.Compact(slices.Clone(races))) != len(races) {
		fail("banners %v, want %v", races, wantRaces)
	}
	if !slices.Equal(powers, wantPowers) || len(slices.Compact(slices.Clone(powers))) != len(powers) {
		fail("badges %v, want %v", powers, wantPowers)
	}
	for _, n := range append(slices.Clone(races), powers...) {
		if !abilityOf(n).fits(after.b) && after.cat.mixed != nil {
			fail("%s makes no sense on map %s but is in play", n, after.b.name)
		}
	}
	for r, g := range after.Regions {
		switch {
		case g.Owner == ownerNone:
			// Only pieces that stay when their region is abandoned (places, relics).
			if g.Tokens != 0 || g.Slot != 0 || after.keptPieces(r, onAbandon) != g.Pieces {
				fail("empty region %d has %+v", after.b.id(r), g)
			}
		case g.Owner == ownerLostTribe:
			if g.Tokens != 1 {
				fail("lost tribe region %d has %d tokens", after.b.id(r), g.Tokens)
			}
		case g.Owner == ownerMonster:
			if g.Tokens != monstersPerRegion || before.Regions[r].Owner != ownerMonster {
				fail("monster region %d has %d tokens (before: owner %d)", after.b.id(r), g.Tokens, before.Regions[r].Owner)
			}
		default:
			if g.Tokens < 1 && (nec == nil || r != int(nec.Lake)) {
				fail("region %d held with %d tokens", after.b.id(r), g.Tokens)
			}
			if !after.army(int(g.Owner), int(g.Slot)).exists() {
				fail("region %d held by a missing army", after.b.id(r))
			}
			if !after.mayEnter(int(g.Owner), int(g.Slot), r) && g.Slot == slotActive && (nec == nil || r != int(nec.Lake)) {
				fail("region %d is water held without Seafaring", after.b.id(r))
			}
		}
	}
	// The face-down pool only shrinks, by a place or relic revealed on the map.
	if len(after.Pool) > len(before.Pool) || len(before.Pool)-len(after.Pool) != revealed(after)-revealed(before) {
		fail("pool %v → %v, revealed %d → %d", before.Pool, after.Pool, revealed(before), revealed(after))
	}
	if before.TurnNo > after.TurnNo || after.TurnNo > after.b.turns {
		fail("turn %d → %d of %d", before.TurnNo, after.TurnNo, after.b.turns)
	}
	// A player between turns holds no tokens unless pending or without regions.
	if !after.Over && len(after.Pending) == 0 && !after.T.Acted {
		for p := range after.Players {
			if p == after.Cur {
				continue
			}
			for slot := range nSlots {
				if a := after.army(p, slot); a.exists() && a.Hand > 0 && after.count(p, slot) > 0 {
					fail("%s holds %d %s tokens between turns", after.names[p], a.Hand, a.Race)
				}
			}
		}
	}
}

// revealed counts the places and relics face up on the map.
func revealed(s *state) int {
	n := 0
	for _, f := range foundPieces {
		n += s.onMap(f.kind, -1)
	}
	return n
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// bringsTokens reports whether an Underground power of player p brings tokens from
// the box by its verb (Vampire; Reborn, on the race in decline; Magic's Bag copying
// the Shiny Orb).
func bringsTokens(s *state, p int) bool {
	for slot := range nSlots {
		for ab := range s.acting(p, slot) {
			if ab == vampire || ab == reborn || ab == magic {
				return true
			}
		}
	}
	return false
}

// foundTokens reports whether a place or relic of Small World Underground acts for army
// (p, slot): they may bring tokens from the box (Fountain of Youth at the start of
// the turn, Shiny Orb).
func foundTokens(s *state, p, slot int) bool {
	for ab := range s.acting(p, slot) {
		if ab.kind == kindPlace || ab.kind == kindRelic {
			return true
		}
	}
	return false
}

// bannersAndBadges lists, sorted, every race banner and power badge of the game
// wherever it is: stacks, offer, discard, armies, Stonehedge, the Necromancer's.
func bannersAndBadges(s *state) (races, powers []string) {
	races = append(races, s.Races...)
	powers = append(append(powers, s.Powers...), s.Discard...)
	if nec, _ := s.Scn.(*necroState); nec != nil {
		powers = append(append(powers, nec.Spare...), nec.Bought...)
	}
	for r := range s.Regions { // Underground: the power drawn for Stonehedge
		if ab := stonehedgePower(s, r); ab != nil {
			powers = append(powers, ab.name)
		}
	}
	for _, c := range s.Offer {
		races, powers = append(races, c.Race), append(powers, c.Power)
	}
	for p := range s.Players {
		for slot := range nSlots {
			a := &s.Players[p].Armies[slot]
			if !a.exists() {
				continue
			}
			if a.Race != nameGhosts {
				races = append(races, a.Race)
			}
			if a.Power != "" {
				powers = append(powers, a.Power)
			}
		}
	}
	slices.Sort(races)
	slices.Sort(powers)
	return races, powers
}
