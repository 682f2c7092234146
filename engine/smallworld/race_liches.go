package smallworld

import "github.com/turnmail/turnmail/engine"

// Liches (Small World Underground, Lich): once in decline, an opponent who conquers
// one of their regions pays their owner one coin, and an opponent with no coins
// cannot conquer them (sources §4: in-decline Lich regions only, ★ §7.12). Active
// Liches have no ability. The player's own active race conquers them freely.
var liches = &ability{name: "Liches", kind: kindRace, pack: packUnderground, inDecline: true,
	guard: func(s *state, q, qslot, p, r int) engine.Text {
		if qslot == slotActive || p == q || s.Players[p].Coins > 0 {
			return engine.Text{}
		}
		return reason("region %s is held by %s's declined Liches: conquering it costs you a coin, and you have none", s.b.ids[r], s.names[q])
	},
	onLoss: func(s *state, q, qslot, _, by, loss int) int {
		if qslot != slotActive && by != q && s.Players[by].Coins > 0 {
			s.Players[by].Coins--
			s.Players[q].Coins++
		}
		return loss
	},
}

func init() { register(liches) }
