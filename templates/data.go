package templates

// Line is one command line of a player's mail, numbered as in the reply text.
type Line struct {
	N    int
	Text string
	// Suggest is the command the line may have meant (a mistyped word's nearest
	// command: "did you mean conquista 22?"), which the HTML part links as a reply
	// that sends it; "" when none.
	Suggest string
}

// LineError is the command line that was refused and why (its Suggest, when set,
// is named in Reason).
type LineError struct {
	Line
	Reason string
}

// Move is one accepted event, in words.
type Move struct {
	Seq     int
	Player  string
	Command string
	// Kind is "" for a move, "undo" or "admin" (history mails).
	Kind string
	// Day and Time are when it happened, formatted for the reader (Set.DayTime): the
	// day with its time zone ("Fri 27 November (UTC)") and the time of day ("18:55");
	// both "" when unknown. A history says a day once, as the heading of its events.
	Day, Time string
	// Happened says what the move did, in words (the account); empty when the game
	// does not say, and the command speaks for itself.
	Happened []Happening
}

// Happening is one thing a move did (engine.Happening put into words).
type Happening struct {
	// Kind is the engine's kind of happening (conquest, score, card …).
	Kind string
	Text string
	// Details are the lines under it (a score's breakdown).
	Details []string
	// You is true when it hit the reader (their region conquered, their army
	// destroyed).
	You bool
}

// Score is a player's final score with its breakdown.
type Score struct {
	Player string
	Total  int
	Parts  []string
}

// Attachment names the file a mail carries.
type Attachment struct {
	Name string
	// Redacted: the file leaves out what the game hides from the reader
	// (engine.Redact), so it cannot be replayed.
	Redacted bool
}

// Game identifies the game a mail is about.
type Game struct {
	ID    string
	Kind  string // engine name, e.g. "smallworld"
	Title string // e.g. "Small World"
	// Players are the seats' names, set once the game has started: every mail of a
	// started game then has the game's one subject (see subject-game).
	Players []string
}

// State is the data of a state mail: what happened, the state as the recipient may see
// it, and the commands legal for them now.
type State struct {
	Game Game
	// Player is the recipient's seat name ("" for observers and lists).
	Player string
	// Opening is true for the first mail of a game.
	Opening bool
	// Moves are the events since the recipient's last mail (the latest of them);
	// MovesCut counts the earlier ones left out.
	Moves    []Move
	MovesCut int
	// Applied and Error report on the recipient's own mail, when this answers one:
	// the last lines applied (AppliedCut counts the earlier ones left out) and the
	// line refused.
	Applied    []Line
	AppliedCut int
	Error      *LineError
	// ToAct are the players who must act now; YourTurn is true when the recipient is one.
	ToAct    []string
	YourTurn bool
	// Legal are the commands the recipient may send now, ready to copy.
	Legal []string
	// AnyTime are the commands the recipient may send at any moment, in or out of
	// turn (engine.AnyTimer), listed apart from Legal.
	AnyTime []string
	// LegalNotes explain some of them (engine.Noter), rendered in the reader's
	// language and keyed by the entry as Legal or AnyTime lists it.
	LegalNotes map[string]string
	Finished   bool
	Winners    []string
	// Scores are the final scores with their breakdown, in a finished game's mail.
	Scores []Score
	// Archive is the game's archive attached to a finished game's mail (nil when none).
	Archive *Attachment
	// Page is the address of the reader's web page of the game (issue 25: their
	// private page, or the public one), "" when there is none.
	Page string
	// Replay is the replay of the whole game (a self-contained HTML file, issue 25)
	// attached to a finished game's mail (nil when none).
	Replay *Attachment
	// View is the engine's view for the recipient, decoded from its JSON.
	View map[string]any
	// Changed are the ids of the view's regions that changed since the recipient's
	// last mail (map games): the region table marks them.
	Changed []string
	// ReplyTo is the recipient's personal reply address.
	ReplyTo string
	// Deadline is when the recipient's move is due ("" when none or not their turn).
	Deadline string
	// Asked, when the recipient must decide out of turn (a defender's redeployment,
	// a response, a secret bid), says why and what is done for them when they do not
	// answer by Deadline, and the standing order that answers so every time.
	Asked *Asked
	// Responding are those of ToAct who are asked out of turn, with when their
	// answer is due ("" when no deadline): a reader waits for their answer, not
	// for their turn.
	Responding map[string]string
	// Observer is true for an observer's or a mailing list's public mail.
	Observer bool
	// Notes are administrative facts worth repeating (paused, resigned …), each a
	// Notice rendered above the state.
	Notes []Notice
	// Lang is the reader's language ("en" or "it"; "" reads English).
	Lang string
	// Picture is the board as an inline PNG of the mail, shown after the account of
	// what happened (nil when the mail has none). Issue 22.
	Picture *Picture
}

// Picture is an inline picture of the HTML part: the Content-ID of its MIME part
// (without angle brackets), its size in CSS pixels and its text alternative.
type Picture struct {
	CID           string
	Width, Height int
	Alt           string
}

// Asked is why a player must decide out of turn and what happens if they do not.
type Asked struct {
	Why, Otherwise string
	// Order is the standing order that gives the default every time, in the
	// reader's command words ("rischiera sempre automatico").
	Order string
}

