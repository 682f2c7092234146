package empire

import (
	"fmt"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// View is the state JSON of a game as one viewer may see it (archive format: game,
// turn, current, finished, winners, players, legal, plus this game's fields).
type View struct {
	// Game is the engine name, "empire".
	Game string `json:"game"`
	// Turn is the round of card taking (1 in the first round and during the setup).
	Turn int `json:"turn"`
	// Current is the player who must act now; null during the secret bid and at the end.
	Current *string `json:"current"`
	// ToAct lists everybody who must act now (all who have not bid, during the bid).
	ToAct []string `json:"to_act"`
	// Finished is true when the game (all three games of a long game) is over.
	Finished bool `json:"finished"`
	// Winners are the winners of a finished game.
	Winners []string `json:"winners"`
	// Legal are the commands the viewer (or, for observers, the current player) may give.
	Legal []string `json:"legal"`
	// Phase is settle, neutral, bid, first, play, bonus or over.
	Phase string `json:"phase"`
	// GameNumber is 1, or 1 to 3 in a long game; Games is how many are played.
	GameNumber int `json:"game_number"`
	Games      int `json:"games"`
	// Layout tells which faces lie where.
	Layout LayoutView `json:"layout"`
	// Start is the start region.
	Start int `json:"start"`
	// Regions are all regions, numbered from 1.
	Regions []RegionView `json:"regions"`
	// Islands are all islands with their regions and controller.
	Islands []IslandView `json:"islands"`
	// Row is the face-up row of cards with their costs.
	Row []RowCard `json:"row"`
	// Deck is the number of cards left in the deck.
	Deck int `json:"deck"`
	// Action is the action of the card just taken, while it is being carried out.
	Action *ActionView `json:"action"`
	// Tokens are the variant tokens, on the board or taken.
	Tokens []TokenView `json:"tokens,omitempty"`
	// Players in turn order.
	Players []PlayerView `json:"players"`
}

// LayoutView describes the assembled board.
type LayoutView struct {
	// Kind is "t" or "ring".
	Kind  string       `json:"kind"`
	Faces []placedFace `json:"faces"`
}

// RegionView is one region.
type RegionView struct {
	ID int `json:"id"`
	// Label is the face and the region's letter on it, for example "1a-c".
	Label  string `json:"label"`
	Island int    `json:"island"`
	// Armies and Cities by player name (neutral armies under "neutral"); zeros left out.
	Armies map[string]int `json:"armies"`
	Cities map[string]int `json:"cities"`
	// Controller has the most armies and cities; null when nobody or tied.
	Controller *string `json:"controller"`
	// Land lists neighbours by land or crossing (1 movement point); Sea those by sea route.
	Land []int `json:"land"`
	Sea  []int `json:"sea"`
}

// IslandView is one island.
type IslandView struct {
	ID         int     `json:"id"`
	Name       string  `json:"name"`
	Face       string  `json:"face"`
	Regions    []int   `json:"regions"`
	Controller *string `json:"controller"`
}

// RowCard is a card of the row.
type RowCard struct {
	// Position is 1 to 6; take it with "take POSITION".
	Position int    `json:"position"`
	ID       string `json:"id"`
	Name     string `json:"name"`
	Cost     int    `json:"cost"`
	Ability  string `json:"ability"`
	Action   string `json:"action"`
}

// ActionView is the action being carried out.
type ActionView struct {
	Player string `json:"player"`
	Card   string `json:"card"`
	// Choose is true while an "or" card waits for the choice of one action.
	Choose bool `json:"choose"`
	// Parts are the actions still to do, the first with what is left of it, in
	// English ("move 5 (3 left)"); Steps are the same as data (ActionText words them).
	Parts []string     `json:"parts"`
	Steps []ActionStep `json:"steps"`
}

// ActionStep is one action still to do: its kind ("place", "move", "city",
// "destroy"), how many armies, movement points, cities or destructions the card gives
// (with the abilities), and what is left of it while it is being carried out (null
// for a part not yet begun).
type ActionStep struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
	Left  *int   `json:"left"`
}

// TokenView is a token. Kind is "hidden" for a face-down token the viewer has not seen.
type TokenView struct {
	Kind string `json:"kind"`
	// Region is where it lies; null once a player has it.
	Region *int `json:"region"`
	// Holder is the player who has it, or null.
	Holder *string `json:"holder"`
}

// PlayerView is one player.
type PlayerView struct {
	Name  string   `json:"name"`
	Coins int      `json:"coins"`
	Cards []string `json:"cards"`
	// Elixirs counts card elixirs and the magic spring.
	Elixirs int `json:"elixirs"`
	// Score is the match score so far: past games of a long game plus this board now.
	Score int `json:"score"`
	// Sheet is this game's score sheet (final once the game is over).
	Sheet Sheet `json:"sheet"`
	// PastGames are the totals of the finished games of a long game.
	PastGames []int `json:"past_games,omitempty"`
	// Armies on the board, Supply still placeable, Cities built.
	Armies int `json:"armies"`
	Supply int `json:"supply"`
	Cities int `json:"cities"`
	// Leader is the leader card (leaders variant).
	Leader string `json:"leader,omitempty"`
	// Bid is the opening bid: shown to its bidder, and to everybody once all are in.
	Bid    *int `json:"bid"`
	HasBid bool `json:"has_bid"`
}

