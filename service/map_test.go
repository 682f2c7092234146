package service_test

import (
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/service"
)

// TestMapAndRules_inGame: in a game, map answers with the whole board (every region
// with its holder and neighbours, the offer) and rules with the game's rules in
// short and what every combo in play and on offer does; rules NAME with what that
// piece does; an unknown name is refused with why; both in Italian words too
// (mappa, regole), answered in Italian.
func TestMapAndRules_inGame(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		st    service.Settings
		cmd   string
		want  []string
		apply bool
	}{
		{"map", service.Settings{}, "map", []string{"The whole board", "Regions:", " — empty; next to ", "Race and power combos on offer"}, true},
		{"mappa", service.Settings{Lang: "it"}, "mappa", []string{"Tutto il tabellone", "Regioni:", " — vuota; confina con ", "Combinazioni Razza/Potere in offerta"}, true},
		{"rules", service.Settings{}, "rules", []string{"Small World (2–5 players)", "What the combos in play and on offer do:", "(race):", "(special power):"}, true},
		{"regole", service.Settings{Lang: "it"}, "regole", []string{"Small World (2–5 giocatori)", "Cosa fanno le combinazioni in gioco e in offerta:", "(razza):"}, true},
		{"rules NAME", service.Settings{}, "rules ratmen", []string{"Ratmen (race): "}, true},
		{"rules unknown", service.Settings{}, "rules nobody", []string{`has no race, power, place, relic or card named "nobody"`}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newGameFixture(t, "smallworld", c.st, now)
			alice := "alice@" + domain
			res := f.receive(f.mail(alice, f.reply["alice"], c.cmd+"\n"))
			if applied := res.Status == service.StatusApplied; applied != c.apply {
				t.Fatalf("%s: %s %s", c.cmd, res.Status, res.Reason)
			}
			var body string // the last mail to alice, in whichever language
			for _, m := range f.queued() {
				if strings.EqualFold(m.To[0].Address, alice) {
					body = m.Body
				}
			}
			flat := strings.Join(strings.Fields(body), " ")
			for _, w := range c.want {
				if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("%s: the answer lacks %q:\n%s", c.cmd, w, body)
				}
			}
		})
	}
}
