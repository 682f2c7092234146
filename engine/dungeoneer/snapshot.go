package dungeoneer

import (
	"encoding/json"
	"fmt"

	"github.com/turnmail/turnmail/engine"
)

var _ engine.Snapshotter = (*state)(nil)

// snapshot is what Snapshot encodes: the state's fields (all exported) as JSON, but
// its journal (Log), whose texts keep their arguments' types (engine.SnapText).
type snapshot struct {
	State json.RawMessage    `json:"state"`
	Log   *[]engine.SnapText `json:"log,omitempty"` // nil for a nil Log
}

// Snapshot implements engine.Snapshotter.
func (s *state) Snapshot() ([]byte, error) {
	c := *s
	c.Log = nil
	st, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	sn := snapshot{State: st}
	if s.Log != nil {
		log := engine.SnapTexts(s.Log)
		sn.Log = &log
	}
	return json.Marshal(sn)
}

// Restore implements engine.Snapshotter; the setup gives nothing the state does not
// hold.
func (s *state) Restore(data []byte) (engine.State, error) {
	var sn snapshot
	if err := engine.DecodeStrict(data, &sn); err != nil {
		return nil, fmt.Errorf("dungeoneer: %w", err)
	}
	n := &state{}
	if err := engine.DecodeStrict(sn.State, n); err != nil {
		return nil, fmt.Errorf("dungeoneer: %w", err)
	}
	if n.Log != nil {
		return nil, fmt.Errorf("dungeoneer: journal outside its place")
	}
	if sn.Log != nil {
		n.Log = engine.Texts(*sn.Log)
	}
	if len(n.Seats) != len(s.Seats) {
		return nil, fmt.Errorf("dungeoneer: snapshot of %d seats, the game has %d", len(n.Seats), len(s.Seats))
	}
	return n, nil
}
