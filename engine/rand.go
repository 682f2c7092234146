package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Outcomes are the random results one event consumed, keyed by draw name ("die",
// "races" …). A name drawn a second time in the same event gets the suffix ".2", and
// so on. Values are JSON so that an archive can dictate them in a readable form.
type Outcomes map[string]json.RawMessage

// Rand is the random source of one event. It is seeded by (game seed, event sequence
// number); outcomes dictated by an archive are used instead of drawing, and every
// outcome, drawn or dictated, is recorded.
type Rand struct {
	seed, seq uint64
	// The generator is seeded at the first draw (most events draw nothing); a Rand
	// reset for another event keeps its memory.
	pcg      *rand.PCG
	src      *rand.Rand
	seeded   bool
	dictated Outcomes
	recorded Outcomes
	uses     map[string]int
}

// NewRand returns the random source for event seq of a game seeded with seed, using
// dictated outcomes where given (dictated may be nil).
func NewRand(seed int64, seq int, dictated Outcomes) *Rand {
	r := &Rand{}
	r.reset(seed, seq, dictated)
	return r
}

// reset makes r the random source of event seq, as NewRand would (a replay reuses
// one Rand for all its events).
func (r *Rand) reset(seed int64, seq int, dictated Outcomes) {
	r.seed, r.seq, r.seeded = uint64(seed), uint64(seq)*0x9E3779B97F4A7C15+1, false
	r.dictated, r.recorded = dictated, nil
	clear(r.uses)
}

// source is the seeded generator.
func (r *Rand) source() *rand.Rand {
	if !r.seeded {
		if r.pcg == nil {
			r.pcg = rand.NewPCG(r.seed, r.seq)
			r.src = rand.New(r.pcg)
		} else {
			r.pcg.Seed(r.seed, r.seq)
		}
		r.seeded = true
	}
	return r.src
}

// Recorded returns the outcomes drawn or dictated so far (nil when none).
func (r *Rand) Recorded() Outcomes { return r.recorded }

// Unused lists dictated outcome names that no draw consumed, sorted.
func (r *Rand) Unused() []string {
	var out []string
	for k := range r.dictated {
		if _, ok := r.recorded[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func (r *Rand) next(name string) string {
	if r.uses == nil {
		r.uses = map[string]int{}
	}
	r.uses[name]++
	if n := r.uses[name]; n > 1 {
		return name + "." + strconv.Itoa(n)
	}
	return name
}

func (r *Rand) record(key string, v any) {
	b := outcomeJSON(v)
	if r.recorded == nil {
		r.recorded = Outcomes{}
	}
	r.recorded[key] = b
}

// Pick returns one of faces, chosen uniformly (a die roll when faces are the die's
// faces). A dictated value must be one of faces.
func (r *Rand) Pick(name string, faces []int) (int, error) {
	key := r.next(name)
	if raw, ok := r.dictated[key]; ok {
		v, err := strconv.Atoi(string(raw)) // the form outcomes are recorded in
		if err != nil {
			if err := json.Unmarshal(raw, &v); err != nil {
				return 0, fmt.Errorf("outcome %q: want a number: %w", key, err)
			}
		}
		if !slices.Contains(faces, v) {
			return 0, fmt.Errorf("outcome %q: %d is not one of %v", key, v, faces)
		}
		r.record(key, v)
		return v, nil
	}
	v := faces[r.source().IntN(len(faces))]
	r.record(key, v)
	return v, nil
}

// Shuffle returns items in a random order. A dictated value must list items in some
// order; it may give only a prefix, in which case the rest follow in seeded order.
func (r *Rand) Shuffle(name string, items []string) ([]string, error) {
	key := r.next(name)
	out := slices.Clone(items)
	r.source().Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	if raw, ok := r.dictated[key]; ok {
		prefix, ok := plainNames(raw) // the form outcomes are recorded in
		if !ok {
			if err := json.Unmarshal(raw, &prefix); err != nil {
				return nil, fmt.Errorf("outcome %q: want a list of names: %w", key, err)
			}
		}
		fixed, err := FixPrefix(out, prefix)
		if err != nil {
			return nil, fmt.Errorf("outcome %q: %w", key, err)
		}
		out = fixed
	}
	r.record(key, out)
	return out, nil
}

// FixPrefix returns order with prefix moved to its front, in prefix's order; the other
// items keep their relative order. Every prefix item must occur in order, at most as
// often as it does there.
func FixPrefix(order, prefix []string) ([]string, error) {
	rest := slices.Clone(order)
	for _, p := range prefix {
		i := slices.Index(rest, p)
		if i < 0 {
			return nil, fmt.Errorf("%q is not available (or named twice)", p)
		}
		rest = slices.Delete(rest, i, i+1)
	}
	return append(slices.Clone(prefix), rest...), nil
}

// outcomeJSON is json.Marshal of an outcome (an int or a list of names), byte for
// byte, without reflection for the usual ones: ints, and names of letters, digits,
// spaces and - _ . ' (nothing JSON escapes).
func outcomeJSON(v any) json.RawMessage {
	switch x := v.(type) {
	case int:
		return strconv.AppendInt(nil, int64(x), 10)
	case []string:
		if x == nil {
			return json.RawMessage("null")
		}
		n := 2
		for _, s := range x {
			if !plainName(s) {
				b, _ := json.Marshal(x)
				return b
			}
			n += len(s) + 3
		}
		b := make([]byte, 0, n)
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, s...)
			b = append(b, '"')
		}
		return append(b, ']')
	}
	b, _ := json.Marshal(v) // ints and string slices always marshal
	return b
}

// plainName reports whether s holds only characters JSON writes as they are.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == ' ' || c == '-' || c == '_' || c == '.' || c == '\'') {
			return false
		}
	}
	return true
}

// plainNames decodes a JSON list of plain names (see plainName) as outcomeJSON
// writes it, without reflection; ok is false for anything else (json.Unmarshal then
// reads it).
func plainNames(raw []byte) (names []string, ok bool) {
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, false
	}
	body := raw[1 : len(raw)-1]
	names = []string{}
	for len(body) > 0 {
		if body[0] != '"' {
			return nil, false
		}
		end := 1
		for end < len(body) && body[end] != '"' {
			end++
		}
		if end == len(body) || !plainName(string(body[1:end])) {
			return nil, false
		}
		names = append(names, string(body[1:end]))
		body = body[end+1:]
		if len(body) > 0 {
			if body[0] != ',' || len(body) == 1 {
				return nil, false
			}
			body = body[1:]
		}
	}
	return names, true
}
