package empire

import (
	"testing"

	"github.com/turnmail/turnmail/internal/narratecheck"
)

// TestEveryVerbNarrates plays self-played games with every option set the game
// samples: every command word the game names (Words) must be played, and every
// command told to every reader in sentences, in English and Italian (narratecheck).
func TestEveryVerbNarrates(t *testing.T) { narratecheck.EveryVerb(t, Game{}, 8) }
