package smallworld

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/archivetest"
)

// archives maps the games of the archives kept in testdata to their engines.
var archives = engine.Registry{"smallworld": Game{}, "underground": Underground{}, "necromancer": Necromancer{}}

// TestRules0Archives: games recorded before the rules of issue 21 (their setup names
// no rules version: rulesOriginal) still replay exactly as they were played — every
// state's hash is the one recorded. testdata/rules0 holds two self-played games and
// three played for the points that changed: a Tomb decline that ended the turn at
// once, the Crypt's region conquered with Lara's Ghost left where it stood, and a
// Necromancer who drew his powers skipping Diplomat, kept his power on his first turn
// and got the souls of declined Elves leaving the map at his owner's next decline.
func TestRules0Archives(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "rules0", "*.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("archives %v: %v", files, err)
	}
	for _, f := range files {
		a := archivetest.Read(t, filepath.Join("testdata", "rules0", filepath.Base(f)))
		for i, e := range a.Events {
			if e.Hash == "" {
				t.Fatalf("%s: event %d has no hash", f, i+1)
			}
		}
		if _, err := engine.ReplayAll(archives, a, -1); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// underRules returns the archive a with its setup's rules version set to rules and its
// hashes dropped: the same commands, played under other rules.
func underRules(t *testing.T, a *engine.Archive, rules int) *engine.Archive {
	t.Helper()
	var setup map[string]json.RawMessage
	if err := json.Unmarshal(a.Setup, &setup); err != nil {
		t.Fatal(err)
	}
	setup["rules"] = json.RawMessage(strconv.Itoa(rules))
	b := *a
	b.Setup, _ = json.Marshal(setup)
	b.Events = slices.Clone(a.Events)
	for i := range b.Events {
		b.Events[i].Hash = ""
	}
	return &b
}

// ugText starts a 2-player Underground game under the current rules (races=all),
// alice picking Liches with power and bob Ratmen with Stout, the pool's top fixed.
func ugText(t *testing.T, power, pool string) *state {
	t.Helper()
	s, _ := newUnderground(t, 2, nil, `{"rules":2,"races":["Liches","Ratmen"],"powers":["`+power+`","Stout"],"pool":[`+pool+`]}`)
	return apply(t, s, "alice: pick 1")
}

// TestTombLastRedeployment (issue 21 point 1, Tomb, Italian p. 13): «Quando entri in
// Declino, puoi tenere tutti i segnalini Non morti sulla mappa da gioco. Puoi Compiere
// un'ultima Ridistribuzione durante il turno in cui vai in Declino.» Alice's Tomb
// Liches go into decline keeping their 10 tokens; her turn goes on with the last
// redeployment (redeploy, then done), and she scores when she ends it. Under the
// rules of the games recorded before (testdata/rules0/underground_tomb.json) the
// decline ended the turn at once: bob conquered next.
func TestTombLastRedeployment(t *testing.T) {
	s := ugText(t, "Tomb", "")
	s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: redeploy 26=5 27=5", "alice: done",
		"bob: pick 1", "bob: done", "alice: decline")
	held(t, s, 26, "alice", "Liches", 5)
	isDeclined(t, s, 26, true)
	toAct(t, s, "alice")
	legalHas(t, s, "alice", "redeploy <region>=<tokens> … # the region ends with that many; regions 26,27; the last redeployment of your race in decline", "done")
	legalLacks(t, s, "alice", "pick 1", "decline")
	rejects(t, s, "alice", "pick 1", "last redeployment")
	rejects(t, s, "alice", "redeploy 26=10 27=0", "at least one token")
	rejects(t, s, "alice", "redeploy 26=6", "more than you have")
	rejects(t, s, "bob", "conquer 27", "not your turn")
	coins(t, s, "alice", 7)
	s = apply(t, s, "alice: redeploy 26=9 27=1")
	held(t, s, 26, "alice", "Liches", 9)
	held(t, s, 27, "alice", "Liches", 1)
	toAct(t, s, "alice")
	s = apply(t, s, "alice: done")
	coins(t, s, "alice", 9) // two regions of the race in decline
	toAct(t, s, "bob")
	s = apply(t, s, "bob: conquer 27", "bob: done")
	held(t, s, 26, "alice", "Liches", 9) // nothing left to redeploy: 27 had one token

	// With one region there is nothing to redeploy: the decline ends the turn.
	s = ugText(t, "Tomb", "")
	s = apply(t, s, "alice: conquer 26", "alice: done", "bob: pick 1", "bob: done", "alice: decline")
	toAct(t, s, "bob")

	// The deadline passes during the last redeployment: done.
	s = ugText(t, "Tomb", "")
	s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done", "bob: pick 1", "bob: done", "alice: decline")
	if got := s.SkipCommands("alice"); !slices.Equal(got, []string{"done"}) {
		t.Errorf("skip %q, want done", got)
	}

	old := archivetest.Read(t, filepath.Join("testdata", "rules0", "underground_tomb.json"))
	states, err := engine.ReplayAll(archives, old, -1)
	if err != nil {
		t.Fatal(err)
	}
	toAct(t, states[8].(*state), "bob") // rulesOriginal: the decline took the whole turn
	if _, err := engine.ReplayAll(archives, underRules(t, old, rulesText), -1); err == nil || !strings.Contains(err.Error(), "event 9") {
		t.Errorf("the old commands under rulesText: %v, want event 9 (bob conquers in alice's turn) refused", err)
	}
}

