package empire

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/turnmail/turnmail/engine"
)

// Game is the Eight-Minute Empire: Legends engine; its zero value is ready to use.
type Game struct{}

var _ engine.Game = Game{}

// Name is the engine name used in archives.
func (Game) Name() string { return "empire" }

// embedded loads the embedded cards and boards once; both are validated (the boards
// against the rulebook's constraints for a complete set).
var embedded = sync.OnceValues(func() (*data, error) {
	cs, err := loadCards(cardsJSON)
	if err != nil {
		return nil, err
	}
	bs, err := loadBoards(boardsJSON)
	if err != nil {
		return nil, err
	}
	if err := bs.officialCheck(); err != nil {
		return nil, err
	}
	return &data{cards: cs, boards: bs}, nil
})

type data struct {
	cards  *cardSet
	boards *boardSet
}

// New builds the initial state: board layout, start region, leaders, then the first
// game's deck, armies, tokens and the player who places the armies off the centre.
func (Game) New(setup engine.Setup, rng *engine.Rand) (engine.State, error) {
	d, err := embedded()
	if err != nil {
		return nil, err
	}
	n := len(setup.Players)
	if lo, hi := (Game{}).PlayerRange(); n < lo || n > hi {
		return nil, fmt.Errorf("empire: %d players, want %d to %d", n, lo, hi)
	}
	cfg := &config{players: slices.Clone(setup.Players), costs: d.cards.Costs}
	for _, p := range setup.Players {
		nm := engine.Normalize(p.Name)
		if nm == "" || nm == neutralName || slices.Contains(cfg.names, nm) {
			return nil, fmt.Errorf("empire: player name %q is empty, taken or reserved", p.Name)
		}
		cfg.names = append(cfg.names, nm)
	}
	key := strconv.Itoa(n)
	cfg.cardsToEnd, cfg.startCoins = d.cards.CardsToEnd[key], d.cards.StartingCoins[key]
	if cfg.opts, err = parseOptions(setup.Options); err != nil {
		return nil, err
	}
	if cfg.fixed, err = parseFixed(setup.Fixed); err != nil {
		return nil, err
	}
	cfg.cards = cfg.opts.applyDisputed(d.cards.Cards)
	bs := d.boards
	inline := cfg.opts.Boards != nil
	if inline {
		bs = cfg.opts.Boards
		if err := bs.validate(); err != nil {
			return nil, err
		}
	}
	faces := cfg.opts.Faces
	if len(faces) == 0 {
		if faces, err = drawFaces(bs, inline, rng); err != nil {
			return nil, err
		}
	}
	if cfg.board, err = bs.build(cfg.opts.Layout, faces); err != nil {
		return nil, err
	}
	s := &state{cfg: cfg, GameNo: 1, Start: -1}
	cands := cfg.board.startCandidates()
	if len(cands) == 0 {
		return nil, fmt.Errorf("empire: no region of the centre board has a sea route to another board")
	}
	if f := cfg.fixed.Start; f != 0 {
		if !slices.Contains(cands, f-1) {
			return nil, fmt.Errorf("empire: start region %d is not on the centre board with a sea route to another board (%s)", f, joinRegions(cands))
		}
		s.Start = f - 1
	} else {
		v, err := rng.Pick("start", plus1(cands))
		if err != nil {
			return nil, err
		}
		s.Start = v - 1
	}
	if cfg.opts.Leaders {
		if s.Leaders, err = drawLeaders(d.cards, n, cfg.fixed.Leaders, rng); err != nil {
			return nil, err
		}
	}
	cfg.digest = engine.HashJSON(struct {
		Players []engine.Player
		Options options
		Board   *layout
		Cards   []card
	}{cfg.players, cfg.opts, cfg.board, cfg.cards})
	s.Config = cfg.digest
	if err := s.newGame(rng, true); err != nil {
		return nil, err
	}
	return s, nil
}

func plus1(xs []int) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = x + 1
	}
	return out
}

// drawFaces chooses the faces: an inline set of at most four faces is used as given;
// otherwise the boards are shuffled, a side of each is drawn, and the face with the
// start icon (if drawn) goes to the centre.
func drawFaces(bs *boardSet, inline bool, rng *engine.Rand) ([]string, error) {
	if inline && len(bs.Faces) <= 4 {
		var ids []string
		for _, f := range bs.Faces {
			ids = append(ids, f.ID)
		}
		return ids, nil
	}
	byBoard := map[string][]string{}
	for _, f := range bs.Faces {
		k := strconv.Itoa(f.Board)
		byBoard[k] = append(byBoard[k], f.ID)
	}
	boards, err := rng.Shuffle("boards", sortedKeys(byBoard))
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, b := range boards[:min(4, len(boards))] {
		sidesOf := byBoard[b]
		v, err := rng.Pick("side", plus1(indexes(len(sidesOf))))
		if err != nil {
			return nil, err
		}
		ids = append(ids, sidesOf[v-1])
	}
	for i, id := range ids {
		if f, _ := bs.find(id); f.StartIcon && i > 0 {
			ids[0], ids[i] = ids[i], ids[0]
		}
	}
	return ids, nil
}

