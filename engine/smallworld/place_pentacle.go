package smallworld

import "github.com/turnmail/turnmail/engine"

// Wickedest Pentacle (Pentacolo infame, Small World Underground §5) and the Balrog:
// the active race holding the Pentacle's region may, once per turn during its turn
// (the turn it finds it too: ★ §7.14 summoned on discovery, by the verb), send the
// Balrog with `balrog R` into a region bordering the Pentacle's or the Balrog's
// (★ §7.14), not a chasm nor a protected region (state.protected: immune, or Gnomes;
// "Anche il Balrog non può conquistare una Regione occupata dagli Gnomi"), nor a
// region whose occupant's guard keeps the holder out (declined Liches against a
// player with no coins: the Balrog's conquest is the holder's, who pays the Liches). The Balrog conquers it: its
// occupant loses 2 tokens instead of 1 (those it has; onLoss abilities apply),
// monsters are removed, and the region is left to the Balrog: it belongs to nobody,
// scores for nobody, and is immune (nobody enters it while the Balrog stands there).
// Rivers too. Entering a monster region draws nothing (★ §7.14). The region it left
// becomes empty (it was already).
var (
	pentacle = &ability{name: "Wickedest Pentacle", kind: kindPlace, pack: packUnderground}
	balrog   = &pieceKind{name: "balrog", order: 83, flag: true, immune: reason("the Balrog"), title: reason("the Balrog"), box: 1,
		stays: onConquest | onAbandon | onDecline | onRemoval}
	balrogVerb = &verb{name: "balrog", rank: rankConquer + 21, owner: pentacle, apply: applyBalrog, legal: legalBalrog}
)

func init() {
	registerPieces(balrog)
	registerVerbs(balrogVerb)
}

// balrogTargets lists the regions player p may send the Balrog to.
func (s *state) balrogTargets(p int) []int {
	from := s.foundRegions(p, slotActive, "wickedest_pentacle")
	for r := range s.Regions {
		if s.pieces(r, balrog) > 0 {
			from = append(from, r)
		}
	}
	var out []int
	for r := range s.Regions {
		if s.b.blocked[r] || s.immune(r).Key != "" || s.protected(p, r).Key != "" || s.guarded(p, r).Key != "" {
			continue
		}
		for _, x := range from {
			if s.b.adjSet[x][r] {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

func (s *state) balrogReady(p int) bool {
	return s.ownTurn(p) && s.army(p, slotActive).exists() && s.T.get(relicsUsed)&usedBalrog == 0 && s.has(p, pentacle.name)
}

func legalBalrog(s *state, p int, out []string) []string {
	if !s.balrogReady(p) {
		return out
	}
	for _, r := range s.balrogTargets(p) {
		out = append(out, "balrog "+s.b.ids[r])
	}
	return out
}

func applyBalrog(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if s.T.get(relicsUsed)&usedBalrog != 0 {
		return engine.Illegal("the Balrog moves once per turn")
	}
	if err := wantArgs(args, 1, syntax("balrog R")); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	ok := false
	for _, x := range s.balrogTargets(p) {
		ok = ok || x == r
	}
	if !ok {
		return engine.Illegal("the Balrog goes to a region bordering the Pentacle or the Balrog, not a chasm, an immune or shielded one, nor one whose occupant keeps you out: %s", s.idList(s.balrogTargets(p)))
	}
	s.mark(r)
	if b := s.defeat(p, r, 2); b.owner >= 0 {
		s.tell(-1, engine.HapLoss, int(b.owner), "%s's Balrog struck region %d: %s", s.names[p], s.b.id(r), lostTokens(engine.Textf("%s (%s)", s.names[b.owner], engine.Term(b.race)), b.lost, b.back))
	}
	s.Regions[r] = region{Owner: ownerNone, Pieces: s.keptPieces(r, onConquest)}
	s.moveFlag(balrog, r)
	s.T.set(relicsUsed, s.T.get(relicsUsed)|usedBalrog)
	s.T.Acted, s.T.ActiveActed = true, true
	return nil
}
