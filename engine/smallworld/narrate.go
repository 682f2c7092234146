package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// tale is one happening of the command that gave a state, with who may read it.
type tale struct {
	engine.Happening
	// only is the player who alone may read it (their coins are secret until the
	// game ends), or -1 for everyone; except is the player who does not read it (they
	// read another tale that says more), or -1.
	only, except int
}

// tally is what a player's coins came from, by source, for the final breakdown. It
// is derived from the events like the rest of the state and left out of the hash.
type tally struct {
	Regions, Race, Power, Places, Combos int
}

var (
	_ engine.Narrator = (*state)(nil)
	_ engine.Scorer   = (*state)(nil)
)

// tell records a happening of the command being applied; only is the player who
// alone may read it, or -1.
func (s *state) tell(only int, kind string, hit int, key string, args ...any) {
	s.tellBut(-1, only, kind, hit, key, args...)
}

// tellBut is tell for every reader but player except (-1: none).
func (s *state) tellBut(except, only int, kind string, hit int, key string, args ...any) {
	if s.quiet {
		return
	}
	h := engine.Happening{Kind: kind, Actor: s.names[s.actor], Text: engine.Textf(key, args...)}
	if hit >= 0 && hit < len(s.names) {
		h.Hit = []string{s.names[hit]}
	}
	s.story = append(s.story, tale{Happening: h, only: only, except: except})
}

// mark records that the command's account tells what happened in regions rs: what
// changed in the others is told by tellChanges.
func (s *state) mark(rs ...int) {
	if s.quiet {
		return
	}
	for _, r := range rs {
		if !slices.Contains(s.told, int16(r)) {
			s.told = append(s.told, int16(r))
		}
	}
}

// Narrate implements engine.Narrator: the happenings the command recorded while it
// was applied (see tell), which a replay records again. A player's score is theirs
// alone until the game ends.
func (s *state) Narrate(player, command string, after engine.State, viewer string) []engine.Happening {
	a, ok := after.(*state)
	if !ok {
		return nil
	}
	me := -1
	if viewer != "" {
		me = a.playerIndex(viewer)
	}
	var out []engine.Happening
	for _, t := range a.story {
		if t.only >= 0 && viewer != "" && !a.Over && t.only != me {
			continue
		}
		if t.except >= 0 && t.except == me {
			continue
		}
		out = append(out, t.Happening)
	}
	return out
}

// Scores implements engine.Scorer: each player's coins with where they came from.
func (s *state) Scores() []engine.Score {
	out := make([]engine.Score, 0, len(s.Players))
	for p, pl := range s.Players {
		t := pl.tally
		sc := engine.Score{Player: s.names[p], Total: pl.Coins}
		rest := pl.Coins - t.Regions - t.Race - t.Power - t.Places - t.Combos
		for _, part := range []struct {
			key string
			n   int
		}{
			{"regions: %d", t.Regions},
			{"race abilities: %d", t.Race},
			{"power abilities: %d", t.Power},
			{"places and relics: %d", t.Places},
			{"combos (coins taken less coins paid): %d", t.Combos},
			{"starting coins and others: %d", rest},
		} {
			if part.n != 0 {
				sc.Parts = append(sc.Parts, engine.Textf(part.key, part.n))
			}
		}
		out = append(out, sc)
	}
	return out
}

// armyName names army (p, slot) for a Text: its race, and its power when active.
func (s *state) armyName(p, slot int) engine.Text {
	a := s.army(p, slot)
	if a.Power == "" || slot != slotActive {
		return reason("%s", engine.Term(a.Race))
	}
	return comboName(a.Power, a.Race)
}

// comboName names a race and power combo for a Text ("Flying Ratmen"): the two terms
// in the catalogue's order for the reader's language.
func comboName(power, race string) engine.Text {
	return reason("%[1]s %[2]s", engine.Term(power), engine.Term(race))
}

// beaten is what a conquest did to the region's holder.
type beaten struct {
	owner      int8   // the holder before: a player, ownerNone, ownerLostTribe, ownerMonster
	race       string // the player's race there
	declined   bool
	tokens     int // tokens there before
	lost, back int // the player's tokens lost and taken back into hand
}

// tellConquest records the conquest of region r by army (p, slot) with n tokens, and
// what helped it (s.via: the dragon, a relic).
func (s *state) tellConquest(p, slot, r, n int, b beaten) {
	if s.quiet {
		return
	}
	id := s.b.id(r)
	who, army := s.names[p], s.armyName(p, slot)
	if s.via.Key != "" {
		army = engine.Textf("%s, with %s", army, s.via)
	}
	s.mark(r)
	switch {
	case b.owner >= 0:
		race := engine.Term(b.race)
		if b.declined {
			s.tell(-1, engine.HapConquest, int(b.owner), "%s (%s) conquered region %d from %s (declined %s) with %s: %s", who, army, id, s.names[b.owner], race, nTokens(n), lostTokens(s.names[b.owner], b.lost, b.back))
			return
		}
		s.tell(-1, engine.HapConquest, int(b.owner), "%s (%s) conquered region %d from %s (%s) with %s: %s", who, army, id, s.names[b.owner], race, nTokens(n), lostTokens(s.names[b.owner], b.lost, b.back))
	case b.owner == ownerLostTribe:
		s.tell(-1, engine.HapConquest, -1, "%s (%s) conquered region %d from the lost tribe (%s) with %s", who, army, id, nTokens(b.tokens), nTokens(n))
	case b.owner == ownerMonster:
		s.tell(-1, engine.HapConquest, -1, "%s (%s) conquered region %d from the monster with %s", who, army, id, nTokens(n))
	default:
		s.tell(-1, engine.HapConquest, -1, "%s (%s) conquered region %d (empty) with %s", who, army, id, nTokens(n))
	}
}