// View returns what viewer may see: "" is the complete state, engine.Observer the
// public one. Unrevealed bids and unseen face-down tokens are hidden.
func (s *state) View(viewer string) any {
	vseat := -1
	if viewer != "" && viewer != engine.Observer {
		if vseat = s.seat(viewer); vseat < 0 {
			viewer = engine.Observer
		}
	}
	all := viewer == ""
	v := View{
		Game: "empire", Turn: s.Turn(), ToAct: s.ToAct(), Finished: s.Finished(),
		Winners: s.Winners(), Phase: s.Phase, GameNumber: s.GameNo, Games: 1,
		Layout: LayoutView{Kind: s.cfg.board.Kind, Faces: s.cfg.board.Faces},
		Start:  s.Start + 1, Deck: len(s.Deck),
	}
	if v.ToAct == nil {
		v.ToAct = []string{}
	}
	if v.Winners == nil {
		v.Winners = []string{}
	}
	if s.cfg.opts.Long {
		v.Games = 3
	}
	if s.Phase != phBid && s.Phase != phOver {
		name := s.name(s.Current)
		v.Current = &name
	}
	switch {
	case vseat >= 0:
		v.Legal = s.Legal(viewer)
	case v.Current != nil:
		v.Legal = s.Legal(*v.Current)
	}
	if v.Legal == nil {
		v.Legal = []string{}
	}
	ctrl := s.controllers()
	nameOf := func(seat int) *string {
		if seat < 0 {
			return nil
		}
		n := s.name(seat)
		return &n
	}
	for r, info := range s.cfg.board.Regions {
		rv := RegionView{ID: r + 1, Label: info.Label, Island: info.Island + 1,
			Armies: map[string]int{}, Cities: map[string]int{}, Controller: nameOf(ctrl[r]),
			Land: []int{}, Sea: []int{}}
		for seat, a := range s.Armies[r] {
			if a > 0 {
				rv.Armies[s.name(seat)] = a
			}
		}
		for seat, c := range s.Cities[r] {
			if c > 0 {
				rv.Cities[s.name(seat)] = c
			}
		}
		for _, e := range s.cfg.board.Adj[r] {
			if e.Kind == edgeSea {
				rv.Sea = append(rv.Sea, e.To+1)
			} else {
				rv.Land = append(rv.Land, e.To+1)
			}
		}
		v.Regions = append(v.Regions, rv)
	}
	for i, is := range s.cfg.board.Islands {
		v.Islands = append(v.Islands, IslandView{ID: i + 1, Name: is.Name, Face: s.cfg.board.Faces[is.Face].ID,
			Regions: plus1(is.Regions), Controller: nameOf(s.islandController(i, ctrl))})
	}
	v.Row = []RowCard{}
	for i, c := range s.Row {
		cd := s.cfg.cards[c]
		ab, ac := cd.describe()
		v.Row = append(v.Row, RowCard{Position: i + 1, ID: cd.ID, Name: cd.Name, Cost: s.cfg.costs[i], Ability: ab, Action: ac})
	}
	if p := s.Pending; p != nil {
		av := &ActionView{Player: s.name(s.Current), Card: s.cfg.cards[p.Card].Name, Choose: p.Choose}
		for i, part := range p.Parts {
			st := ActionStep{Kind: part.Kind, Count: s.amount(s.Current, part)}
			if i == 0 && !p.Choose {
				left := p.Left
				st.Left = &left
				av.Parts = append(av.Parts, fmt.Sprintf("%s %d (%d left)", part.Kind, st.Count, left))
			} else {
				av.Parts = append(av.Parts, fmt.Sprintf("%s %d", part.Kind, st.Count))
			}
			av.Steps = append(av.Steps, st)
		}
		v.Action = av
	}
	for i, t := range s.Tokens {
		tv := TokenView{Kind: t.Kind, Holder: nameOf(t.Holder)}
		if t.Holder < 0 {
			r := t.Region + 1
			tv.Region = &r
			faceDown := s.cfg.opts.Swamp && isExploration(t.Kind)
			if faceDown && !all && (vseat < 0 || !s.Known[vseat][i]) {
				tv.Kind = "hidden"
			}
		}
		v.Tokens = append(v.Tokens, tv)
	}
	sheets := s.sheets()
	totals := s.totals(sheets)
	bidsOpen := s.Phase != phBid
	for seat := range s.n() {
		pv := PlayerView{Name: s.name(seat), Coins: s.Coins[seat], Cards: []string{},
			Elixirs: sheets[seat].Elixirs, Score: totals[seat], Sheet: sheets[seat],
			Armies: s.onBoard(seat), Supply: s.supply(seat), Cities: s.citiesBuilt(seat),
			HasBid: s.Bids[seat] >= 0}
		for _, c := range s.Cards[seat] {
			pv.Cards = append(pv.Cards, s.cfg.cards[c].Name)
		}
		for _, past := range s.Past {
			pv.PastGames = append(pv.PastGames, past[seat].Total)
		}
		if seat < len(s.Leaders) {
			pv.Leader = leaderNames[s.Leaders[seat]]
		}
		if pv.HasBid && (bidsOpen || all || seat == vseat) {
			b := s.Bids[seat]
			pv.Bid = &b
		}
		v.Players = append(v.Players, pv)
	}
	return v
}

// MaskCommand implements engine.Masker: while the bids are sealed, another player's
// bid shows as "bid (sealed)".
func (s *state) MaskCommand(player, command, viewer string) string {
	if s.Phase == phBid && viewer != "" && !strings.EqualFold(viewer, player) && strings.HasPrefix(command, "bid") {
		return "bid (sealed)"
	}
	return command
}
