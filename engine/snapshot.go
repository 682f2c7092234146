package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Snapshotter is implemented by states that can be saved and restored: a service
// keeps snapshots of long games so that it replays only the events after the last
// one. Snapshots are an optimisation, never the truth: a restored state is checked
// against the hash the event log recorded.
type Snapshotter interface {
	// Snapshot encodes everything about the state that the game's setup does not
	// give, what is not hashed included (the journal of the last command, the
	// breakdown of the scores): the state Restore gives back is the same in every
	// field.
	Snapshot() ([]byte, error)
	// Restore returns the state data encodes; data comes from Snapshot of a state of
	// the same game and setup, and the receiver is a state of that game and setup
	// (its initial state), which gives what the setup does. Data that does not
	// decode is an error, never a panic.
	Restore(data []byte) (State, error)
}

// ErrNoSnapshot reports a state that cannot be snapshotted (it is no Snapshotter).
var ErrNoSnapshot = errors.New("the game's states cannot be snapshotted")

// ErrStaleSnapshot reports a snapshot whose restored state does not have the hash
// recorded for its event: it was taken by other rules, or is damaged.
var ErrStaleSnapshot = errors.New("snapshot differs from the recorded state")

// sumLen is the length of the digest that starts a snapshot (hex).
const sumLen = 32

// Snapshot encodes s (see Snapshotter), preceded by a digest of the encoding: what
// the recorded hash does not cover (the journal, the breakdown of the scores) is
// checked by it.
func Snapshot(s State) ([]byte, error) {
	sn, ok := s.(Snapshotter)
	if !ok {
		return nil, ErrNoSnapshot
	}
	b, err := sn.Snapshot()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	out := make([]byte, sumLen, sumLen+len(b))
	sum := sha256.Sum256(b)
	hex.Encode(out, sum[:sumLen/2])
	return append(out, b...), nil
}

// Restore restores a snapshot taken by Snapshot of a state of initial's game and
// setup, and checks it against its digest and against hash, the one recorded for the
// event it was taken after.
func Restore(initial State, data []byte, hash string) (s State, err error) {
	sn, ok := initial.(Snapshotter)
	if !ok {
		return nil, ErrNoSnapshot
	}
	if len(data) < sumLen {
		return nil, fmt.Errorf("restore snapshot: %w", ErrStaleSnapshot)
	}
	sum := sha256.Sum256(data[sumLen:])
	if hex.EncodeToString(sum[:sumLen/2]) != string(data[:sumLen]) {
		return nil, fmt.Errorf("restore snapshot: damaged: %w", ErrStaleSnapshot)
	}
	defer func() {
		if p := recover(); p != nil { // a snapshot that decodes to what the engine cannot use
			s, err = nil, fmt.Errorf("restore snapshot: %v", p)
		}
	}()
	if s, err = sn.Restore(data[sumLen:]); err != nil {
		return nil, fmt.Errorf("restore snapshot: %w", err)
	}
	if s.Hash() != hash {
		return nil, ErrStaleSnapshot
	}
	return s, nil
}

// SnapshotFormat names the format of the snapshots of game g's states like s: the
// engine's name, its rules version (SetupStamper) and a digest of the Go type of its
// states, field by field. A snapshot is restored only by a program that gives the same
// format, so that a field added, removed or changed, or new rules, never meet a
// snapshot taken before (it is ignored and the game replayed).
func SnapshotFormat(g Game, s State) string {
	f := g.Name()
	if st, ok := g.(SetupStamper); ok {
		b, _ := json.Marshal(st.SetupStamp()) // map keys sorted
		f += " " + string(b)
	}
	var sb strings.Builder
	typeShape(&sb, reflect.TypeOf(s), map[reflect.Type]bool{})
	sum := sha256.Sum256([]byte(sb.String()))
	return f + " " + hex.EncodeToString(sum[:8])
}

// typeShape writes a description of t: its kind, name, and the names, tags and shapes
// of its fields, elements and keys (a type met before by its name only).
func typeShape(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	b.WriteString(t.String())
	if seen[t] {
		return
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		if t.Kind() == reflect.Array {
			fmt.Fprintf(b, "[%d]", t.Len())
		}
		b.WriteByte('(')
		typeShape(b, t.Elem(), seen)
		b.WriteByte(')')
	case reflect.Map:
		b.WriteByte('(')
		typeShape(b, t.Key(), seen)
		b.WriteByte(',')
		typeShape(b, t.Elem(), seen)
		b.WriteByte(')')
	case reflect.Struct:
		b.WriteByte('{')
		for i := range t.NumField() {
			f := t.Field(i)
			fmt.Fprintf(b, "%s %q ", f.Name, f.Tag)
			typeShape(b, f.Type, seen)
			b.WriteByte(';')
		}
		b.WriteByte('}')
	}
}