// lostTokens is what a player whose region was conquered lost there and took back
// into their hand ("alice lost 1 token, 2 back in hand"; nothing said of a hand when
// none went back), as a text argument with its plural forms.
func lostTokens(name any, lost, back int) engine.Text {
	if back == 0 {
		return engine.Textf("%s lost %s", name, nTokens(lost))
	}
	return engine.Textf("%s lost %s, %s", name, nTokens(lost), engine.Textf("%d back in hand", back))
}

// tellScore records player p's score at the end of their turn: the total and, for
// p alone, its breakdown.
func (s *state) tellScore(p, regions int, bonus []engine.Text, total int) {
	if s.quiet {
		return
	}
	s.tell(p, engine.HapScore, -1, "%s scored %s (%d in all)", s.names[p], nCoins(total), s.Players[p].Coins)
	t := &s.story[len(s.story)-1]
	t.Details = append([]engine.Text{engine.Textf("regions: %d", regions)}, bonus...)
}

// tellRedeploy records player p's redeployment: what each region of theirs got or
// gave, against the regions as they were before it.
func (s *state) tellRedeploy(p int, before []region) {
	if s.quiet {
		return
	}
	moves, rs := s.placements(p, before)
	if len(rs) == 0 {
		s.tell(-1, engine.HapMove, -1, "%s redeployed and left every region as it was", s.names[p])
		return
	}
	s.mark(rs...)
	s.tell(-1, engine.HapMove, -1, "%s redeployed: %s", s.names[p], moves)
}

// placements lists the regions of player p whose tokens changed since before (the
// regions as they were), in region order, as "+2 in region 12 (3 now)", with the
// regions it names.
func (s *state) placements(p int, before []region) (engine.Text, []int) {
	var parts []engine.Text
	var rs []int
	for r := range s.Regions {
		g, was := s.Regions[r], before[r]
		if int(g.Owner) != p || g.Tokens == was.Tokens && g.Owner == was.Owner {
			continue
		}
		d := int(g.Tokens)
		if int(was.Owner) == p {
			d -= int(was.Tokens)
		}
		if d == 0 {
			continue
		}
		parts = append(parts, engine.Textf("%+d in region %d (%d now)", d, s.b.id(r), g.Tokens))
		rs = append(rs, r)
	}
	return joinTexts("%s, %s", parts), rs
}

// tellPlaced records the tokens of player p's army that autoPlace placed (or took
// back into hand, Amazons) without asking, against the regions before.
func (s *state) tellPlaced(p int, before []region, back bool) {
	if s.quiet {
		return
	}
	moves, rs := s.placements(p, before)
	if len(rs) == 0 {
		return
	}
	s.mark(rs...)
	if back {
		s.tell(-1, engine.HapMove, -1, "%s took tokens back into hand from the regions: %s", s.names[p], moves)
		return
	}
	s.tell(-1, engine.HapMove, -1, "%s's tokens in hand were placed automatically: %s", s.names[p], moves)
}

// handNow is the tokens player p holds in hand to play: their active race's and
// those of a declined race that plays in decline (Ghouls).
func (s *state) handNow(p int) int {
	n := s.army(p, slotActive).Hand
	if g := s.ghoulSlot(p); g >= 0 {
		n += s.army(p, g).Hand
	}
	return n
}

// tellTurnStart records the start of player p's turn: the tokens taken back into
// hand from their regions (one stays in each), and the hand it makes.
func (s *state) tellTurnStart(p int) {
	if s.quiet {
		return
	}
	readied := 0
	for _, e := range s.T.Readied {
		readied += int(e.N)
		s.mark(int(e.R))
	}
	switch {
	case readied > 0 && readied == s.handNow(p):
		s.tell(-1, engine.HapOther, -1, "%s begins turn %d: %s back in hand from the regions (one stays in each)", s.names[p], s.TurnNo, nTokens(readied))
	case readied > 0:
		s.tell(-1, engine.HapOther, -1, "%s begins turn %d: %s back in hand from the regions (one stays in each), %s in hand", s.names[p], s.TurnNo, nTokens(readied), nTokens(s.handNow(p)))
	case s.handNow(p) > 0:
		s.tell(-1, engine.HapOther, -1, "%s begins turn %d with %s in hand", s.names[p], s.TurnNo, nTokens(s.handNow(p)))
	default:
		s.tell(-1, engine.HapOther, -1, "%s begins turn %d", s.names[p], s.TurnNo)
	}
}