func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func drawLeaders(cs *cardSet, n int, fixed []string, rng *engine.Rand) ([]string, error) {
	var all []string
	for _, l := range cs.Leaders {
		all = append(all, slug(l.Name))
	}
	order, err := rng.Shuffle("leaders", all)
	if err != nil {
		return nil, err
	}
	if order, err = engine.FixPrefix(order, fixed); err != nil {
		return nil, fmt.Errorf("empire: setup leaders: %w", err)
	}
	if len(order) < n {
		return nil, fmt.Errorf("empire: %d leaders for %d players", len(order), n)
	}
	return order[:n], nil
}

// newGame resets the board for a game (the first, or the next of a long game) and
// draws its deck, the player who places the armies off the centre, and the tokens.
// Fixed setup applies to the first game only.
func (s *state) newGame(rng *engine.Rand, first bool) error {
	cfg, n, nr := s.cfg, s.n(), len(s.cfg.board.Regions)
	fixed := fixedSetup{}
	if first {
		fixed = cfg.fixed
	}
	s.Armies = make([][]int, nr)
	s.Cities = make([][]int, nr)
	for r := range s.Armies {
		s.Armies[r] = make([]int, n+1)
		s.Cities[r] = make([]int, n)
	}
	s.Lost = make([]int, n)
	s.Coins = make([]int, n)
	s.Cards = make([][]int, n)
	s.Bids = make([]int, n)
	for i := range n {
		s.Coins[i] = cfg.startCoins
		s.Bids[i] = -1
		s.Armies[s.Start][i] = 4
		if s.leader(i, leaderRedSorceress) {
			s.Armies[s.Start][i] = 5
		}
	}
	s.Pending, s.Taken, s.BonusDone, s.BidWinner, s.First = nil, 0, false, -1, -1
	// Deck: drop the cards marked for more players, shuffle, fixed prefix on top.
	var ids []string
	for _, c := range cfg.cards {
		if c.MinPlayers <= n {
			ids = append(ids, c.ID)
		}
	}
	order, err := rng.Shuffle("deck", ids)
	if err != nil {
		return err
	}
	if order, err = engine.FixPrefix(order, fixed.Deck); err != nil {
		return fmt.Errorf("empire: setup deck: %w", err)
	}
	s.Deck = s.Deck[:0:0]
	for _, id := range order {
		s.Deck = append(s.Deck, slices.IndexFunc(cfg.cards, func(c card) bool { return c.ID == id }))
	}
	k := min(6, len(s.Deck))
	s.Row, s.Deck = slices.Clone(s.Deck[:k]), s.Deck[k:]
	// The player who places one army of everybody off the centre board.
	if fixed.Placer != "" {
		if s.Placer = s.seat(fixed.Placer); s.Placer < 0 {
			return fmt.Errorf("empire: setup placer %q is not a player", fixed.Placer)
		}
	} else {
		v, err := rng.Pick("placer", plus1(indexes(n)))
		if err != nil {
			return err
		}
		s.Placer = v - 1
	}
	s.Phase, s.Current, s.NeutralLeft = phSettle, s.Placer, 0
	if n == 2 {
		s.NeutralLeft = 10
	}
	if err := s.placeTokens(rng, fixed.Tokens); err != nil {
		return err
	}
	s.Known = make([][]bool, n)
	for i := range s.Known {
		s.Known[i] = make([]bool, len(s.Tokens))
	}
	return nil
}

// placeTokens puts the variant tokens on the board, each in its own region other than
// the start region (the start marker is a token too): fixed positions first, the rest
// in seeded random regions.
func (s *state) placeTokens(rng *engine.Rand, fixed map[string]int) error {
	kinds := s.cfg.opts.tokenKinds()
	s.Tokens = nil
	if len(kinds) == 0 {
		if len(fixed) > 0 {
			return fmt.Errorf("empire: setup tokens given but no token variant is on")
		}
		return nil
	}
	used := map[int]bool{s.Start: true}
	for _, k := range sortedKeys(fixed) {
		r := fixed[k] - 1
		if !slices.Contains(kinds, k) {
			return fmt.Errorf("empire: setup token %q is not in play (%v)", k, kinds)
		}
		if r < 0 || r >= len(s.Armies) || used[r] {
			return fmt.Errorf("empire: setup token %q: region %d is not a free region", k, r+1)
		}
		used[r] = true
	}
	var free []string
	for r := range s.Armies {
		if !used[r] {
			free = append(free, strconv.Itoa(r+1))
		}
	}
	need := 0
	for _, k := range kinds {
		if _, ok := fixed[k]; !ok {
			need++
		}
	}
	if need > len(free) {
		return fmt.Errorf("empire: %d tokens but only %d free regions", need, len(free))
	}
	if need > 0 {
		var err error
		if free, err = rng.Shuffle("tokens", free); err != nil {
			return err
		}
	}
	for _, k := range kinds {
		r, ok := fixed[k]
		if !ok {
			r, _ = strconv.Atoi(free[0])
			free = free[1:]
		}
		s.Tokens = append(s.Tokens, token{Kind: k, Region: r - 1, Holder: -1})
	}
	return nil
}

// Words implements engine.Worder: the verbs of every phase.
func (Game) Words() []string {
	return []string{"settle", "neutral", "bid", "first", "take", "pass", "skip", acPlace, acMove, acCity, acDestroy}
}
