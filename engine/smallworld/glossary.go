package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Glossary implements engine.Glossary: Small World's races and powers.
func (Game) Glossary() []engine.Entry { return variantBase.glossary() }

// Glossary implements engine.Glossary: the races and powers of Necromancer Island.
func (Necromancer) Glossary() []engine.Entry { return variantNecromancer.glossary() }

// Glossary implements engine.Glossary: Small World Underground's races and powers
// (with Small World's, which may join them), places and relics.
func (g Underground) Glossary() []engine.Entry { return g.variant().glossary() }

// glossary lists the variant's races, powers and, when its packs have them, places
// and relics; their texts are in the abilities catalogue.
func (v *variant) glossary() []engine.Entry {
	c := v.catalogue()
	var out []engine.Entry
	for _, n := range c.raceNames {
		out = append(out, engine.Entry{Name: engine.Term(n), Kind: kindRace})
	}
	for _, n := range c.powerNames {
		out = append(out, engine.Entry{Name: engine.Term(n), Kind: kindPower})
	}
	if !slices.Contains(v.packs, packUnderground) {
		return out
	}
	for _, f := range foundPieces {
		kind := kindPlace
		if f.relic {
			kind = kindRelic
		}
		out = append(out, engine.Entry{Name: engine.Term(f.name), Kind: kind})
	}
	return out
}
