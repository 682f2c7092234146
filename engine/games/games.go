// Package games lists every rules engine turnmail ships.
package games

import (
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/engine/smallworld"
)

// Registry returns a new registry of every game, keyed by engine name.
func Registry() engine.Registry {
	return engine.Registry{
		"smallworld":  smallworld.Game{},
		"necromancer": smallworld.Necromancer{},
		"underground": smallworld.Underground{},
		"empire":      empire.Game{},
		"dungeoneer":  dungeoneer.Game{},
	}
}