// TestCryptTaken (issue 21 point 2, Crypt of the Tomb-raider, Italian p. 15): «Quando
// un avversario conquista la Regione in cui si trova la Cripta, il Fantasma di Lara è
// rimosso e cade sotto il controllo del conquistatore.» Alice's Liches find the Crypt
// in 23 and put Lara's Ghost on the river 25; bob conquers 23: the Ghost leaves the
// map (25 may be conquered again) and bob, holding the Crypt, places it. Under the
// rules of the games recorded before (testdata/rules0/underground_crypt.json) it
// stayed on 25.
func TestCryptTaken(t *testing.T) {
	s := ugText(t, "Spirit", `"Crypt of the Tomb-raider"`)
	s = reveal(t, s, "alice", "conquer 23", "Crypt of the Tomb-raider")
	s = apply(t, s, "alice: ghost 25", "alice: done", "bob: pick 1")
	pieces(t, s, 25, Pieces{"laras_ghost": 1})
	rejects(t, s, "bob", "conquer 25", "protected by Lara's Ghost")
	legalLacks(t, s, "bob", "ghost 24")
	s = apply(t, s, "bob: conquer 23")
	pieces(t, s, 25, Pieces{})
	pieces(t, s, 23, Pieces{"crypt_of_the_tomb_raider": 1})
	if why := s.immune(s.b.index[25]); why.Key != "" {
		t.Errorf("25 is still immune: %s", why)
	}
	legalHas(t, s, "bob", "ghost 25", "ghost 27")
	legalLacks(t, s, "bob", "ghost 23")
	s = apply(t, s, "bob: ghost 27", "bob: done")
	pieces(t, s, 27, Pieces{"laras_ghost": 1})
	rejects(t, s, "alice", "ghost 26", "only the active race with")

	old := archivetest.Read(t, filepath.Join("testdata", "rules0", "underground_crypt.json"))
	states, err := engine.ReplayAll(archives, old, -1)
	if err != nil {
		t.Fatal(err)
	}
	pieces(t, states[6].(*state), 25, Pieces{"laras_ghost": 1}) // rulesOriginal: bob took 23, the Ghost stayed
	states, err = engine.ReplayAll(archives, underRules(t, old, rulesText), -1)
	if err != nil {
		t.Fatal(err)
	}
	pieces(t, states[6].(*state), 25, Pieces{})
}

// necroText is necroFixed under the current rules.
const necroText = `{"rules":2,"races":["Ratmen","Humans","Elves","Dwarves"],"powers":["Diplomat","Spirit","Forest","Hill","Swamp","Merchant","Alchemist","Commando","Seafaring","Heroic"]}`

