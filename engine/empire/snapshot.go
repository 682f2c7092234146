package empire

import (
	"encoding/json"
	"fmt"

	"github.com/turnmail/turnmail/engine"
)

var _ engine.Snapshotter = (*state)(nil)

// snapshot is what Snapshot encodes: every field of the state is exported and encoded
// as JSON but the configuration, which the setup gives, and the texts of the score
// sheets of the past games (ScoreItem.text), kept beside them with their arguments'
// types (engine.SnapText), by game, sheet and item.
type snapshot struct {
	State     json.RawMessage       `json:"state"`
	PastTexts [][][]engine.SnapText `json:"past_texts,omitempty"`
}

// Snapshot implements engine.Snapshotter.
func (s *state) Snapshot() ([]byte, error) {
	st, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	sn := snapshot{State: st}
	for _, game := range s.Past {
		var sheets [][]engine.SnapText
		for _, sh := range game {
			texts := make([]engine.SnapText, len(sh.Items))
			for i, it := range sh.Items {
				texts[i] = engine.SnapText(it.text)
			}
			sheets = append(sheets, texts)
		}
		sn.PastTexts = append(sn.PastTexts, sheets)
	}
	return json.Marshal(sn)
}

// Restore implements engine.Snapshotter.
func (s *state) Restore(data []byte) (engine.State, error) {
	var sn snapshot
	if err := engine.DecodeStrict(data, &sn); err != nil {
		return nil, fmt.Errorf("empire: %w", err)
	}
	n := &state{cfg: s.cfg}
	if err := engine.DecodeStrict(sn.State, n); err != nil {
		return nil, fmt.Errorf("empire: %w", err)
	}
	if n.Config != s.Config {
		return nil, fmt.Errorf("empire: snapshot of another setup (%s, not %s)", n.Config, s.Config)
	}
	if len(sn.PastTexts) != len(n.Past) {
		return nil, fmt.Errorf("empire: texts of %d past games for %d", len(sn.PastTexts), len(n.Past))
	}
	for g, game := range n.Past {
		if len(sn.PastTexts[g]) != len(game) {
			return nil, fmt.Errorf("empire: texts of %d sheets for %d", len(sn.PastTexts[g]), len(game))
		}
		for i := range game {
			items := game[i].Items
			if len(sn.PastTexts[g][i]) != len(items) {
				return nil, fmt.Errorf("empire: %d texts for %d score items", len(sn.PastTexts[g][i]), len(items))
			}
			for j := range items {
				items[j].text = engine.Text(sn.PastTexts[g][i][j])
			}
		}
	}
	return n, nil
}
