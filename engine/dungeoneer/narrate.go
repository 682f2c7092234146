package dungeoneer

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
)

var _ engine.Narrator = (*state)(nil)

// logKinds are the kinds of the log's lines (engine.Hap…) by key; a line not listed
// is HapOther. hitKeys are the lines whose first argument is the player harmed.
var (
	logKinds = map[string]string{
		"%s plays %s on %s":                   engine.HapCard,
		"%s plays %s":                         engine.HapCard,
		"%s readies %s":                       engine.HapCard,
		"%s cancels %s":                       engine.HapCard,
		"%s uses %s":                          engine.HapCard,
		"%s attaches %s to %s":                engine.HapCard,
		"%s is spent":                         engine.HapCard,
		"%s places %s at %d,%d":               engine.HapBuild,
		"%s enters %s at %d,%d":               engine.HapMove,
		"%s takes %d wounds, %d life left":    engine.HapLoss,
		"%s takes %d wounds":                  engine.HapLoss,
		"%s is slain":                         engine.HapLoss,
		"%s is defeated and leaves the game":  engine.HapLoss,
		"%s falls into the pit":               engine.HapLoss,
		"%s is knocked down":                  engine.HapLoss,
		"%s discards %s at random":            engine.HapLoss,
		"%s completes the quest %s":           engine.HapScore,
		"%s completes a third quest and wins": engine.HapScore,
		"%s wins as Dungeon Lord":             engine.HapScore,
		"%s reaches level %d":                 engine.HapScore,
		"%s is sent back to the Entrance":     engine.HapMove,
	}
	hitKeys = map[string]bool{
		"%s takes %d wounds, %d life left":   true,
		"%s is defeated and leaves the game": true,
		"%s falls into the pit":              true,
		"%s is knocked down":                 true,
		"%s discards %s at random":           true,
		"%s is sent back to the Entrance":    true,
	}
)

// directions name the sides of a move.
var directions = map[string]string{"n": "north", "e": "east", "s": "south", "w": "west"}

// Narrate implements engine.Narrator: what the command was (a move, a quest attempted,
// an exploration with the map card drawn, a discard, a monster kept), then what it set
// off in order — cards played with their targets, doors, the space entered with the
// Glory and Peril it gave, obstacles and traps with their dice, attacks with both totals and the wounds dealt, monsters slain, quests
// completed, levels, a hero defeated, a map card placed — from the state's log. A card
// is named only once it is played, discarded face up or put into play: a card that
// stays in a hand is never named, so viewer changes nothing.
func (s *state) Narrate(player, command string, after engine.State, viewer string) []engine.Happening {
	a, ok := after.(*state)
	seat := s.seat(player)
	if !ok || seat < 0 {
		return nil
	}
	who := s.Seats[seat].Name
	var out []engine.Happening
	add := func(kind string, key string, args ...any) {
		out = append(out, engine.Happening{Kind: kind, Actor: who, Text: engine.Textf(key, args...)})
	}
	f := strings.Fields(engine.Normalize(command))
	if len(f) == 0 {
		return nil
	}
	moved := a.Seats[seat].X != s.Seats[seat].X || a.Seats[seat].Y != s.Seats[seat].Y
	switch verb := f[0]; {
	case verb == "move" && len(f) == 2 && directions[f[1]] != "":
		// Where it led, after the door's test, is the log's "enters".
		add(engine.HapMove, "%s moves %s", who, engine.Term(directions[f[1]]))
	case (verb == "sewer" || verb == "portal") && moved:
		add(engine.HapMove, "%s goes through the %s", who, engine.Term(verb))
	case verb == "quest" && len(f) >= 2 && cards.quest[f[1]] != nil:
		add(engine.HapOther, "%s attempts the quest %s", who, engine.Term(cards.quest[f[1]].Name.En))
	case verb == "explore" && a.Drawn != "":
		add(engine.HapOther, "%s explores and draws %s", who, engine.Term(cards.mapc[a.Drawn].Name.En))
	case verb == "stand":
		add(engine.HapMove, "%s stands up", who)
	case verb == "discard" && len(f) == 2 && cards.adv[f[1]] != nil:
		add(engine.HapCard, "%s discards %s", who, engine.Term(cards.adv[f[1]].Name.En))
	case verb == "keep" && len(f) == 3 && cards.adv[f[1]] != nil:
		if f[2] == "pack" {
			add(engine.HapCard, "%s keeps %s in the pack", who, engine.Term(cards.adv[f[1]].Name.En))
		} else {
			add(engine.HapCard, "%s takes %s back into the hand", who, engine.Term(cards.adv[f[1]].Name.En))
		}
	case verb == "challenge" && len(f) == 3 && cards.mapc[f[1]] != nil:
		add(engine.HapOther, "%s challenges the monster of %s with %s", who, engine.Term(cards.mapc[f[1]].Name.En), formWord(f[2]))
	case verb == "challenge" && len(f) == 3:
		if t := s.findTarget(f[1]); t >= 0 {
			add(engine.HapOther, "%s challenges %s with %s", who, s.Seats[t].Name, formWord(f[2]))
		}
	case verb == "steal" && len(f) == 3:
		if t := s.findTarget(f[1]); t >= 0 {
			add(engine.HapOther, "%s tries to steal the escort quest of %s with %s", who, s.Seats[t].Name, formWord(f[2]))
		}
	case verb == "pass":
		add(engine.HapOther, "%s passes", who)
	case verb == "done":
		add(engine.HapOther, "%s ends the %s", who, PhaseText(s.Phase))
	}
	for _, t := range a.Log {
		kind := logKinds[t.Key]
		if kind == "" {
			kind = engine.HapOther
		}
		h := engine.Happening{Kind: kind, Actor: who, Text: t}
		if name, ok := firstArg(t); ok && hitKeys[t.Key] {
			h.Hit = []string{name}
		}
		out = append(out, h)
	}
	return out
}

// formWord is a form of attack (melee, magic, speed) in an account: a text of its own,
// translated by the catalogues (as a term, "magic" would be Small World's power).
func formWord(form string) engine.Text { return engine.Text{Key: form} }

// firstArg returns a log line's first argument when it is a plain string (a player's
// name).
func firstArg(t engine.Text) (string, bool) {
	if len(t.Args) == 0 {
		return "", false
	}
	s, ok := t.Args[0].(string)
	return s, ok
}