// TestNecromancerDraw (issue 21 point 3, Modifiche alla Preparazione): «Se vengono
// pescati i Poteri Cursed, Spirit o Stout, questi devono essere ignorati e bisogna
// pescare altri Poteri Speciali al loro posto.» Only those are re-drawn: the
// Necromancer draws Diplomat (the top badge), Spirit is re-drawn. Kept, Diplomat
// makes no pact for his Ghosts («I Fantasma sono considerati sempre come una Razza in
// Declino […]; per cui non è possibile stringervi patti diplomatici»). Under the rules
// of the games recorded before, Diplomat was re-drawn too
// (testdata/rules0/necromancer.json).
func TestNecromancerDraw(t *testing.T) {
	s := newNecro(t, 3, nil, necroText)
	if nv := view(s).Necromancer; !slices.Equal(nv.Spare, []string{"Diplomat", "Forest", "Hill", "Swamp", "Merchant", "Alchemist"}) {
		t.Errorf("drawn %q", nv.Spare)
	}
	if s.Offer[0].Power != "Spirit" {
		t.Errorf("offer %+v: Spirit, re-drawn, stays on top of the stack", s.Offer)
	}
	s = apply(t, s, "carol: keep 1", "alice: pick 2", "alice: conquer 3", "alice: done", "bob: pick 1", "bob: done")
	legalLacks(t, s, "carol", "ally alice", "ally bob")
	rejects(t, s, "carol", "ally alice", "no diplomatic pact")

	old := archivetest.Read(t, filepath.Join("testdata", "rules0", "necromancer.json"))
	st, err := engine.Replay(archives, old, 0)
	if err != nil {
		t.Fatal(err)
	}
	if nv := view(st.(*state)).Necromancer; slices.Contains(nv.Spare, "Diplomat") {
		t.Errorf("rulesOriginal: drawn %q, Diplomat re-drawn", nv.Spare)
	}
}

// TestNecromancerKeepsAtSetup (issue 21 point 4, Modifiche alla Preparazione): «Il
// Necromante sceglie 1 dei 6 Poteri e lo posiziona, insieme al Pozzo, vicino al
// tabellone. Gli altri 5 Poteri Speciali ed i 13 Fantasma vengono messi nella riserva
// […]. La preparazione del gioco prosegue come da regolamento.» He keeps his power
// before the first turn: the game begins with him to act (keep N, nothing else; a
// missed deadline keeps the first), and the first player's turn begins once he has.
// Under the rules of the games recorded before he kept it on his own first turn
// (testdata/rules0/necromancer.json, event 8).
func TestNecromancerKeepsAtSetup(t *testing.T) {
	s := newNecro(t, 3, nil, necroText)
	toAct(t, s, "carol")
	if s.TurnNo != 1 {
		t.Errorf("turn %d, want 1", s.TurnNo)
	}
	if got := s.Legal("carol"); !slices.Equal(got, []string{"keep 1", "keep 2", "keep 3", "keep 4", "keep 5", "keep 6"}) {
		t.Errorf("the Necromancer may send %q, want keep 1 to keep 6", got)
	}
	legalHas(t, s, "carol", "keep 5 # Merchant; the other powers go to your reserve")
	rejects(t, s, "carol", "buy ghost", "first choose the power")
	rejects(t, s, "alice", "pick 1", "not your turn")
	if got := s.SkipCommands("carol"); !slices.Equal(got, []string{"keep 1"}) {
		t.Errorf("skip %q, want keep 1", got)
	}
	s = apply(t, s, "carol: keep 5")
	toAct(t, s, "alice")
	if s.TurnNo != 1 || view(s).Necromancer.Powers[0] != "Merchant" {
		t.Errorf("turn %d, powers %q", s.TurnNo, view(s).Necromancer.Powers)
	}
	s = apply(t, s, "alice: pick 2", "alice: done", "bob: pick 1", "bob: done")
	legalLacks(t, s, "carol", "keep 1")
	legalHas(t, s, "carol", "buy ghost")

	old := archivetest.Read(t, filepath.Join("testdata", "rules0", "necromancer.json"))
	states, err := engine.ReplayAll(archives, old, -1)
	if err != nil {
		t.Fatal(err)
	}
	toAct(t, states[0].(*state), "alice")
	if old.Events[7].Command != "keep 4" {
		t.Fatalf("event 8 is %q", old.Events[7].Command)
	}
	if _, err := engine.ReplayAll(archives, underRules(t, old, rulesText), -1); err == nil || !strings.Contains(err.Error(), "event 1") {
		t.Errorf("the old commands under rulesText: %v, want event 1 refused (the Necromancer keeps first)", err)
	}
}

