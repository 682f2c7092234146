package smallworld

// Vanishing (Scomparsi, Small World Underground §4.19): when the race goes into
// decline all its tokens leave the map, but its regions score 2 coins each that turn
// instead of 1: the badge stays with the declined race for the scoring of the
// decline turn (one more coin per region), then the race leaves the map.
// (With Stout's decline after scoring, on mixed games, the race would stay until its
// owner's next scoring.)
var vanishing = &ability{name: "Vanishing", kind: kindPower, pack: packUnderground, inDecline: true, keepBadge: true,
	bonus: func(s *state, p, slot int) int {
		// Its own badge only: drawn for Stonehedge it forces nothing (§5).
		if slot == slotActive || s.army(p, slot).Power != "Vanishing" {
			return 0
		}
		n := s.count(p, slot)
		s.removeArmy(p, slot)
		return n
	}}

func init() { register(vanishing) }