// tellDefenders records, for the other readers, the players who must place tokens
// (or pieces) lost in the attacks of the turn that ended before the next one begins:
// a defender's own mail asks them that first (Asked), and says it once.
func (s *state) tellDefenders() {
	for _, q := range s.Pending {
		n := 0
		for slot := range nSlots {
			if a := s.army(int(q), slot); a.exists() && s.count(int(q), slot) > 0 {
				n += a.Hand
			}
		}
		if n > 0 {
			s.tellBut(int(q), -1, engine.HapOther, int(q), "%s has %s lost in attacks to redeploy on their regions before the next turn begins", s.names[q], nTokens(n))
		} else {
			s.tellBut(int(q), -1, engine.HapOther, int(q), "%s has pieces lost in attacks to place on their regions before the next turn begins", s.names[q])
		}
	}
}

// tellChanges records what the command changed on the map that no other happening
// told: pieces put, moved or taken off (compared with before, the state the
// command was applied to), and regions whose holder or tokens changed otherwise.
func (s *state) tellChanges(before *state) {
	if s.quiet {
		return
	}
	for _, k := range reg.pieces {
		if k.idx < 0 || k.hidden || (k.title.Key == "" && k.many == "") || slices.Contains(s.toldKinds, k) {
			continue
		}
		s.tellPieces(before, k)
	}
	for r := range s.Regions {
		g, was := s.Regions[r], before.Regions[r]
		if slices.Contains(s.told, int16(r)) || g.Owner == was.Owner && g.Slot == was.Slot && g.Tokens == was.Tokens {
			continue
		}
		hit := -1
		if was.Owner >= 0 && int(was.Owner) != s.actor {
			hit = int(was.Owner)
		}
		if g.Owner == ownerNone {
			s.tell(-1, engine.HapMove, hit, "region %d is now empty", s.b.id(r))
			continue
		}
		s.tell(-1, engine.HapMove, hit, "region %d now holds %s", s.b.id(r), s.holder(r))
	}
}

// holder describes what holds region r, which is not empty ("alice's Ratmen, 3
// tokens").
func (s *state) holder(r int) engine.Text {
	g := s.Regions[r]
	switch g.Owner {
	case ownerLostTribe:
		return engine.Textf("the lost tribe, %s", nTokens(int(g.Tokens)))
	case ownerMonster:
		return engine.Textf("the monster, %s", nTokens(int(g.Tokens)))
	}
	return engine.Textf("%s's %s, %s", s.names[g.Owner], s.raceName(int(g.Owner), int(g.Slot)), nTokens(int(g.Tokens)))
}

// tellPieces records the pieces of kind k put on the map, moved or taken off by the
// command: a flag piece that left one region for another moved.
func (s *state) tellPieces(before *state, k *pieceKind) {
	var gone, came []int
	for r := range s.Regions {
		switch was, now := before.pieces(r, k), s.pieces(r, k); {
		case now > was:
			came = append(came, r)
		case now < was:
			gone = append(gone, r)
		}
	}
	who := s.names[s.actor]
	if k.flag && len(gone) == 1 && len(came) == 1 {
		s.tell(-1, engine.HapBuild, -1, "%s moved %s from region %d to region %d", who, k.title, s.b.id(gone[0]), s.b.id(came[0]))
		return
	}
	if k.flag && k.many != "" && len(gone) > 1 && len(gone) == len(came) {
		s.tell(-1, engine.HapBuild, -1, "%s moved %s from %s to %s", who, engine.Textf(k.many, len(gone)), s.regionsText(gone), s.regionsText(came))
		return
	}
	for _, r := range gone {
		if k.flag {
			s.tell(-1, engine.HapBuild, -1, "%s left region %d", k.title, s.b.id(r))
			continue
		}
		s.tell(-1, engine.HapBuild, -1, "region %d lost %s (%d there now)", s.b.id(r), engine.Textf(k.many, before.pieces(r, k)-s.pieces(r, k)), s.pieces(r, k))
	}
	for _, r := range came {
		if k.flag {
			s.tell(-1, engine.HapBuild, -1, "%s put %s in region %d", who, k.title, s.b.id(r))
			continue
		}
		s.tell(-1, engine.HapBuild, -1, "%s put %s in region %d (%d there now)", who, engine.Textf(k.many, s.pieces(r, k)-before.pieces(r, k)), s.b.id(r), s.pieces(r, k))
	}
}

// regionsText names regions for an account: "region 3", "regions 3, 5".
func (s *state) regionsText(rs []int) engine.Text {
	if len(rs) == 1 {
		return engine.Textf("region %d", s.b.id(rs[0]))
	}
	return engine.Textf("regions %s", s.idList(rs))
}

// nGhosts is a count of the Necromancer's Ghosts as a text argument, with its plural
// forms.
func nGhosts(n int) engine.Text { return engine.Textf("%d Ghosts", n) }
