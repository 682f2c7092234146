package empire

import (
	"reflect"
	"slices"
	"testing"

	"github.com/turnmail/turnmail/internal/selfplay"
)

// TestSnapshot_everyFieldKept: the snapshot is the state's JSON; the fields JSON
// leaves out are listed here with what keeps them (a new one fails here).
func TestSnapshot_everyFieldKept(t *testing.T) {
	want := []string{
		"state.cfg",      // the setup's
		"ScoreItem.text", // snapshot.PastTexts
	}
	if got := selfplay.Unencoded(reflect.TypeOf(state{})); !slices.Equal(got, want) {
		t.Errorf("fields that JSON leaves out: %q, the codec handles %q", got, want)
	}
}
