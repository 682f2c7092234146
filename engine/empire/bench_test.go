package empire

import (
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// BenchmarkReplay replays a complete four-player game with variants (random legal
// commands, recorded by playRandom) from its archive, hashes verified.
func BenchmarkReplay(b *testing.B) {
	a := playRandom(b, 5, 0)
	b.ResetTimer()
	for b.Loop() {
		if _, err := engine.Replay(registry, a, -1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(a.Events)), "events/game")
}

// BenchmarkLegal lists the legal commands in the middle of a game while a player
// carries out a move action (the costliest listing: cheapest paths from every region).
func BenchmarkLegal(b *testing.B) {
	a := playRandom(b, 5, 0)
	states, err := engine.ReplayAll(registry, a, -1)
	if err != nil {
		b.Fatal(err)
	}
	var s *state
	for _, st := range states[len(states)/2:] {
		x := st.(*state)
		if x.Pending != nil && x.Pending.Parts[0].Kind == acMove && !x.Pending.Choose {
			s = x
			break
		}
	}
	if s == nil {
		b.Fatal("no move action in the game")
	}
	player := s.name(s.Current)
	b.ResetTimer()
	for b.Loop() {
		_ = s.Legal(player)
	}
	b.ReportMetric(float64(len(s.Legal(player))), "commands")
}