// Refusal is the data of a mail that answers a mail from which nothing was applied.
type Refusal struct {
	Game    Game
	Player  string
	Applied []Line
	Error   *LineError
	// Reason explains a refusal not tied to a line (e.g. the game is finished).
	Reason string
	ToAct  []string
	// YourTurn is true when the reader is one of ToAct, and Deadline when their
	// move is due ("" when none): the mail starts with whose move it is, as a
	// state mail does.
	YourTurn bool
	Deadline string
	Legal    []string
	// LegalNotes explain some of Legal (see State.LegalNotes).
	LegalNotes map[string]string
	// View and Changed are the state as the reader may see it, rendered as in a state
	// mail (see State.View and State.Changed) so that the reader can retry without
	// the previous mail; the state section is left out when View is nil.
	View    map[string]any
	Changed []string
	ReplyTo string
	// Lang is the reader's language ("en" or "it"; "" reads English).
	Lang string
	// Picture is the board as an inline PNG, as in a state mail (issue 22).
	Picture *Picture
}

// HowTo answers a registered player who wrote to the service address without the
// personal reply token.
type HowTo struct {
	Player string
	Games  []HowToGame
	// Word is the first word of the mail, as written (cut short): it is not a
	// command of the service address either.
	Word    string
	Service string
	// Lang is the reader's language ("en" or "it"; "" reads English).
	Lang string
}

// HowToGame is one game the writer plays, with their personal reply address.
type HowToGame struct {
	Game    Game
	ReplyTo string
}

// gameTitles are the printed names of the games, by engine name.
var gameTitles = map[string]string{
	"smallworld":  "Small World",
	"necromancer": "Small World: Necromancer Island",
	"underground": "Small World Underground",
	"empire":      "Eight-Minute Empire: Legends",
	"dungeoneer":  "Dungeoneer: Tomb of the Lich Lord",
}

// GameTitle returns the printed name of a game, or its engine name when unknown.
func GameTitle(kind string) string { return printed(gameTitles, kind) }

// gameFamilies maps the games that share another's mail sections to that game: the
// Small World family is played on one engine and one view.
var gameFamilies = map[string]string{"necromancer": "smallworld", "underground": "smallworld"}

// Family returns the game whose mail sections a game of kind uses: "smallworld" for
// the Small World family, else kind itself.
func Family(kind string) string { return printed(gameFamilies, kind) }

// printed returns names[key], or key when names has none.
func printed(names map[string]string, key string) string {
	if n, ok := names[key]; ok {
		return n
	}
	return key
}

// Notice is one short administrative mail (or one answer in a lobby mail): a reminder,
// a deadline that passed, a lobby answer, a request for consent. Kind selects the text
// (see notices.go); the other fields are what that text needs.
type Notice struct {
	Kind NoticeKind
	Game Game
	// Command echoes the command line answered, in lobby mails.
	Command string
	// To is the recipient's name (or address).
	To string
	// Player is the player concerned, Actor who acted, Address an address concerned.
	Player, Actor, Address string
	// Host is the game's host address.
	Host string
	// Text is a free argument: a reason, a command, a code, a list of settings.
	Text string
	// Brief is an error that says what to send instead ("did you mean join
	// sw-n9enj?"): it goes without the list of the service's commands.
	Brief bool
	// Suggest is the command Text suggests sending instead, which the HTML part
	// links as a reply to ReplyTo that sends it; "" when none.
	Suggest string
	// Why is what a player wrote to explain their request (an undo's reason).
	Why string
	// When and Due are formatted times.
	When, Due string
	// Count is a number (history length, vacation days …), Limit a cap.
	Count, Limit int
	// Lines are lines of text (settings, help examples); Moves a history.
	Lines []string
	Moves []Move
	// Quoted are lines of the recipient's mail quoted back (not-read).
	Quoted []Line
	// Legal are commands the recipient may send now; ToAct who must act.
	Legal []string
	ToAct []string
	// LegalNotes explain some of Legal (see State.LegalNotes).
	LegalNotes map[string]string
	// Games lists games (lobby "games").
	Games []GameInfo
	// Service is the service address (for lobby commands).
	Service string
	// ReplyTo is where the recipient's answer goes.
	ReplyTo string
	// HostReply is the game's host reply address, shown to its host.
	HostReply string
	// View is the game's view for the reader, for a notice that shows the board (map)
	// or what its pieces do (rules): decoded from its JSON, as State.View.
	View map[string]any
	// Lang is the reader's language ("en" or "it"; "" reads English).
	Lang string
}

// GameInfo is one line of the lobby's game list.
type GameInfo struct {
	Game   Game
	Status string
	// Count is the number of players seated, Seats the game's seats (0: not capped).
	Count int
	Seats int
}

// Lobby is the answer to a mail of lobby commands sent to the service address.
type Lobby struct {
	Service string
	// Game, when every answer is about one game, is that game: the mail then has
	// the game's one subject and stands in its thread.
	Game    Game
	Answers []Notice
	// Lang is the reader's language ("en" or "it"; "" reads English).
	Lang string
}

// Cut is the data of the note that ends a mail cut to the size limit: the limit in
// KB and the reader's language.
type Cut struct {
	KB   int64
	Lang string
}

// LangOf returns the reader's language of a mail's data ("" when it has none).
func LangOf(data any) string {
	switch d := data.(type) {
	case State:
		return d.Lang
	case Refusal:
		return d.Lang
	case Notice:
		return d.Lang
	case Lobby:
		return d.Lang
	case HowTo:
		return d.Lang
	case Cut:
		return d.Lang
	}
	return ""
}
