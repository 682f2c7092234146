package smallworld

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/turnmail/turnmail/engine"
)

var _ engine.Snapshotter = (*state)(nil)

// snapshot is what Snapshot encodes. State holds the state's exported fields
// (encoding/json: a field added to them is never left out) but the scenario's, which
// Scn holds; the rest are the unexported fields that the setup does not give: where
// each player's coins came from, the journal of the last command and its actor, and
// whether the journal is kept. The board, the catalogue, the rules version and the
// players' names come from the setup (the initial state Restore is called on);
// army.abs and stacks are derived from the fields encoded.
type snapshot struct {
	State json.RawMessage `json:"state"`
	Scn   json.RawMessage `json:"scn,omitempty"`
	Tally []tally         `json:"tally"`
	Story *[]snapTale     `json:"story,omitempty"` // nil for a nil story
	Actor int             `json:"actor"`
	Quiet bool            `json:"quiet,omitempty"`
}

// snapTale is a tale with its texts' argument types kept (engine.SnapText).
type snapTale struct {
	Happening engine.SnapHappening `json:"happening"`
	Only      int                  `json:"only"`
	Except    int                  `json:"except"`
}

// Snapshot implements engine.Snapshotter.
func (s *state) Snapshot() ([]byte, error) {
	c := *s
	c.Scn = nil
	st, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	sn := snapshot{State: st, Actor: s.actor, Quiet: s.quiet}
	if s.Scn != nil {
		if sn.Scn, err = json.Marshal(s.Scn); err != nil {
			return nil, err
		}
	}
	for _, p := range s.Players {
		sn.Tally = append(sn.Tally, p.tally)
	}
	if s.story != nil {
		story := make([]snapTale, len(s.story))
		for i, t := range s.story {
			story[i] = snapTale{Happening: engine.SnapHappeningOf(t.Happening), Only: t.only, Except: t.except}
		}
		sn.Story = &story
	}
	return json.Marshal(sn)
}

// Restore implements engine.Snapshotter: s is a state of the game's setup (its
// initial state), which gives the board, the catalogue, the rules and the names.
func (s *state) Restore(data []byte) (engine.State, error) {
	var sn snapshot
	if err := engine.DecodeStrict(data, &sn); err != nil {
		return nil, fmt.Errorf("%s: %w", s.cat.game, err)
	}
	n := &state{b: s.b, cat: s.cat, rules: s.rules, names: s.names, keys: s.keys, actor: sn.Actor, quiet: sn.Quiet}
	if err := engine.DecodeStrict(sn.State, n); err != nil {
		return nil, fmt.Errorf("%s: %w", s.cat.game, err)
	}
	if err := n.restoreScenario(s.Scn, sn.Scn); err != nil {
		return nil, fmt.Errorf("%s: %w", s.cat.game, err)
	}
	if err := n.checkShape(len(sn.Tally)); err != nil {
		return nil, fmt.Errorf("%s: snapshot: %w", s.cat.game, err)
	}
	for p := range n.Players {
		n.Players[p].tally = sn.Tally[p]
		for slot := range nSlots {
			a := n.army(p, slot)
			a.abs = [2]uint8{reg.number[a.Race], reg.number[a.Power]}
		}
	}
	n.keepStacks()
	if sn.Story != nil {
		n.story = make([]tale, len(*sn.Story))
		for i, t := range *sn.Story {
			if t.Only < -1 || t.Only >= len(n.names) || t.Except < -1 || t.Except >= len(n.names) {
				return nil, fmt.Errorf("%s: snapshot: a tale for player %d but %d", s.cat.game, t.Only, t.Except)
			}
			n.story[i] = tale{Happening: t.Happening.Happening(), only: t.Only, except: t.Except}
		}
	}
	return n, nil
}

// restoreScenario decodes the scenario's state into a new value of the concrete type
// of like, the setup's (none when like is nil).
func (s *state) restoreScenario(like scenario, raw json.RawMessage) error {
	if like == nil {
		if len(raw) > 0 {
			return fmt.Errorf("snapshot: a scenario in a game without one")
		}
		return nil
	}
	if len(raw) == 0 {
		return fmt.Errorf("snapshot: no scenario in a game with one")
	}
	t := reflect.TypeOf(like)
	if t.Kind() != reflect.Pointer {
		return fmt.Errorf("snapshot: scenario of type %s", t)
	}
	v := reflect.New(t.Elem())
	if err := engine.DecodeStrict(raw, v.Interface()); err != nil {
		return fmt.Errorf("snapshot: scenario: %w", err)
	}
	sc, ok := v.Interface().(scenario)
	if !ok {
		return fmt.Errorf("snapshot: scenario of type %s", t)
	}
	s.Scn = sc
	return nil
}

// checkShape checks what the rest of the engine indexes without checking: as many
// players (and tallies) as names, as many regions as the board has, the current
// player, the owners and the players to redeploy in range. A snapshot that passes is
// then checked against the recorded hash (engine.Restore).
func (s *state) checkShape(tallies int) error {
	players := len(s.names)
	switch {
	case len(s.Players) != players || tallies != players:
		return fmt.Errorf("%d players and %d tallies for %d names", len(s.Players), tallies, players)
	case len(s.Regions) != len(s.b.regions):
		return fmt.Errorf("%d regions on a board of %d", len(s.Regions), len(s.b.regions))
	case s.Cur < 0 || s.Cur >= players:
		return fmt.Errorf("current player %d", s.Cur)
	}
	for _, q := range s.Pending {
		if q < 0 || int(q) >= players {
			return fmt.Errorf("player %d to redeploy", q)
		}
	}
	for r, g := range s.Regions {
		if g.Owner < ownerMonster || int(g.Owner) >= players || g.Slot < 0 || g.Slot >= nSlots {
			return fmt.Errorf("region %d: owner %d, slot %d", r, g.Owner, g.Slot)
		}
	}
	for _, p := range s.Players {
		if p.Ally < -1 || int(p.Ally) >= players {
			return fmt.Errorf("ally %d", p.Ally)
		}
	}
	return nil
}
