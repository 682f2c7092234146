package langcheck

import (
	"slices"
	"testing"
)

// englishCases are texts, the words they allow and how many English words they hold.
var englishCases = []struct {
	name, text string
	allow      Allowed
	want       int
}{
	{"Italian", "Tocca a te. Rispondi a questa mail con un comando per riga, per esempio: conquista 4", nil, 0},
	{"English sentence", "It is your move. Reply to this mail with one command per line.", nil, 9},
	{"Italian words that are English words elsewhere", "do la mia mossa; so che no; a te", nil, 0},
	{"two English words", "Regioni (le tue per prime): 4 foresta — anna ×2; next to 3, 5", nil, 2},
	{"addresses and programs", "le tue mosse vanno a turnmail+sw-1.0.abc@turnmail.localhost; turnmail replay sw-1.json --at N", nil, 0},
	{"a comment after a program's command", "    turnmail replay sw-1.json   # the final state", nil, 1},
	{"a link", "vedi https://example.org/the/rules/of/the/game", nil, 0},
	{"options, paths, zones, code", "es. nuova empire players=3 deadline=weekdays 20:00 Europe/Rome; expiry=skip|pause; vedi docs/it/; `turnmail games`", nil, 0},
	{"a language code", "1. alice — lingua it (dom 22 nov)", nil, 0},
	{"allowed names", "la carta Dire Ogre", Allowed{"dire": true}, 0},
	{"apostrophes", "l'isola, dell'Orco, it's", nil, 1},
	{"a rulebook's word", "Round 9 — fase dell'Eroe, turno di ben.", Rulebook("dungeoneer"), 0},
	{"a rulebook's word in another game", "Round 9 — fase di gioco.", Rulebook("empire"), 1},
	{"a game id spelling a word", "[swu-cc2be] nuovo giocatore: bob; partita dn-d45bx", nil, 0},
}

func TestEnglish(t *testing.T) {
	for _, c := range englishCases {
		t.Run(c.name, func(t *testing.T) {
			got := English(c.text, c.allow)
			if len(got) != c.want {
				t.Errorf("English(%q) = %q, want %d finds", c.text, got, c.want)
			}
		})
	}
	if got := English("next 3\nnext 4", nil); !slices.Equal(got, []string{"next: «next 3»"}) {
		t.Errorf("a word is reported once, with its context: %q", got)
	}
}

// TestChecker: a Checker finds what English finds, on lines it read before too, and
// leaves out what each call allows (not what an earlier call allowed).
func TestChecker(t *testing.T) {
	var c Checker
	for range 2 {
		for _, tc := range englishCases {
			for _, allow := range []Allowed{tc.allow, nil, Rulebook("dungeoneer")} {
				if got, want := c.English(tc.text, allow), English(tc.text, allow); !slices.Equal(got, want) {
					t.Errorf("%s: Checker.English(%q, %v) = %q, English %q", tc.name, tc.text, allow, got, want)
				}
			}
		}
	}
	if got := c.English("Round 9 — fase dell'Eroe.\nround", nil); len(got) != 1 {
		t.Errorf("a word is reported once per text, from a remembered line too: %q", got)
	}
}
