package dungeoneer

import (
	"reflect"
	"testing"

	"github.com/turnmail/turnmail/internal/selfplay"
)

// TestSnapshot_everyFieldKept: the snapshot is the state's JSON (the journal apart,
// with its texts' types): every field must be one JSON encodes.
func TestSnapshot_everyFieldKept(t *testing.T) {
	if got := selfplay.Unencoded(reflect.TypeOf(state{})); len(got) != 0 {
		t.Errorf("fields that JSON leaves out, which a snapshot would lose: %q", got)
	}
}
