package service

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/turnmail/turnmail/i18n"
)

// How a move was taken back (undoPayload.How).
const (
	undoAgreed  = "agreed"  // every other active player accepted the request
	undoForced  = "forced"  // the host forced it
	undoAlone   = "alone"   // the asker had no other player to ask
	undoSkipped = "skipped" // a resigned player's skipped turn above the move taken back
)

// undoPayload is what an undo event (engine.KindUndo) records in its Command: how
// the move was taken back, by whom, and the move itself. The sentences that tell the
// undo are built from it in the reader's language (account, and tell for the web pages), so a
// change of their words never touches the log. The log of games older than it holds
// English sentences instead, which readUndo reads into the same form.
type undoPayload struct {
	How string `json:"undo"`
	// By are the players who accepted (agreed) or the player alone (alone).
	By []string `json:"by,omitempty"`
	// Resigned is the player whose resignation completed an agreement.
	Resigned string `json:"resigned,omitempty"`
	// Move is the move taken back (for skipped, the skipped turn).
	Move undoneMove `json:"move"`
	// With is, for skipped, the move whose undo takes the skipped turn back too.
	With *undoneMove `json:"with,omitempty"`
}

// undoneMove is a recorded move an undo takes back. Seq is 0 when read from an old
// sentence, which did not tell it.
type undoneMove struct {
	Seq     int    `json:"seq,omitempty"`
	Player  string `json:"player"`
	Command string `json:"command"`
}

// encode is the Command the undo event records: the payload as compact JSON.
func (u undoPayload) encode() string { return compactJSON(u) }

// compactJSON encodes an event's payload v (strings, ints, slices and pointers of
// them: it cannot fail) as compact JSON on one line, its < > & as they are, legible
// in the log.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// readUndo reads the Command of an undo event: the payload new events carry, or the
// English sentence of an older one (legacyUndo). ok is false for a text neither
// reads.
func readUndo(cmd string) (undoPayload, bool) {
	if strings.HasPrefix(cmd, "{") {
		return readPayload(cmd, func(u undoPayload) bool { return u.How != "" })
	}
	return legacyUndo(cmd)
}

// readPayload decodes an event's JSON payload cmd; ok is false when it does not
// decode, or does not say what it records (named).
func readPayload[T any](cmd string, named func(T) bool) (T, bool) {
	var v, none T
	if err := json.Unmarshal([]byte(cmd), &v); err != nil || !named(v) {
		return none, false
	}
	return v, true
}

// legacyUndoSentences are the English sentences undo events recorded before they
// carried a payload (frozen: old games' logs hold them).
var legacyUndoSentences = []struct {
	how string
	re  *regexp.Regexp
}{
	{undoAgreed, regexp.MustCompile(`^agreed by (.+) \((.+) resigned\), taking back (.+?): (.*)$`)},
	{undoAgreed, regexp.MustCompile(`^agreed by (.+), taking back (.+?): (.*)$`)},
	{undoForced, regexp.MustCompile(`^forced by the host, taking back (.+?): (.*)$`)},
	{undoAlone, regexp.MustCompile(`^taken back by (.+) \(no other player\), (.+?): (.*)$`)},
	{undoSkipped, regexp.MustCompile(`^taking back (.+?): (.*) \(a resigned player's skipped turn\) with (.+?): (.*)$`)},
}

// legacyUndo reads an undo event's English sentence, as games recorded them before
// the payload.
func legacyUndo(cmd string) (undoPayload, bool) {
	for _, l := range legacyUndoSentences {
		m := l.re.FindStringSubmatch(cmd)
		if m == nil {
			continue
		}
		u := undoPayload{How: l.how}
		move := func(i int) undoneMove { return undoneMove{Player: m[i], Command: m[i+1]} }
		switch {
		case l.how == undoAgreed && len(m) == 5:
			u.By, u.Resigned, u.Move = strings.Split(m[1], ", "), m[2], move(3)
		case l.how == undoAgreed, l.how == undoAlone:
			u.By, u.Move = strings.Split(m[1], ", "), move(2)
		case l.how == undoForced:
			u.Move = move(1)
		case l.how == undoSkipped:
			with := move(3)
			u.Move, u.With = move(1), &with
		}
		return u, true
	}
	return undoPayload{}, false
}

// sentence tells the undo u in lang (tr), what being the move taken back as the
// reader may read it.
func (u undoPayload) sentence(tr *i18n.Bundle, lang i18n.Lang, what string) string {
	by := strings.Join(u.By, ", ")
	switch {
	case u.How == undoAgreed && u.Resigned != "":
		return tr.Sprintf(lang, "taken back, as %s agreed (%s resigned): %s", by, u.Resigned, what)
	case u.How == undoAgreed:
		return tr.Sprintf(lang, "taken back, as %s agreed: %s", by, what)
	case u.How == undoForced:
		return tr.Sprintf(lang, "taken back by the host: %s", what)
	case u.How == undoAlone:
		return tr.Sprintf(lang, "taken back by %s (no other player): %s", by, what)
	case u.How == undoSkipped:
		return tr.Sprintf(lang, "taken back, a resigned player's skipped turn: %s", what)
	}
	return tr.Sprintf(lang, "taken back: %s", what)
}
