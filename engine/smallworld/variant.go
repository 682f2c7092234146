package smallworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/turnmail/turnmail/engine"
)

// dataFiles is where a variant's data lives (an embed.FS; tests may give another).
type dataFiles interface {
	fs.ReadDirFS
	fs.ReadFileFS
}

// variant is one game of the Small World family: its engine name, the content packs
// whose terrains, symbols and abilities it knows, where its data lives and how its
// boards are validated. Small World is variantBase; Small World Underground and
// Necromancer Island are to be further variants on the same core.
type variant struct {
	game      string
	packs     []string
	fs        dataFiles
	abilities string // races-powers file
	maps      string // boards directory
	// parseBoard decodes and validates one board of the variant.
	parseBoard func(raw []byte) (*board, error)

	// Optional rules of the variant beyond the base game's (Small World Underground):
	// prepare completes the chosen board at setup for the number of players (monster
	// and volcano positions the board leaves open); setup runs once the state is
	// built (monsters, the face-down pool); rules is an ability that acts for every
	// army (rivers); afterApply runs after every applied command, with its random
	// source (a conquered monster region reveals a place or relic).
	prepare    func(b *board, players int, rng *engine.Rand) (*board, error)
	setup      func(s *state, fixed Fixed, rng *engine.Rand) error
	rules      *ability
	afterApply func(before, after *state, rng *engine.Rand) error

	// load returns the variant's data, loaded and validated on first use (after the
	// content files registered their abilities); catalogue is load that panics on an
	// error of the embedded data. The catalogue is never modified.

	// mix is the variant whose boards, races and powers may join this one's (Small
	// World for Underground: its rulebook's compatibility section); the "races" option
	// chooses the stacks (see racePool).
	mix *variant

	// players is the range of players when it is not the base game's (2–5).
	players [2]int
	// boardFor is the number of players whose printed board the game uses for n
	// players (nil: n; Necromancer Island: n−1).
	boardFor func(n int) int
	// prepareState completes a new state after the core's setup and before the offer is
	// formed (the Necromancer's Island, Ghosts and powers); nil for none.
	prepareState func(s *state, opts map[string]json.RawMessage) error

	// load returns the variant's data, loaded and validated on first use (after the
	// content files registered their abilities); catalogue is load that panics on an
	// error of the embedded data. The catalogue is never modified.
	load      func() (*catalogue, error)
	catalogue func() *catalogue
}

// newVariant returns v ready to use.
func newVariant(v variant) *variant {
	v.load = sync.OnceValues(v.loadCatalogue)
	v.catalogue = func() *catalogue {
		c, err := v.load()
		if err != nil {
			panic(v.game + ": embedded data: " + err.Error())
		}
		return c
	}
	return &v
}

// variantBase is Small World.
var variantBase = newVariant(variant{
	game: "smallworld", packs: []string{packBase}, fs: dataFS,
	abilities: "data/races-powers.json", maps: "data/maps", parseBoard: parseBoard,
})

// builtin returns Small World's data.
func builtin() *catalogue { return variantBase.catalogue() }

// raceData and powerData are the printed numbers of races-powers.json.
type raceData struct {
	Name   string `json:"name"`
	Banner int    `json:"banner_tokens"`
	Box    int    `json:"box_tokens"`
}

type powerData struct {
	Name  string `json:"name"`
	Badge int    `json:"badge_tokens"`
}

// catalogue holds a variant's boards and the numbers of its races and powers. It is
// built once from the embedded data and only read afterwards.
type catalogue struct {
	game       string // the engine's name ("smallworld")
	boards     map[string]*board
	byPlayers  map[int]string
	races      map[string]raceData
	powers     map[string]powerData
	raceNames  []string // data order
	powerNames []string
	// nameIndex numbers races (1…) and powers (after the races) for the state hash;
	// byAbility is the same number by the registry's number of the race's or power's
	// ability (army.abs), 0 for none.
	nameIndex map[string]byte
	byAbility [256]byte
	byIndex   []string // the names by their number
	// granting lists the piece kinds of the variant's packs that grant an ability;
	// grantingTerrain is set when one of them stands on a terrain (the others only
	// where a region's pieces hold them).
	granting        []*pieceKind
	grantingTerrain bool
	// variant is the game the catalogue belongs to (its optional rules).
	variant *variant
	// shields: an ability of the catalogue has a shield (Gnomes); without one the
	// core skips the check.
	shields bool
	// mixed names the races and powers that come from the mixed-in variant (nil
	// without mixing).
	mixed map[string]bool
}

