package empire

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Apply validates command for player and returns the resulting state.
func (s *state) Apply(player, command string, rng *engine.Rand) (engine.State, error) {
	seat := s.seat(player)
	if seat < 0 {
		return nil, engine.Illegal("%q is not a player of this game", player)
	}
	if s.Phase == phOver {
		return nil, engine.Illegal("the game is over")
	}
	if !slices.Contains(s.ToAct(), s.name(seat)) {
		return nil, engine.Illegal("it is not your turn: waiting for %s", strings.Join(s.ToAct(), ", "))
	}
	cmd := engine.Normalize(command)
	verb, rest, _ := strings.Cut(cmd, " ")
	ns := s.clone()
	if err := ns.dispatch(seat, verb, rest, rng); err != nil {
		var re *engine.RuleError
		if errors.As(err, &re) && re.Instead == nil {
			re.Instead = s.Legal(player)
			if len(re.Instead) > 12 {
				re.Instead = append(re.Instead[:12:12], "…")
			}
		}
		return nil, err
	}
	return ns, nil
}

// dispatch applies one command to s (a fresh copy).
func (s *state) dispatch(seat int, verb, rest string, rng *engine.Rand) error {
	want := func(verbs ...string) error {
		if slices.Contains(verbs, verb) {
			return nil
		}
		say := any(engine.Command(verbs[0]))
		if len(verbs) == 2 {
			say = text("%s or %s", engine.Command(verbs[0]), engine.Command(verbs[1]))
		}
		return engine.Illegal("%q is not possible now (%s); say %s", engine.Command(strings.TrimSpace(verb+" "+rest)), PhaseText(s.Phase), say)
	}
	switch s.Phase {
	case phSettle:
		if err := want("settle"); err != nil {
			return err
		}
		return s.settle(seat, rest)
	case phNeutral:
		if err := want("neutral"); err != nil {
			return err
		}
		return s.neutral(rest)
	case phBid:
		if err := want("bid"); err != nil {
			return err
		}
		return s.bid(seat, rest, rng)
	case phFirst:
		if err := want("first"); err != nil {
			return err
		}
		return s.first(rest)
	case phBonus:
		if err := want("take", "pass"); err != nil {
			return err
		}
		if verb == "pass" {
			if rest != "" {
				return engine.Illegal("say just \"pass\"")
			}
			return s.finishGame(rng)
		}
		if err := s.take(seat, rest, false); err != nil {
			return err
		}
		s.BonusDone = true
		return s.finishGame(rng)
	}
	// Play.
	if s.Pending == nil {
		if err := want("take"); err != nil {
			return err
		}
		if err := s.take(seat, rest, true); err != nil {
			return err
		}
		return s.advance(rng)
	}
	if verb == "skip" {
		if rest != "" {
			return engine.Illegal("say just \"skip\"")
		}
		s.skip()
		return s.advance(rng)
	}
	if err := s.choosePart(verb); err != nil {
		return err
	}
	var err error
	switch verb {
	case acPlace:
		err = s.place(seat, rest)
	case acMove:
		err = s.move(seat, rest)
	case acCity:
		err = s.city(seat, rest)
	case acDestroy:
		err = s.destroy(seat, rest)
	}
	if err != nil {
		return err
	}
	return s.advance(rng)
}

// parseRegion reads a region number (1-based) and returns its index.
func (s *state) parseRegion(t string) (int, error) {
	v, err := strconv.Atoi(t)
	if err != nil || v < 1 || v > len(s.Armies) {
		return 0, engine.Illegal("%q is not a region: regions are numbered 1 to %d", t, len(s.Armies))
	}
	return v - 1, nil
}

// parseCount reads a number of armies, coins or a position: a whole number, 0 or more.
func parseCount(t string) (int, bool) {
	v, err := strconv.Atoi(t)
	return v, err == nil && v >= 0
}

func joinRegions(rs []int) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(r + 1)
	}
	return strings.Join(parts, ", ")
}
