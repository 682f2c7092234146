package smallworld

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Mixing Small World and Small World Underground, as the Underground rulebook's
// compatibility section says ("Compatibilità con Small World"; English reference
// smallworld-underground.en.md §6, sources §4 "Compatibility"):
//
//   - the "races" option of a game that mixes (variant.mix) chooses the banners and
//     badges in the stacks: "underground" (the variant's own, the default),
//     "surface" (the mixed-in variant's) or "all";
//   - abilities that make no sense on the board ("legati a tipi di terreno che non
//     esistono o … a Luoghi mitici o Reliquie che non sono in gioco") are left out of
//     the stacks before the game starts (sources §4: "before start"; the Italian
//     "scartati quando entrano in gioco" draws the next one instead, which leaves the
//     same stacks): an ability's needs (ability.needs) name the features it refers to,
//     and one of them must be on the board;
//   - terrains play as their equivalents (terrains.json "as": Mud Pool = Swamp,
//     Mushroom Forest = Forest, Black Mountain = Mountain; Crystal Grove = magic
//     source, Mine = mine by their symbols) and rivers as seas and lakes for the
//     abilities (featWater); a sea stays a sea: nobody crosses it with one token
//     (★ en §7.21);
//   - a surface board gets places and relics: 2 + 2 × players monster tokens, two on
//     each of players + 1 lost-tribe regions, never two bordering (drawn at random:
//     draw "monsters", ★ en §7.21; as many as fit apart); the other lost-tribe regions
//     keep their lost tribe; the face-down pool then has one place or relic per
//     monster region, as on an Underground board (prepareSurface).

// Board features an ability may need besides the terrain classes (Farmland, Forest,
// Hill, Mountain, Swamp).
const (
	featWater   = "water"   // a sea, a lake or a river
	featMine    = "mine"    // the mine symbol (an Underground Mine)
	featMagic   = "magic"   // the magic symbol (an Underground Crystal Grove)
	featCavern  = "cavern"  // the cavern symbol
	featChasm   = "chasm"   // an abyssal chasm
	featVolcano = "volcano" // a chasm with the volcano symbol
	featPlaces  = "places"  // places and relics are in play (monster regions)
	featRelics  = "relics"
)

// Values of the "races" option.
const (
	racesUnderground = "underground"
	racesSurface     = "surface"
	racesAll         = "all"
)

// offers reports whether feature f (a terrain class or a feat…) is on board b.
func (b *board) offers(f string) bool {
	monster, volcano := undergroundSymbols()
	for r := range b.regions {
		var ok bool
		switch f {
		case featWater:
			ok = b.water[r]
		case featMine:
			ok = b.has(r, symMine)
		case featMagic:
			ok = b.has(r, symMagic)
		case featCavern:
			ok = b.has(r, symCavern)
		case featChasm:
			ok = b.blocked[r]
		case featVolcano:
			ok = b.blocked[r] && b.has(r, volcano)
		case featPlaces, featRelics:
			ok = b.has(r, monster)
		default:
			ok = b.class[r] == f
		}
		if ok {
			return true
		}
	}
	return false
}

// fits reports whether ability ab makes sense on board b: it needs nothing, or one of
// its features is there.
func (ab *ability) fits(b *board) bool {
	return len(ab.needs) == 0 || slices.ContainsFunc(ab.needs, b.offers)
}

// racesOption reads the "races" option (racesUnderground when absent).
func racesOption(opts map[string]json.RawMessage) (string, error) {
	raw, ok := opts["races"]
	if !ok {
		return racesUnderground, nil
	}
	var v string
	if json.Unmarshal(raw, &v) != nil || (v != racesUnderground && v != racesSurface && v != racesAll) {
		return "", engine.Illegal("%s=%s: use %s", "races", string(raw), "races="+racesUnderground+"|"+racesSurface+"|"+racesAll)
	}
	return v, nil
}

// pools returns the names of the races and powers that go into the stacks of a game
// on board b: those the "races" option chooses that make sense on b.
func (v *variant) pools(c *catalogue, b *board, opts map[string]json.RawMessage) (races, powers []string, err error) {
	if v.mix == nil {
		return c.raceNames, c.powerNames, nil
	}
	choice, err := racesOption(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", v.game, err)
	}
	drop := func(n string) bool {
		switch {
		case choice == racesUnderground && c.mixed[n], choice == racesSurface && !c.mixed[n]:
			return true
		}
		return !abilityOf(n).fits(b)
	}
	races = slices.DeleteFunc(slices.Clone(c.raceNames), drop)
	powers = slices.DeleteFunc(slices.Clone(c.powerNames), drop)
	if len(races) == 0 || len(powers) == 0 {
		return nil, nil, fmt.Errorf("%s: races=%s leaves no race or no power on map %s", v.game, choice, b.name)
	}
	return races, powers, nil
}

// prepareSurface puts monsters on a surface board (one with lost-tribe regions and no
// monster region) for players: players + 1 lost-tribe regions, shuffled (draw
// "monsters") and taken in that order, skipping one that borders a region already
// taken; they lose their lost tribe.
func prepareSurface(b *board, players int, rng *engine.Rand) (*board, error) {
	var tribes []string
	for r := range b.regions {
		if b.has(r, symLostTribe) {
			tribes = append(tribes, b.ids[r])
		}
	}
	order, err := rng.Shuffle("monsters", tribes)
	if err != nil {
		return nil, fmt.Errorf("place monsters: %w", err)
	}
	want := min(players+1, maxMonsterRegions)
	var taken []int
	for _, id := range order {
		r := b.index[atoi(id)]
		if len(taken) < want && !slices.ContainsFunc(taken, func(t int) bool { return b.adjSet[r][t] }) {
			taken = append(taken, r)
		}
	}
	add := map[int]string{}
	for _, r := range taken {
		add[r] = "monster"
	}
	return b.withSymbols(add, "lost-tribe")
}

// withSymbols returns board b with symbol add[r] added to region r, and drop removed
// from those regions: a copy sharing what the symbols do not change (the adjacency,
// the terrains), checked as parseUndergroundBoard checks a board read from its data
// (TestWithSymbols compares the two).
func (b *board) withSymbols(add map[int]string, drop string) (*board, error) {
	terrains, err := builtinTerrains()
	if err != nil {
		return nil, err
	}
	n := *b
	n.regions, n.sym, n.ford = slices.Clone(b.regions), slices.Clone(b.sym), slices.Clone(b.ford)
	for r, sym := range add {
		syms := slices.DeleteFunc(slices.Clone(n.regions[r].Symbols), func(s string) bool { return s == drop })
		if slices.Contains(syms, sym) {
			return nil, fmt.Errorf("map %s: region %d: symbol %q given twice", b.name, b.id(r), sym)
		}
		n.regions[r].Symbols = append(syms, sym)
		n.sym[r] = 0
		for _, s := range n.regions[r].Symbols {
			k := terrains.symbol(s)
			if k < 0 {
				return nil, fmt.Errorf("map %s: region %d: unknown symbol %q", b.name, b.id(r), s)
			}
			n.sym[r] |= 1 << k
		}
		if td := terrains.terrain(b.terrain[r]); td != nil {
			for _, s := range td.Symbols {
				n.sym[r] |= 1 << terrains.symbol(s)
			}
		}
	}
	n.caverns = nil
	for r := range n.sym {
		if n.sym[r]&symCavern != 0 {
			n.caverns = append(n.caverns, r)
		}
	}
	n.before = nil // the board a game plays: its rules' version is chosen already
	if err := finishUnderground(&n); err != nil {
		return nil, err
	}
	return &n, nil
}
