package engine

// Kinds of Happening, for templates that mark or group them.
const (
	HapConquest = "conquest" // a region taken (Hit names the player who lost it)
	HapLoss     = "loss"     // tokens or armies lost otherwise (Hit names who lost them)
	HapCombo    = "combo"    // a race and power taken from the offer
	HapDecline  = "decline"  // a race put into decline, or leaving the map
	HapMove     = "move"     // tokens or armies moved, placed or redeployed
	HapScore    = "score"    // coins or points scored, with their breakdown in Details
	HapCard     = "card"     // a card taken, with what it gives
	HapBid      = "bid"      // a bid given or revealed
	HapBuild    = "build"    // a city, a fortress or another piece put on the map
	HapOther    = "other"    // anything else worth saying
)

// Happening is one thing a command did, as its readers learn it from the account of
// the game ("what happened since your last mail"). It is language-neutral: Text and
// Details are keys and arguments that templates and message catalogues put into words.
type Happening struct {
	// Kind is one of the Hap constants.
	Kind string `json:"kind"`
	// Actor is the player who acted ("" when the game itself did: a bid resolved).
	Actor string `json:"actor,omitempty"`
	// Hit names the players it harmed: the defender of a conquest, the owner of a
	// destroyed army; a template can tell them "you".
	Hit []string `json:"hit,omitempty"`
	// Text says what happened.
	Text Text `json:"text"`
	// Details are the lines under it: a score's breakdown.
	Details []Text `json:"details,omitempty"`
}

// Narrator is implemented by states that can say what a command did. The receiver
// is the state the command was applied to, after the state it gave. Narrate is a
// pure function of the two states, the player and the command, so an account is
// replayed from the event log and nothing is stored for it. viewer is the reader: a
// secret (a sealed bid, another player's coins) is left out or masked for them; the
// empty viewer sees everything, Observer the public view.
type Narrator interface {
	Narrate(player, command string, after State, viewer string) []Happening
}

// Narrate returns what command, given by player to before, did (leading to after),
// as viewer may learn it; nil when the game does not narrate (the command then speaks
// for itself) or when a state is missing.
func Narrate(before State, player, command string, after State, viewer string) []Happening {
	n, ok := before.(Narrator)
	if !ok || after == nil {
		return nil
	}
	return n.Narrate(player, command, after, viewer)
}

// Score is a player's final score with its breakdown.
type Score struct {
	Player string `json:"player"`
	Total  int    `json:"total"`
	// Parts are the lines of the breakdown, each a Text.
	Parts []Text `json:"parts,omitempty"`
}

// Scorer is implemented by states that can explain every player's score (the
// end-of-game mail shows it).
type Scorer interface {
	Scores() []Score
}
