package service_test

import (
	"testing"
)

// TestTolerantReading: a greeting before the first command and a sign-off after the
// last are quoted as not read, and the moves go through; an unknown line between
// commands still stops reading.
func TestTolerantReading(t *testing.T) {
	tests := []scenario{
		{
			name: "greeting and sign-off around a move",
			steps: []step{
				{from: "alice", body: "Ciao Bob, ti distruggo!\n\nadd 3\n\nA domani,\nAlice\n", status: "applied", mail: map[string]string{
					"alice": "Not read as commands (no command word starts them):\n  - line 1: Ciao Bob, ti distruggo!\n  - line 5: A domani,\n  - line 6: Alice",
				}, noMail: map[string]string{"alice": "Not applied"}},
			},
			wantScores: map[string]int{"alice": 3}, wantToAct: "bob",
		},
		{
			name: "a mail with no command word is read as before: its refusal lists the commands",
			steps: []step{
				{from: "alice", body: "Ciao Bob!\n", status: "rejected", reason: "unknown command", mail: map[string]string{"alice": "add <1-9>"}},
			},
			wantToAct: "alice",
		},
		{
			name: "an unknown line between commands stops reading",
			steps: []step{
				{from: "alice", body: "Hi\nstatus\nhello there\nadd 3\n", status: "applied", reason: "line 3", mail: map[string]string{
					"alice": "line 1: Hi",
				}},
			},
			wantScores: map[string]int{"alice": 0}, wantToAct: "alice",
		},
	}
	for _, sc := range tests {
		t.Run(sc.name, sc.run)
	}
}
