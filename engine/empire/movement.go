package empire

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// step is a move to a neighbouring region and what it costs one army.
type step struct {
	to, cost int
}

// neighbours lists the steps from r for seat: land borders and crossings cost 1, a sea
// route 3 less 1 per Flying (at least 1), a magic portal 1.
func (s *state) neighbours(seat, r int) []step {
	sea := s.seaCost(seat)
	adj := s.cfg.board.Adj[r]
	out := make([]step, 0, len(adj)+1)
	for _, e := range adj {
		c := 1
		if e.Kind == edgeSea {
			c = sea
		}
		out = append(out, step{e.To, c})
	}
	if s.tokenAt(r, isPortal) >= 0 {
		for _, t := range s.Tokens {
			if isPortal(t.Kind) && t.Region != r {
				out = append(out, step{t.Region, 1})
			}
		}
	}
	return out
}

// routes are the cheapest paths from one region for one player: fewest movement points,
// then fewest bandit regions entered, then lowest region numbers.
type routes struct {
	src     int
	cost    []int // -1: unreachable
	bandits []int
	prev    []int
}

func (s *state) routesFrom(seat, src int) routes {
	n := len(s.Armies)
	rt := routes{src: src, cost: make([]int, n), bandits: make([]int, n), prev: make([]int, n)}
	done := make([]bool, n)
	for i := range rt.cost {
		rt.cost[i], rt.prev[i] = -1, -1
	}
	bandits := s.banditRegion()
	banditAt := func(r int) int {
		if r == bandits {
			return 1
		}
		return 0
	}
	rt.cost[src] = 0
	for {
		u := -1
		for v := range n {
			if done[v] || rt.cost[v] < 0 {
				continue
			}
			if u < 0 || rt.cost[v] < rt.cost[u] || (rt.cost[v] == rt.cost[u] && rt.bandits[v] < rt.bandits[u]) {
				u = v
			}
		}
		if u < 0 {
			return rt
		}
		done[u] = true
		for _, st := range s.neighbours(seat, u) {
			c, b := rt.cost[u]+st.cost, rt.bandits[u]+banditAt(st.to)
			if done[st.to] {
				continue
			}
			if rt.cost[st.to] < 0 || c < rt.cost[st.to] || (c == rt.cost[st.to] && b < rt.bandits[st.to]) {
				rt.cost[st.to], rt.bandits[st.to], rt.prev[st.to] = c, b, u
			}
		}
	}
}

// banditRegion is the region of the bandits token, or -1.
func (s *state) banditRegion() int {
	for _, t := range s.Tokens {
		if t.Kind == tokBandits {
			return t.Region
		}
	}
	return -1
}

// path returns the regions from the source to dst, both included.
func (rt routes) path(dst int) []int {
	var rev []int
	for r := dst; r >= 0; r = rt.prev[r] {
		rev = append(rev, r)
		if r == rt.src {
			break
		}
	}
	out := make([]int, len(rev))
	for i, r := range rev {
		out[len(rev)-1-i] = r
	}
	return out
}

// move: "move R>S [N]" along the cheapest path, or "move R>T>…>S [N]" along the path
// given; N armies (default 1), each paying the path's cost.
func (s *state) move(seat int, arg string) error {
	m, err := s.planMove(seat, arg)
	if err != nil {
		return err
	}
	if m.count*m.cost > s.Pending.Left {
		return engine.Illegal("moving %d armies from %d to %d costs %d movement points and you have %d", m.count, m.path[0]+1, m.path[len(m.path)-1]+1, m.count*m.cost, s.Pending.Left)
	}
	src, dst, count := m.path[0], m.path[len(m.path)-1], m.count
	s.Armies[src][seat] -= count
	s.Armies[dst][seat] += count
	s.Pending.Left -= count * m.cost
	bandits := s.banditRegion()
	for _, r := range m.path[1:] {
		if r == bandits {
			s.Coins[seat] = max(0, s.Coins[seat]-count)
		}
	}
	s.slayDragon(dst, seat)
	return nil
}

// plannedMove is a move read from its command: the path the armies take (the one
// given, or the cheapest), how many armies and what each pays.
type plannedMove struct {
	path        []int
	count, cost int
}

// planMove reads the arguments of a move of seat's armies (see move) and finds its
// path and cost, without the check of the movement points left.
func (s *state) planMove(seat int, arg string) (plannedMove, error) {
	for strings.Contains(arg, " >") || strings.Contains(arg, "> ") {
		arg = strings.ReplaceAll(strings.ReplaceAll(arg, " >", ">"), "> ", ">")
	}
	fields := strings.Fields(arg)
	if len(fields) == 0 || len(fields) > 2 || !strings.Contains(fields[0], ">") {
		return plannedMove{}, engine.Illegal("say from where to where: move FROM>TO [ARMIES], for example move %d>%d", s.Start+1, s.cfg.board.Adj[s.Start][0].To+1)
	}
	count := 1
	if len(fields) == 2 {
		var ok bool
		if count, ok = parseCount(fields[1]); !ok || count == 0 {
			return plannedMove{}, engine.Illegal("%q: move at least 1 army", fields[1])
		}
	}
	var path []int
	for _, t := range strings.Split(fields[0], ">") {
		r, err := s.parseRegion(t)
		if err != nil {
			return plannedMove{}, err
		}
		path = append(path, r)
	}
	src, dst := path[0], path[len(path)-1]
	if src == dst {
		return plannedMove{}, engine.Illegal("the armies would end where they start (region %d)", src+1)
	}
	if s.Armies[src][seat] < count {
		return plannedMove{}, engine.Illegal("you have %d armies in region %d", s.Armies[src][seat], src+1)
	}
	cost := 0
	if len(path) == 2 {
		rt := s.routesFrom(seat, src)
		if rt.cost[dst] < 0 {
			return plannedMove{}, engine.Illegal("region %d cannot be reached from region %d", dst+1, src+1)
		}
		cost, path = rt.cost[dst], rt.path(dst)
	} else {
		for i := 1; i < len(path); i++ {
			c := -1
			for _, st := range s.neighbours(seat, path[i-1]) {
				if st.to == path[i] && (c < 0 || st.cost < c) {
					c = st.cost
				}
			}
			if c < 0 {
				return plannedMove{}, engine.Illegal("regions %d and %d are not joined", path[i-1]+1, path[i]+1)
			}
			cost += c
		}
	}
	return plannedMove{path: path, count: count, cost: cost}, nil
}
