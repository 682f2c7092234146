package smallworld

import "slices"

// faceDown are the draws and setup fields that order face-down stacks: the race banners
// and power badges (the reshuffled badges too) below the six offered, and Underground's
// pool of places and relics (and the shuffle that reveals one of them). Dice and the
// monsters placed face up are public.
var faceDown = []string{"races", "powers", "pool", "reveal"}

// hiddenOutcome is the engine.Redactor outcome rule shared by the Small World games.
func hiddenOutcome(name string) bool { return slices.Contains(faceDown, name) }

// hiddenSetup is the engine.Redactor setup rule shared by the Small World games: the
// stack orders and the seed that shuffles them.
func hiddenSetup(field string) bool { return field == "seed" || slices.Contains(faceDown, field) }

// HiddenOutcome implements engine.Redactor.
func (Game) HiddenOutcome(name, viewer string) bool { return hiddenOutcome(name) }

// HiddenSetup implements engine.Redactor.
func (Game) HiddenSetup(field, viewer string) bool { return hiddenSetup(field) }

// HiddenOutcome implements engine.Redactor.
func (Necromancer) HiddenOutcome(name, viewer string) bool { return hiddenOutcome(name) }

// HiddenSetup implements engine.Redactor.
func (Necromancer) HiddenSetup(field, viewer string) bool { return hiddenSetup(field) }

// HiddenOutcome implements engine.Redactor.
func (Underground) HiddenOutcome(name, viewer string) bool { return hiddenOutcome(name) }

// HiddenSetup implements engine.Redactor.
func (Underground) HiddenSetup(field, viewer string) bool { return hiddenSetup(field) }
