package empire

import (
	"testing"

	"github.com/turnmail/turnmail/engine"
)

func TestMaskCommand_sealedBids(t *testing.T) {
	bidding := &state{Phase: phBid}
	open := &state{Phase: phFirst}
	tests := []struct {
		name           string
		s              *state
		player, viewer string
		want           string
	}{
		{"other player during the bid", bidding, "alice", "bob", "bid (sealed)"},
		{"observer during the bid", bidding, "alice", engine.Observer, "bid (sealed)"},
		{"own bid", bidding, "alice", "alice", "bid 7"},
		{"complete view", bidding, "alice", "", "bid 7"},
		{"after the bids are opened", open, "alice", "bob", "bid 7"},
	}
	for _, tt := range tests {
		if got := engine.MaskCommand(tt.s, tt.player, "bid 7", tt.viewer); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
