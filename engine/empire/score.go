package empire

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Sheet is one player's score sheet: what the game would score if it ended now, and
// the final score once it has.
type Sheet struct {
	// Regions is 1 VP per region controlled (most armies, cities counting as armies).
	Regions int `json:"regions"`
	// Islands is 1 VP per island controlled (most regions controlled).
	Islands int `json:"islands"`
	// Abilities is the VP from card abilities.
	Abilities int `json:"abilities"`
	// Elixirs is the number of elixirs (cards and the magic spring).
	Elixirs int `json:"elixirs"`
	// ElixirVP is 2 for the most elixirs, 1 each for players tied for the most.
	ElixirVP int `json:"elixir_vp"`
	// Tokens is the VP from tokens: fortresses, dragon, spellbook, mephitic swamp.
	Tokens int `json:"tokens"`
	// Leader is the VP from the leader card.
	Leader int `json:"leader"`
	// Total is the sum.
	Total int `json:"total"`
	// Items explains every VP source other than regions and islands.
	Items []ScoreItem `json:"items,omitempty"`
	// Coins, Armies and Spellbook are the tie-breaks (the spellbook wins a tie outright).
	Coins     int  `json:"coins"`
	Armies    int  `json:"armies"`
	Spellbook bool `json:"spellbook,omitempty"`
}

// ScoreItem is one line of a score sheet: its source in English ("Ancient Sage: 3
// Ancient cards") and the VP it gives.
type ScoreItem struct {
	Source string `json:"source"`
	VP     int    `json:"vp"`
	// text is Source as a text, for a reader of any language.
	text engine.Text
}

// add adds vp to part with a line saying where they come from (none when vp is 0).
func (sh *Sheet) add(part *int, vp int, source engine.Text) {
	if vp == 0 {
		return
	}
	*part += vp
	sh.Items = append(sh.Items, ScoreItem{Source: source.String(), VP: vp, text: source})
}

// sheets scores the current board for every player.
func (s *state) sheets() []Sheet {
	n := s.n()
	ctrl := s.controllers()
	out := make([]Sheet, n)
	islandCtrl := make([]int, len(s.cfg.board.Islands))
	for i := range islandCtrl {
		islandCtrl[i] = s.islandController(i, ctrl)
	}
	for seat := range n {
		sh := &out[seat]
		for _, c := range ctrl {
			if c == seat {
				sh.Regions++
			}
		}
		for _, c := range islandCtrl {
			if c == seat {
				sh.Islands++
			}
		}
		for _, ci := range s.Cards[seat] {
			c := s.cfg.cards[ci]
			a := c.Ability
			sh.Elixirs += a.Elixir
			switch a.Kind {
			case abPerWord:
				n := s.wordCount(seat, a.Word)
				sh.add(&sh.Abilities, n, text("%s: %d %s", engine.Term(c.Name), n, wordCards(a.Word)))
			case abPerFlying:
				n := s.abilityCount(seat, abFlying)
				sh.add(&sh.Abilities, n, text("%s: %d flying cards", engine.Term(c.Name), n))
			case abSet:
				if s.wordCount(seat, a.Word) >= a.Count {
					sh.add(&sh.Abilities, a.VP, text("%s: %d %s", engine.Term(c.Name), a.Count, wordCards(a.Word)))
				}
			case abPer3Coins:
				sh.add(&sh.Abilities, s.Coins[seat]/3, text("%s: %d coins", engine.Term(c.Name), s.Coins[seat]))
			}
		}
		for _, t := range s.Tokens {
			switch {
			case t.Holder == seat && t.Kind == tokMagicSpring:
				sh.Elixirs += 2
			case t.Holder == seat && t.Kind == tokSpellbook:
				sh.add(&sh.Tokens, 1, text("spellbook"))
				sh.Spellbook = true
			case t.Holder == seat && t.Kind == tokSwamp:
				sh.add(&sh.Tokens, -1, text("mephitic swamp"))
			case t.Holder == seat && t.Kind == tokDragon:
				sh.add(&sh.Tokens, 2, text("raging dragon slain"))
			case isFortress(t.Kind) && ctrl[t.Region] == seat:
				sh.add(&sh.Tokens, 1, text("fortress in region %d", t.Region+1))
			}
		}
		switch {
		case s.leader(seat, leaderFairyQueen):
			if f := s.wordCount(seat, "Forest"); f >= 3 {
				sh.add(&sh.Leader, 1, text("%s: %d %s", engine.Term(leaderNames[leaderFairyQueen]), f, wordCards("Forest")))
			}
		case s.leader(seat, leaderRedSorceress):
			lost := 0
			for _, l := range s.Lost {
				lost += l
			}
			sh.add(&sh.Leader, lost/3, text("%s: %d armies destroyed", engine.Term(leaderNames[leaderRedSorceress]), lost))
		case s.leader(seat, leaderWhiteKnight):
			big := 0
			for i, c := range islandCtrl {
				if c == seat && len(s.cfg.board.Islands[i].Regions) >= 3 {
					big++
				}
			}
			sh.add(&sh.Leader, big, text("%s: %d islands of 3+ regions", engine.Term(leaderNames[leaderWhiteKnight]), big))
		}
		sh.Coins, sh.Armies = s.Coins[seat], s.onBoard(seat)
	}
	// Elixir majority: 2 VP, or 1 VP to each player tied for the most (at least one).
	most := 0
	for _, sh := range out {
		most = max(most, sh.Elixirs)
	}
	var leaders []int
	for i, sh := range out {
		if most > 0 && sh.Elixirs == most {
			leaders = append(leaders, i)
		}
	}
	for _, i := range leaders {
		vp := 2
		if len(leaders) > 1 {
			vp = 1
		}
		out[i].add(&out[i].ElixirVP, vp, text("most elixirs (%d)", most))
	}
	for i := range out {
		sh := &out[i]
		sh.Total = sh.Regions + sh.Islands + sh.Abilities + sh.ElixirVP + sh.Tokens + sh.Leader
	}
	return out
}

// totals are the scores of the whole match: the current game plus the finished games
// of a long game.
func (s *state) totals(cur []Sheet) []int {
	out := make([]int, len(cur))
	for i, sh := range cur {
		out[i] = sh.Total
		for _, past := range s.Past {
			out[i] += past[i].Total
		}
	}
	return out
}

// winners: most VP (the sum over a long game); on a tie the spellbook's holder wins,
// then most coins, most armies on the board, most regions controlled (of the last game).
func (s *state) winners() []int {
	cur := s.sheets()
	tot := s.totals(cur)
	best := slices.Max(tot)
	var tied []int
	for i, t := range tot {
		if t == best {
			tied = append(tied, i)
		}
	}
	if len(tied) > 1 {
		for _, i := range tied {
			if cur[i].Spellbook {
				return []int{i}
			}
		}
	}
	for _, key := range []func(Sheet) int{
		func(sh Sheet) int { return sh.Coins },
		func(sh Sheet) int { return sh.Armies },
		func(sh Sheet) int { return sh.Regions },
	} {
		m := -1
		for _, i := range tied {
			m = max(m, key(cur[i]))
		}
		tied = slices.DeleteFunc(tied, func(i int) bool { return key(cur[i]) != m })
	}
	return tied
}