// TestNecromancerElves (issue 21 point 8, Alcune considerazioni): «Sebbene nel Pozzo
// delle Anime non verrà mai aggiunto un segnalino degli Elfi dopo una conquista […],
// comunque ogni segnalino Elfo scartato quando la Razza entra in Declino si aggiunge
// al Pozzo delle Anime.» "La Razza" is the Elves: the Elf tokens leave for the Well
// when the Elves go into decline, and «Ogni altro segnalino rimosso quando una razza
// entra in Declino viene scartato nel Contenitore» — so the one Elf left on region 12
// goes to the box when bob's next race, the Dwarves, goes into decline. Under the
// rules of the games recorded before it went to the Well
// (testdata/rules0/necromancer.json: the same game, the Well holds one soul more).
func TestNecromancerElves(t *testing.T) {
	// soulsIn is how many souls reached the Well between two views: those still there,
	// and four for each Ghost the Well summoned from the reserve (it holds no Ghost).
	soulsIn := func(before, after *NecromancerView) int {
		return after.WellSouls - before.WellSouls + soulsPerGhost*(before.Reserve-after.Reserve)
	}
	s := apply(t, newNecro(t, 3, nil, necroText), "carol: keep 4")
	s = apply(t, s, "alice: pick 1", "alice: conquer 3", "alice: conquer 7", "alice: done",
		"bob: pick 2", "bob: conquer 12", "bob: done", "carol: buy ghost", "carol: buy ghost", "carol: conquer 13", "carol: done",
		"alice: done")
	held(t, s, 12, "bob", "Elves", 1)
	hand(t, s, "bob", 10)
	before := view(s).Necromancer
	s = apply(t, s, "bob: decline") // the ten Elves in hand leave the map: to the Well
	if n := soulsIn(before, view(s).Necromancer); n != 10 {
		t.Errorf("%d souls from the Elves' decline, want 10", n)
	}
	s = apply(t, s, "carol: done", "alice: done", "bob: pick 2", "bob: conquer 17", "bob: done", "carol: done", "alice: done")
	held(t, s, 12, "bob", "Elves", 1)
	before = view(s).Necromancer
	s = apply(t, s, "bob: decline") // the Dwarves go into decline, the last Elf leaves 12: to the box
	held(t, s, 12, "", "", 0)
	if n := soulsIn(before, view(s).Necromancer); n != 0 {
		t.Errorf("%d souls from the Dwarves' decline, want 0", n)
	}

	old := archivetest.Read(t, filepath.Join("testdata", "rules0", "necromancer.json"))
	states, err := engine.ReplayAll(archives, old, -1)
	if err != nil {
		t.Fatal(err)
	}
	i := len(old.Events) - 1 // the Dwarves' decline, then carol's done
	if old.Events[i-1].Command != "decline" {
		t.Fatalf("event %d is %q", i, old.Events[i-1].Command)
	}
	if n := soulsIn(view(states[i-1].(*state)).Necromancer, view(states[i].(*state)).Necromancer); n != 1 {
		t.Errorf("rulesOriginal: %d souls from the Dwarves' decline, want 1 (the Elf)", n)
	}
}

