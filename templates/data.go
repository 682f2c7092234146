package templates

// Line is one command line of a player's mail, numbered as in the reply text.
type Line struct {
	N    int
	Text string
}

// LineError is the command line that was refused and why.
type LineError struct {
	Line
	Reason string
}

// Move is one accepted event, in words.
type Move struct {
	Seq     int
	Player  string
	Command string
}

// Game identifies the game a mail is about.
type Game struct {
	ID    string
	Kind  string // engine name, e.g. "smallworld"
	Title string // e.g. "Small World"
}

// State is the data of a state mail: what happened, the state as the recipient may see
// it, and the commands legal for them now.
type State struct {
	Game Game
	// Player is the recipient's seat name ("" for observers and lists).
	Player string
	// Opening is true for the first mail of a game.
	Opening bool
	// Moves are the events since the recipient's last mail.
	Moves []Move
	// Applied and Error report on the recipient's own mail, when this answers one.
	Applied []Line
	Error   *LineError
	// ToAct are the players who must act now; YourTurn is true when the recipient is one.
	ToAct    []string
	YourTurn bool
	// Legal are the commands the recipient may send now, ready to copy.
	Legal    []string
	Finished bool
	Winners  []string
	// View is the engine's view for the recipient, decoded from its JSON.
	View map[string]any
	// ReplyTo is the recipient's personal reply address.
	ReplyTo string
}

// Refusal is the data of a mail that answers a mail from which nothing was applied.
type Refusal struct {
	Game    Game
	Player  string
	Applied []Line
	Error   *LineError
	// Reason explains a refusal not tied to a line (e.g. the game is finished).
	Reason  string
	ToAct   []string
	Legal   []string
	ReplyTo string
}

// HowTo answers a registered player who wrote to the service address without the
// personal reply token.
type HowTo struct {
	Player  string
	Games   []HowToGame
	Service string
}

// HowToGame is one game the writer plays, with their personal reply address.
type HowToGame struct {
	Game    Game
	ReplyTo string
}

// gameTitles are the printed names of the games, by engine name.
var gameTitles = map[string]string{
	"smallworld": "Small World",
	"empire":     "Eight-Minute Empire: Legends",
}

// GameTitle returns the printed name of a game, or its engine name when unknown.
func GameTitle(kind string) string {
	if t, ok := gameTitles[kind]; ok {
		return t
	}
	return kind
}
