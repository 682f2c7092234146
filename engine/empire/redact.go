package empire

// HiddenOutcome implements engine.Redactor: the order of the card deck (draw "deck")
// is hidden from the players; boards, leaders, tokens and dice are public.
func (Game) HiddenOutcome(name, viewer string) bool { return name == "deck" }

// HiddenSetup implements engine.Redactor: the fixed deck order and the seed that
// shuffles the deck are hidden.
func (Game) HiddenSetup(field, viewer string) bool { return field == "seed" || field == "deck" }