// TestCultistsAncientAdjacency (Cultists, Italian p. 11): «Conquistare una Regione
// adiacente a quella che contiene il Grande Antico (alcune Regioni possono essere
// adiacenti grazie a un'Abilità di Razza, a un Potere speciale, a un Luogo mitico o a
// una Reliquia) ti costa un segnalino Cultista in meno». Underworld Cultists on the
// 2-player surface board put the Great Ancient in the cavern 18; the cavern 4 (a lost
// tribe: 3, less 1 for Underworld) borders nothing of theirs, but Underworld makes
// every cavern adjacent to the others: 1 token under rulesText, 2 under the rules of
// the games recorded before (board borders only).
func TestCultistsAncientAdjacency(t *testing.T) {
	costs := map[int][2]int{}
	for _, rules := range []int{rulesOriginal, rulesText} {
		s, _ := newUnderground(t, 2, map[string]json.RawMessage{"map": json.RawMessage(`"smallworld-2p"`)},
			`{"rules":`+strconv.Itoa(rules)+`,"races":["Cultists","Ratmen"],"powers":["Underworld","Stout"]}`)
		s = apply(t, s, "alice: pick 1", "alice: conquer 18")
		pieces(t, s, 18, Pieces{"great_ancient": 1})
		costs[rules] = [2]int{s.cost(0, slotActive, s.b.index[4]), s.cost(0, slotActive, s.b.index[12])}
	}
	if costs[rulesText][0] != costs[rulesOriginal][0]-1 || costs[rulesText][1] != costs[rulesOriginal][1] {
		t.Errorf("the cavern 4 and the farmland 12 cost %v under rulesText, %v before; want one token fewer for 4 only", costs[rulesText], costs[rulesOriginal])
	}
}

// TestFlamesEnterByTheEdge (Flames, Italian pp. 5 and 10): «Se il giocatore di turno
// usa per la prima volta una Razza, deve conquistare una Regione adiacente al bordo
// della mappa da gioco (incluse le due Regioni di Fiume adiacenti al bordo)»; the
// Flames' text («Quando scegli questa Razza, piazza il Vulcano […]. Considera ogni
// Regione adiacente al Vulcano […] come se fosse vuota ai fini della conquista») says
// nothing of where they enter. Under rulesText they enter by the edge like every race;
// under the rules of the games recorded before they entered next to the Volcano only
// (the English edition of 2018, sources §4).
func TestFlamesEnterByTheEdge(t *testing.T) {
	for _, rules := range []int{rulesOriginal, rulesText} {
		s, _ := newUnderground(t, 2, nil, `{"rules":`+strconv.Itoa(rules)+`,"races":["Flames","Ratmen"],"powers":["Stout","Spirit"]}`)
		s = apply(t, s, "alice: pick 1")
		edge, inner := -1, -1
		for _, c := range volcanoRegions(s) {
			if inner >= 0 {
				break
			}
			edge = -1
			for r := range s.Regions {
				switch {
				case s.b.blocked[r] || s.b.water[r] || s.Regions[r].Owner != ownerNone:
				case s.b.entry[r] && !s.b.adjSet[c][r] && edge < 0:
					edge = r
				case !s.b.entry[r] && s.b.adjSet[c][r] && inner < 0:
					inner = r
				}
			}
			if inner >= 0 && s.volcano() != c {
				s = apply(t, s, "alice: volcano "+s.b.ids[c])
			}
		}
		if edge < 0 || inner < 0 {
			t.Fatalf("no empty edge region away from a Volcano (%d) or inner region next to it (%d)", edge, inner)
		}
		edgeOK, innerOK := s.block(0, slotActive, edge, false) == okTarget, s.block(0, slotActive, inner, false) == okTarget
		if edgeOK != (rules == rulesText) || innerOK != (rules == rulesOriginal) {
			t.Errorf("rules %d: edge region %d open %v, region %d next to the Volcano open %v", rules, s.b.id(edge), edgeOK, s.b.id(inner), innerOK)
		}
	}
}

