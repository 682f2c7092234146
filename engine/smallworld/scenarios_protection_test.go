package smallworld

import "testing"

// TestUndergroundProtection: every effect of another player's ability, place or relic
// on a region asks the one check, state.protected (immune pieces; the Gnomes' shield
// on their opponents' turns, "contro di te"); the Liches' coin is paid by whoever
// conquers, also by the Balrog's holder, who may not send it against declined Liches
// without a coin; Vengeful markers come from attacks on either of the player's races.
// On the 2-player board: 26 an edge mine, 27 an edge mud pool, 23 an edge mud pool
// with monsters (bordering 27), 22 a crystal grove, 16 and 6 Black Mountains.
func TestUndergroundProtection(t *testing.T) {
	// game starts a game of alice's Liches with power and bob's race against her,
	// with pool the places and relics of the face-down pool.
	game := func(t *testing.T, bobRace, power, pool string) *state {
		t.Helper()
		s, _ := newUnderground(t, 2, nil, `{"races":["Liches","`+bobRace+`"],"powers":["`+power+`","Stout"],"pool":[`+pool+`]}`)
		return apply(t, s, "alice: pick 1")
	}
	// gnomeLone: bob's Gnomes (6 + Stout 4) hold 27 with many, 22 and 16 with one.
	gnomeLone := []string{"bob: pick 1", "bob: conquer 27", "bob: conquer 22", "bob: conquer 16", "bob: redeploy 27=8 22=1 16=1", "bob: done"}
	cases := map[string]func(t *testing.T){
		// Vampire (§4.18): "Un singolo segnalino Gnomo è comunque protetto".
		"Vampire vs Gnome": func(t *testing.T) {
			s := apply(t, game(t, "Gnomes", "Vampire", ""), append([]string{"alice: conquer 26", "alice: done"}, gnomeLone...)...)
			rejects(t, s, "alice", "vampire 22", "protected by bob's Gnomes")
		},
		// The Shiny Orb: "valgono le stesse considerazioni fatte per i Vampiri".
		"Orb vs Gnome": func(t *testing.T) {
			s := reveal(t, game(t, "Gnomes", "Spirit", `"Shiny Orb"`), "alice", "conquer 23", "Shiny Orb")
			s = apply(t, s, append([]string{"alice: done"}, gnomeLone[:3]...)...)
			s = apply(t, s, "bob: redeploy 27=9 22=1", "bob: done")
			rejects(t, s, "alice", "orb 22", "protected by bob's Gnomes")
		},
		// The Pentacle: "Anche il Balrog non può conquistare una Regione occupata dagli
		// Gnomi".
		"Balrog vs Gnome": func(t *testing.T) {
			s := reveal(t, game(t, "Gnomes", "Spirit", `"Wickedest Pentacle"`), "alice", "conquer 23", "Wickedest Pentacle")
			s = apply(t, s, "alice: done", "bob: pick 1", "bob: conquer 27", "bob: done")
			legalHas(t, s, "alice", "balrog 16")
			rejects(t, s, "alice", "balrog 27", "shielded")
		},
		// Thieving (§4.16) takes nothing from the Gnomes that border the thieves.
		"Thieving vs Gnome": func(t *testing.T) {
			s := game(t, "Gnomes", "Thieving", `"Flying Doormat"`)
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done", "bob: pick 1")
			s = apply(t, reveal(t, s, "bob", "conquer 23", "Flying Doormat"), "bob: done") // 23 borders 27
			bob := s.Players[1].Coins
			s = apply(t, s, "alice: done")
			coins(t, s, "bob", bob)
		},
		// Froggy's Ring takes nothing from the Gnomes that border it.
		"Ring vs Gnome": func(t *testing.T) {
			s := reveal(t, game(t, "Gnomes", "Spirit", `"Froggy's Ring"`), "alice", "conquer 23", "Froggy's Ring")
			s = apply(t, s, "alice: done", "bob: pick 1", "bob: conquer 27", "bob: done") // 27 borders 23
			bob := s.Players[1].Coins
			s = apply(t, s, "alice: done")
			coins(t, s, "bob", bob)
		},
		// Liches (§3.7): "prendi 1 Moneta ad ogni avversario ogni volta che conquista una
		// tua Regione. Un avversario che non ha Monete non può conquistare una tua
		// Regione." The Balrog's conquest is its holder's: he pays the Liches' owner,
		// and without a coin he may not send it there.
		"Balrog vs declined Liches": func(t *testing.T) {
			s, _ := newUnderground(t, 2, nil, `{"races":["Ratmen","Liches"],"powers":["Spirit","Stout"],"pool":["Wickedest Pentacle"]}`)
			s = reveal(t, apply(t, s, "alice: pick 1"), "alice", "conquer 23", "Wickedest Pentacle")
			s = apply(t, s, "alice: done", "bob: pick 1", "bob: conquer 27", "bob: done", "alice: done", "bob: decline")
			held(t, s, 27, "bob", "Liches", 1)
			isDeclined(t, s, 27, true)
			broke := s.clone()
			broke.Players[0].Coins = 0 // as if alice had spent them all
			rejects(t, broke, "alice", "balrog 27", "keeps you out")
			alice, bob := s.Players[0].Coins, s.Players[1].Coins
			s = apply(t, s, "alice: balrog 27")
			coins(t, s, "alice", alice-1)
			coins(t, s, "bob", bob+1)
		},
		// Vengeful (§4.20): "Consegna un segnalino Vendetta ad ogni giocatore che
		// attacca una delle tue Razze": bob takes alice's declined Liches while her
		// active race is Vengeful, and her conquests of his regions cost 1 fewer.
		"Vengeful declined race": func(t *testing.T) {
			s, _ := newUnderground(t, 2, nil, `{"races":["Liches","Ratmen","Shrooms"],"powers":["Alchemist","Forest","Vengeful"]}`)
			s = apply(t, s, "alice: pick 1", "alice: conquer 26", "alice: conquer 27", "alice: done",
				"bob: pick 1", "bob: conquer 6", "bob: conquer 16", "bob: conquer 22", "bob: done",
				"alice: decline", "bob: done",
				"alice: pick 1", "alice: conquer 5", "alice: done")
			r6 := s.b.index[6]
			s = apply(t, s, "bob: conquer 27", "bob: done")
			if got, want := s.cost(0, slotActive, r6), 2+s.defense(r6)-1; got != want {
				t.Errorf("alice's Vengeful Shrooms take bob's 6 for %d tokens, want %d (a marker for bob)", got, want)
			}
		},
	}
	for name, run := range cases {
		t.Run(name, run)
	}
}
