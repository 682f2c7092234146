package service_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/service"
)

// rawCommand matches what only a command as typed has in an Italian or English
// account: "ha inviato:", "sent:", "bob: fatto", "alice — dì …", region pairs.
var rawCommand = regexp.MustCompile(`(ha inviato|sent): |\b[a-z]+: (prendi|conquista|fatto|pick|conquer|done|schiera|redeploy)\b|(?m)^\s+[a-z]+ — |\d=\d`)

// TestAccount_inSentences plays a Small World turn by mail in each language with a
// message and an undo request with its reason, accepted: the other player's state
// mail, the undo request (with the reason, and the move told as the game tells it)
// and the history mail (with the undo) tell every event in sentences (a chat line
// as "alice dice: …"), never as a command.
func TestAccount_inSentences(t *testing.T) {
	for _, tc := range []struct {
		lang                                i18n.Lang
		say, undo, accept, says, asks, why  string
		took, ended, begins, reason, undone string
	}{
		{i18n.English, "say hello all", "undo I misread the map", "accept", "alice says: hello all", "bob asks to take back the last move (alice ended the turn)", "bob writes: I misread the map",
			"alice took ", "alice ended the turn", "bob begins turn 1", "bob asked to take back the last move: I misread the map", "taken back, as alice agreed: alice ended the turn"},
		{i18n.Italian, "dì ciao a tutti", "annulla ho letto male la mappa", "accetta", "alice dice: ciao a tutti", "bob chiede di annullare l'ultima mossa (alice ha finito il turno)", "bob scrive: ho letto male la mappa",
			"alice ha preso ", "alice ha finito il turno", "bob inizia il turno 1", "bob ha chiesto di annullare l'ultima mossa: ho letto male la mappa", "annullata con il consenso di alice: alice ha finito il turno"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			f := newGameFixture(t, "smallworld", service.Settings{Lang: tc.lang}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
			alice, bob := "alice@"+domain, "bob@"+domain
			f.play("alice", alice, f.legalWith("alice", "pick"))
			f.play("alice", alice, tc.say)
			f.play("alice", alice, f.legalWith("alice", "conquer"))
			f.play("alice", alice, "done")
			state := f.lastMailTo(bob)
			for _, w := range []string{tc.took, tc.says, tc.ended, tc.begins} {
				if !strings.Contains(oneLine(state), w) {
					t.Errorf("bob's state mail does not tell %q:\n%s", w, state)
				}
			}
			f.play("bob", bob, tc.undo)
			request := f.lastMailTo(alice)
			for _, w := range []string{tc.asks, tc.why} {
				if !strings.Contains(oneLine(request), w) {
					t.Errorf("alice's undo request does not say %q:\n%s", w, request)
				}
			}
			f.play("alice", alice, tc.accept)
			f.play("bob", bob, map[i18n.Lang]string{i18n.English: "history 20", i18n.Italian: "storia 20"}[tc.lang])
			history := f.lastMailTo(bob)
			for _, w := range []string{tc.took, tc.says, tc.ended, tc.reason, tc.undone} {
				if !strings.Contains(oneLine(history), w) {
					t.Errorf("bob's history does not tell %q:\n%s", w, history)
				}
			}
			for name, body := range map[string]string{"state": state, "undo request": request, "history": history} {
				if m := rawCommand.FindString(body); m != "" {
					t.Errorf("the %s mail shows a command as typed (%q):\n%s", name, m, body)
				}
			}
		})
	}
}

// oneLine undoes a mail's line wrapping.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