// TestImmuneAgainstOpponents (Immune regions, Italian p. 9): «Una Regione resa Immune
// dalla presenza del Balrog, del Fantasma di Lara, del Grande Antico o della Regina
// nera non può essere conquistata dagli avversari». Alice's Royal Liches leave the
// Black Queen on 26 when they go into decline («Se vai in Declino la Regina nera resta
// dov'è e continua a rendere la Regione Immune»): bob may not conquer it, but alice's
// own new race may (it is no opponent). Under the rules of the games recorded before
// the Queen kept out her own race too.
func TestImmuneAgainstOpponents(t *testing.T) {
	for _, rules := range []int{rulesOriginal, rulesText} {
		s, _ := newUnderground(t, 2, nil, `{"rules":`+strconv.Itoa(rules)+`,"races":["Liches","Ratmen","Mummies"],"powers":["Royal","Stout","Spirit"]}`)
		s = apply(t, s, "alice: pick 1", "alice: conquer 26", "alice: conquer 27", "alice: done",
			"bob: pick 1", "bob: done", "alice: decline")
		pieces(t, s, 26, Pieces{"black_queen": 1})
		rejects(t, s, "bob", "conquer 26", "protected by the Black Queen")
		s = apply(t, s, "bob: done", "alice: pick 1")
		if rules == rulesOriginal {
			rejects(t, s, "alice", "conquer 26", "protected by the Black Queen")
			continue
		}
		s = apply(t, s, "alice: conquer 26")
		if r := regionView(t, s, 26); r.Owner == nil || *r.Owner != "alice" || r.Race != "Mummies" || r.Declined {
			t.Errorf("region 26: %+v, want alice's Mummies", r)
		}
	}
}

// TestMagicBagStandsFor (Magic, Italian p. 12): «La Sacca delle meraviglie duplica una
// Reliquia in gioco; ogni turno decidi quale e utilizzi la Sacca delle meraviglie per
// rappresentarla. […] Se la Regione contenente la Sacca delle meraviglie è conquistata
// o abbandonata, riprendi in mano la Sacca delle meraviglie.» Any relic in play: bob's
// Magic Ratmen copy the Scepter alice's Liches found in 23 and put the Bag in 27,
// whose coin is doubled («Raddoppi il numero di Monete ottenute da questa Regione»);
// the next turn, copying nothing, the Bag in 27 gives nothing; alice conquers 27 and
// the Bag leaves the map. Under the rules of the games recorded before the Bag copied
// only the four relics that conquer. (The Ring copied works as the Ring, ringRegion.)
func TestMagicBagStandsFor(t *testing.T) {
	for _, rules := range []int{rulesOriginal, rulesText} {
		s, _ := newUnderground(t, 2, nil, `{"rules":`+strconv.Itoa(rules)+`,"races":["Liches","Ratmen"],"powers":["Spirit","Magic"],"pool":["Scepter of Avarice"]}`)
		s = apply(t, s, "alice: pick 1")
		s = reveal(t, s, "alice", "conquer 23", "Scepter of Avarice")
		s = apply(t, s, "alice: done", "bob: pick 1", "bob: conquer 26")
		if rules == rulesOriginal {
			legalLacks(t, s, "bob", "bag scepter")
			rejects(t, s, "bob", "bag scepter", "copies a relic on the map")
			continue
		}
		legalHas(t, s, "bob", "bag scepter")
		rejects(t, s, "bob", "bag 26", "copies the Scepter or the Ring")
		s = apply(t, s, "bob: bag scepter", "bob: conquer 27")
		legalHas(t, s, "bob", "bag 26 # Bag of Wonders here, as Scepter of Avarice", "bag 27")
		coins := s.Players[1].Coins
		s = apply(t, s, "bob: bag 27")
		n := int(s.Regions[s.b.index[26]].Tokens+s.Regions[s.b.index[27]].Tokens) + s.army(1, slotActive).Hand
		s = apply(t, s, fmt.Sprintf("bob: redeploy 26=%d 27=1", n-1), "bob: done")
		pieces(t, s, 27, Pieces{"bag_of_wonders": 1})
		if got := s.Players[1].Coins - coins; got != 3 {
			t.Errorf("bob scores %d, want 2 regions + 27 again", got)
		}
		s = apply(t, s, "alice: done", "bob: done")
		if got := s.Players[1].Coins - coins; got != 5 {
			t.Errorf("bob has scored %d over two turns, want 3 + 2", got)
		}
		s = apply(t, s, "alice: conquer 27")
		pieces(t, s, 27, Pieces{})
	}
}
