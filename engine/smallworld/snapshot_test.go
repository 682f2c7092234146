package smallworld

import (
	"reflect"
	"slices"
	"testing"

	"github.com/turnmail/turnmail/internal/selfplay"
)

// TestSnapshot_everyFieldKept: the codec encodes the state's exported fields as JSON
// and the others by hand. This lists the fields JSON leaves out: a new one fails here
// until the codec (snapshot.go) keeps it, or it is given by the setup.
func TestSnapshot_everyFieldKept(t *testing.T) {
	got := append(selfplay.Unencoded(reflect.TypeOf(state{})), selfplay.Unencoded(reflect.TypeOf(necroState{}))...)
	slices.Sort(got)
	want := []string{
		"army.abs",        // derived from Race and Power on restore
		"player.tally",    // snapshot.Tally
		"state.actor",     // snapshot.Actor
		"state.b",         // the setup's
		"state.cat",       // the setup's
		"state.keys",      // the setup's
		"state.names",     // the setup's
		"state.quiet",     // snapshot.Quiet
		"state.rules",     // the setup's
		"state.stacks",    // derived from the stacks on restore
		"state.story",     // snapshot.Story
		"state.told",      // used while applying only: empty after Apply
		"state.toldKinds", // used while applying only: empty after Apply
		"state.via",       // used while applying only: empty after Apply
	}
	if !slices.Equal(got, want) {
		t.Errorf("fields that JSON leaves out: %q\nthe codec handles: %q", got, want)
	}
}
