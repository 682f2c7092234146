package engine_test

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
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

// TestOutcomeJSON: outcomes are recorded as encoding/json writes them, byte for byte.
func TestOutcomeJSON(t *testing.T) {
	for _, v := range []any{0, -3, 12345, []string{}, []string(nil), []string{"Ratmen", "Hill Elves", "Dragon Master", "it's"},
		[]string{"a<b", "x&y", `q"uote`, "ü", "tab\tx"}, "other"} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := engine.OutcomeJSON(v); string(got) != string(want) {
			t.Errorf("%#v: %s, want %s", v, got, want)
		}
	}
}

// TestPlainNames: the lists outcomeJSON writes read back without reflection; anything
// else is left to encoding/json.
func TestPlainNames(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		want []string
		ok   bool
	}{
		{`[]`, []string{}, true},
		{`["Ratmen","Hill Elves"]`, []string{"Ratmen", "Hill Elves"}, true},
		{`["it's"]`, []string{"it's"}, true},
		{`[ "a"]`, nil, false},
		{`["a",]`, nil, false},
		{`["a\"b"]`, nil, false},
		{`["a","b"`, nil, false},
		{`[1]`, nil, false},
		{`["ü"]`, nil, false},
		{`null`, nil, false},
	} {
		got, ok := engine.PlainNames([]byte(tt.raw))
		if ok != tt.ok || ok && !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q %v, want %q %v", tt.raw, got, ok, tt.want, tt.ok)
		}
		if ok {
			var std []string
			if err := json.Unmarshal([]byte(tt.raw), &std); err != nil || !slices.Equal(std, got) {
				t.Errorf("%s: encoding/json reads %q (%v)", tt.raw, std, err)
			}
		}
	}
}
