package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestHashBytes checks that HashBytes is HashJSON of a byte slice, whatever its
// length (the stack buffer and beyond).
func TestHashBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 511, 512, 3069, 3070, 3071, 3072, 5000, 20000} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if got, want := engine.HashBytes(b), engine.HashJSON(b); got != want {
			t.Errorf("%d bytes: HashBytes %s, HashJSON %s", n, got, want)
		}
	}
}