// loadCatalogue reads and validates the variant's boards and its races and powers:
// every race and power of the data has rules of the right kind, and every ability of
// the variant's packs has its data line. A variant that mixes (mix) gets the other
// variant's boards, races and powers after its own.
func (v *variant) loadCatalogue() (*catalogue, error) {
	c := &catalogue{game: v.game, variant: v, boards: map[string]*board{}, byPlayers: map[int]string{}, races: map[string]raceData{}, powers: map[string]powerData{}}
	if err := c.read(v.fs, v.maps, v.abilities, v.parseBoard, true); err != nil {
		return nil, err
	}
	if v.mix != nil {
		c.mixed = map[string]bool{}
		if err := c.read(v.mix.fs, v.mix.maps, v.mix.abilities, v.parseBoard, false); err != nil {
			return nil, fmt.Errorf("%s: %w", v.mix.game, err)
		}
	}
	for name, h := range reg.abilities {
		_, race := c.races[name]
		_, power := c.powers[name]
		if (h.kind == kindRace || h.kind == kindPower) && !race && !power && slices.Contains(v.packs, h.packName()) {
			return nil, fmt.Errorf("%s %s has rules but no data", h.kind, name)
		}
	}
	if len(c.raceNames) == 0 || len(c.powerNames) == 0 {
		return nil, errors.New("no races or no powers")
	}
	for _, k := range reg.pieces {
		if k.grants != nil && slices.Contains(v.packs, k.grants.packName()) {
			c.granting = append(c.granting, k)
			c.grantingTerrain = c.grantingTerrain || k.terrain != ""
		}
	}
	for _, name := range append(slices.Clone(c.raceNames), c.powerNames...) {
		if ab := abilityOf(name); ab != nil && ab.shield {
			c.shields = true
		}
	}
	for _, k := range c.granting {
		c.shields = c.shields || k.grants.shield
	}
	// The variant's own names first, the mixed ones after: mixing leaves the numbers
	// (and so the hashes) of a game without it unchanged.
	c.nameIndex, c.byIndex = map[string]byte{}, []string{""}
	all := append(slices.Clone(c.raceNames), c.powerNames...)
	own := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return c.mixed[n] })
	mixed := slices.DeleteFunc(all, func(n string) bool { return !c.mixed[n] })
	for i, n := range append(own, mixed...) {
		if _, dup := c.nameIndex[n]; dup {
			return nil, fmt.Errorf("%s is both a race and a power", n)
		}
		c.nameIndex[n] = byte(i + 1)
		c.byIndex = append(c.byIndex, n)
		if ab, ok := reg.number[n]; ok {
			c.byAbility[ab] = byte(i + 1)
		}
	}
	return c, nil
}

// read adds the boards of directory maps (parsed by parse) and the races and powers of
// file abilities to the catalogue; own tells whether they are the variant's own (a
// board of its own may be the default for its number of players) or mixed in.
func (c *catalogue) read(fsys dataFiles, maps, abilities string, parse func([]byte) (*board, error), own bool) error {
	files, err := fsys.ReadDir(maps)
	if err != nil {
		return fmt.Errorf("read maps: %w", err)
	}
	for _, f := range files {
		raw, err := fsys.ReadFile(maps + "/" + f.Name())
		if err != nil {
			return fmt.Errorf("read %s: %w", f.Name(), err)
		}
		var m MapData
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("%s: %w", f.Name(), err)
		}
		b, err := parse(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name(), err)
		}
		if _, dup := c.boards[b.name]; dup {
			return fmt.Errorf("map %s given twice", b.name)
		}
		c.boards[b.name] = b
		if m.Players != 0 && own {
			c.byPlayers[m.Players] = b.name
		}
	}
	raw, err := fsys.ReadFile(abilities)
	if err != nil {
		return fmt.Errorf("read races-powers: %w", err)
	}
	var rp struct {
		Races  []raceData  `json:"races"`
		Powers []powerData `json:"powers"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rp); err != nil {
		return fmt.Errorf("races-powers: %w", err)
	}
	for _, r := range rp.Races {
		if _, dup := c.races[r.Name]; dup {
			return fmt.Errorf("race %s given twice", r.Name)
		}
		h := abilityOf(r.Name)
		if h == nil || h.kind != kindRace {
			return fmt.Errorf("race %s has no rules", r.Name)
		}
		if r.Banner < 1 || r.Box < r.Banner+h.attackOnly {
			return fmt.Errorf("race %s: %d tokens on the banner (+%d) but %d in the box", r.Name, r.Banner, h.attackOnly, r.Box)
		}
		c.races[r.Name] = r
		c.raceNames = append(c.raceNames, r.Name)
	}
	for _, p := range rp.Powers {
		if _, dup := c.powers[p.Name]; dup {
			return fmt.Errorf("power %s given twice", p.Name)
		}
		if h := abilityOf(p.Name); h == nil || h.kind != kindPower {
			return fmt.Errorf("power %s has no rules", p.Name)
		}
		if p.Badge < 0 {
			return fmt.Errorf("power %s: negative badge", p.Name)
		}
		c.powers[p.Name] = p
		c.powerNames = append(c.powerNames, p.Name)
	}
	if !own {
		for _, r := range rp.Races {
			c.mixed[r.Name] = true
		}
		for _, p := range rp.Powers {
			c.mixed[p.Name] = true
		}
	}
	return nil
}
