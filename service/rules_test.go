package service_test

import (
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
)

// TestLobbyRules_name: "rules GAME NAME" answers with what a race, power, place, relic
// or card does, whatever the language and case of NAME; an unknown NAME or game gets
// an answer saying how to find the names; the answer is in the language of the mail.
func TestLobbyRules_name(t *testing.T) {
	tests := []struct {
		line string
		want []string // in the answer, blanks folded
		not  []string
	}{
		{"rules smallworld Ratmen", []string{"Ratmen (race): No ability: their strength is their many tokens."}, nil},
		{"rules smallworld dragon   MASTER", []string{"Dragon Master (special power): Once per turn"}, nil},
		{"rules smallworld uomini ratto", []string{"Ratmen (race):"}, nil},
		{"regole smallworld uomini ratto", []string{"Uomini Ratto (razza): Nessuna abilità"}, nil},
		{"rules underground Froggy's Ring", []string{"Froggy's Ring (relic): At the end of your turn"}, nil},
		{"rules underground Altar of Souls", []string{"Altar of Souls (place):"}, nil},
		{"rules underground ratmen", []string{"Ratmen (race):"}, nil}, // Small World's races join Underground's
		{"rules empire ancient phoenix", []string{"Ancient Phoenix (card): flying; action: 5 movement points"}, nil},
		{"rules smallworld Froggy's Ring", []string{`Small World has no race, power, place, relic or card named "Froggy's Ring"`, "rules smallworld sums up the game"}, []string{"(relic)"}},
		{"rules smallworld Nobody", []string{`named "Nobody"`}, nil},
		{"rules chess Ratmen", []string{"chess"}, []string{"(race)"}},
		{"rules smallworld", []string{"Small World (2–5 players)"}, nil},
		{"rules", []string{"rules GAME NAME for a race, power or card"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			f := newFixtureWith(t, games.Registry())
			f.receive(f.mail("ann@"+domain, svcAddr, tt.line+"\n"))
			m := f.mailsTo("ann@" + domain)
			if len(m) != 1 {
				t.Fatalf("%d answers", len(m))
			}
			body := strings.Join(strings.Fields(m[0].Body), " ")
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("answer lacks %q:\n%s", w, m[0].Body)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(body, w) {
					t.Errorf("answer has %q:\n%s", w, m[0].Body)
				}
			}
		})
	}
}
