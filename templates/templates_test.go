package templates

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// samples are one data value per mail kind, with the variants worth seeing.
var samples = []struct {
	name, kind string
	data       any
}{
	{"state-opening", "state", State{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World", Players: []string{"alice", "bob"}}, Player: "alice", Opening: true,
		ToAct: []string{"alice"}, YourTurn: true, Legal: []string{"pick 1", "pick 2 (1 coin)"},
		View: map[string]any{"turn": 1.0, "players": []any{
			map[string]any{"name": "alice", "score": 5.0, "hand": 0.0},
			map[string]any{"name": "bob", "score": nil, "hand": 0.0, "declined": []any{map[string]any{"race": "Ratmen"}}}},
			"offer": []any{map[string]any{"race": "Ratmen", "power": "Flying", "coins": 0.0}},
			"regions": []any{
				map[string]any{"id": 1.0, "terrain": "sea", "owner": nil},
				map[string]any{"id": 2.0, "terrain": "hill", "owner": "lost-tribe", "tokens": 1.0, "pieces": []any{"mountain"}},
			}},
		ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org",
	}},
	{"state-after-move", "state", State{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World", Players: []string{"alice", "bob"}}, Player: "alice",
		Moves: []Move{{Seq: 1, Player: "alice", Command: "pick 1", Happened: []Happening{{Kind: "combo", Text: "alice took Flying Ratmen (offer position 1) with 13 tokens"}}},
			{Seq: 2, Player: "bob", Command: "conquer 4", Happened: []Happening{{Kind: "conquest", Text: "bob (Hill Elves) conquered region 4 from alice (Ratmen) with 3 tokens: alice lost 1 token, 1 back in hand", You: true}}},
			{Seq: 3, Player: "bob", Command: "done", Happened: []Happening{{Kind: "score", Text: "bob scored 4 coins (9 in all)", Details: []string{"regions: 3", "Hill: 1"}}}},
			{Seq: 4, Kind: "undo", Command: "bob took back conquer 4"}},
		Applied: []Line{{N: 1, Text: "pick 1"}, {N: 2, Text: "conquer 4"}},
		Error:   &LineError{Line: Line{N: 3, Text: "conquer 99"}, Reason: "there is no region 99"},
		ToAct:   []string{"alice"}, YourTurn: true, Legal: []string{"conquer 5", "redeploy <region>=<tokens> …", "done"},
		LegalNotes: map[string]string{"conquer 5": "3 tokens: 2 + 1 mountain"},
		View: map[string]any{"turn": 1.0, "players": []any{map[string]any{"name": "alice", "score": 5.0, "hand": 3.0, "active": map[string]any{"race": "Ratmen", "power": "Flying"}}}, "regions": []any{
			map[string]any{"id": 2.0, "terrain": "hill", "owner": nil},
			map[string]any{"id": 3.0, "terrain": "forest", "owner": "bob", "race": "Hill Elves", "tokens": 3.0},
			map[string]any{"id": 4.0, "terrain": "farmland", "owner": "alice", "race": "Ratmen", "tokens": 2.0, "pieces": map[string]any{"encampment": 2.0, "fortress": true}}}},
		Changed: []string{"3", "4"},
		ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org",
	}},
	{"state-waiting", "state", State{
		Game: Game{ID: "ta-1", Kind: "tally", Title: "tally", Players: []string{"alice", "bob"}}, Player: "bob", ToAct: []string{"alice"},
		View: map[string]any{"turn": 3.0, "players": []any{map[string]any{"name": "alice", "score": 7.0}}},
	}},
	{"state-finished", "state", State{
		Game: Game{ID: "ta-1", Kind: "tally", Title: "tally", Players: []string{"alice", "bob"}}, Player: "bob", Finished: true, Winners: []string{"alice", "bob"},
		Scores:  []Score{{Player: "alice", Total: 7, Parts: []string{"regions: 5", "race abilities: 2"}}, {Player: "bob", Total: 7, Parts: []string{"regions: 7"}}},
		Archive: &Attachment{Name: "ta-1.json"}, ReplyTo: "turnmail+ta-1.1.xxxx@example.org",
		View: map[string]any{"turn": 9.0, "players": []any{map[string]any{"name": "alice", "score": 7.0}, map[string]any{"name": "bob", "score": 7.0}}},
	}},
	{"refusal-line", "refusal", Refusal{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World", Players: []string{"alice", "bob"}}, Player: "alice",
		Error: &LineError{Line: Line{N: 1, Text: "conquer 99"}, Reason: "there is no region 99; possible: conquer 4, conquer 7"},
		Legal: []string{"conquer 4", "conquer 7"}, ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org",
		ToAct: []string{"alice"}, YourTurn: true, Deadline: "Sat 28 Nov 17:00 UTC",
		View: map[string]any{"turn": 2.0, "players": []any{
			map[string]any{"name": "alice", "score": 7.0, "hand": 5.0, "active": map[string]any{"race": "Ratmen", "power": "Flying"}},
			map[string]any{"name": "bob", "score": 9.0, "hand": 0.0, "active": map[string]any{"race": "Hill Elves", "power": "Diplomat"}}},
			"regions": []any{
				map[string]any{"id": 4.0, "terrain": "hill", "owner": "bob", "race": "Hill Elves", "tokens": 2.0, "adjacent": []any{5.0, 7.0}},
				map[string]any{"id": 5.0, "terrain": "farmland", "owner": "alice", "race": "Ratmen", "tokens": 3.0, "adjacent": []any{4.0, 7.0}},
				map[string]any{"id": 7.0, "terrain": "sea", "owner": nil, "adjacent": []any{4.0, 5.0}},
			}},
		Changed: []string{"4"},
	}},
	{"refusal-typo", "refusal", Refusal{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World", Players: []string{"alice", "bob"}}, Player: "alice",
		Error: &LineError{Line: Line{N: 1, Text: "conqeur 4", Suggest: "conquer 4"}, Reason: `"conqeur" is not a command: did you mean conquer 4?`},
		Legal: []string{"conquer 4", "conquer 7"}, ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org",
		ToAct: []string{"alice"}, YourTurn: true, Deadline: "Sat 28 Nov 17:00 UTC",
	}},
	{"refusal-not-your-turn", "refusal", Refusal{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World", Players: []string{"alice", "bob"}}, Player: "bob",
		Reason: "The game is paused by its host.", ToAct: []string{"alice"},
	}},
	{"howto", "howto", HowTo{Player: "alice", Service: "turnmail@example.org", Word: "conquer", Games: []HowToGame{
		{Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World"}, ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org"}}}},
}

// noticeGame is the game of the notice samples.
var noticeGame = Game{ID: "ta-k3p2", Kind: "tally", Title: "tally"}

// playGame is noticeGame once started: its mails have the game's one subject.
var playGame = Game{ID: "ta-k3p2", Kind: "tally", Title: "tally", Players: []string{"ann", "ben"}}

// noticeSamples are one Notice per kind, with the fields that kind reads.
var noticeSamples = map[string]Notice{
	"help":             {Kind: "help"},
	"error":            {Kind: "error", Text: "There is no game zz-0000; send games for the list."},
	"games":            {Kind: "games", Games: []GameInfo{{Game: noticeGame, Status: "open", Count: 2, Seats: 3}, {Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World"}, Status: "open", Count: 1}}},
	"games-empty":      {Kind: "games"},
	"rules":            {Kind: "rules", Game: Game{Kind: "smallworld", Title: "Small World"}},
	"created":          {Kind: "created", Game: noticeGame, Player: "ann", Lines: []string{"deadline: 2d after the turn begins", "reminders: 12h, 1h before the deadline"}},
	"joined":           {Kind: "joined", Game: noticeGame, Player: "ben", Host: "ann@example.org"},
	"player-joined":    {Kind: "player-joined", Game: noticeGame, To: "host", Player: "ben", Address: "ben@example.org", ToAct: []string{"ann", "ben"}},
	"left":             {Kind: "left", Game: noticeGame},
	"player-left":      {Kind: "player-left", Game: noticeGame, To: "host", Player: "ben", Address: "ben@example.org"},
	"started":          {Kind: "started", Game: noticeGame, ToAct: []string{"ann", "ben"}},
	"observing":        {Kind: "observing", Game: noticeGame},
	"unobserved":       {Kind: "unobserved", Game: noticeGame},
	"invited":          {Kind: "invited", Game: noticeGame, Address: "cy@example.org"},
	"confirm-invite":   {Kind: "confirm", Text: "invite", Game: noticeGame, Actor: "ann@example.org", Address: "cy@example.org", ToAct: []string{"ann"}, Lines: []string{"deadline: 1d after the turn begins"}, When: "Mon 30 Nov 2026 12:00 UTC"},
	"confirm-self":     {Kind: "confirm", Text: "self", Game: noticeGame, Address: "cy@example.org", Lines: []string{"join ta-k3p2", "observe ta-k3p2"}, When: "Mon 30 Nov 2026 12:00 UTC"},
	"confirm-replace":  {Kind: "confirm", Text: "replace", Game: noticeGame, Actor: "ann@example.org", Address: "cy@example.org", Player: "ben", When: "Mon 30 Nov 2026 12:00 UTC"},
	"confirm-list":     {Kind: "confirm", Text: "list", Game: noticeGame, Actor: "ann@example.org", Address: "club@lists.example.org", When: "Mon 30 Nov 2026 12:00 UTC"},
	"confirm-approve":  {Kind: "confirm", Text: "approve", Game: noticeGame, Actor: "cy@example.org", Address: "ann@example.org", When: "Mon 30 Nov 2026 12:00 UTC"},
	"pending":          {Kind: "pending"},
	"approval-asked":   {Kind: "approval-asked", Game: noticeGame},
	"observer-joined":  {Kind: "observer-joined", Game: noticeGame, Address: "cy@example.org", HostReply: "turnmail+ta-k3p2.host.xxxx@example.org"},
	"replace-asked":    {Kind: "replace-asked", Game: noticeGame, Player: "ben", Address: "cy@example.org"},
	"done":             {Kind: "done", Game: playGame, Text: "pause"},
	"settings":         {Kind: "settings", Game: noticeGame, Lines: []string{"deadline: 2d after the turn begins", "when a deadline passes: pause"}},
	"settings-changed": {Kind: "settings-changed", Game: playGame, To: "ben", Text: "set deadline=48h expiry=pause", Lines: []string{"deadline: 2d after the turn begins", "when a deadline passes: pause"}, Due: "Wed 25 Nov 2026 09:00 UTC"},
	"legal":            {Kind: "legal", Game: playGame, To: "ann", Legal: []string{"add <1-9>", "pass"}, ToAct: []string{"ann"}, Due: "Mon 23 Nov 13:00 CET", ReplyTo: "turnmail+ta-k3p2.0.xxxx@example.org"},
	"history":          {Kind: "history", Game: playGame, To: "ann", Count: 3, Moves: []Move{{Seq: 1, Player: "ann", Command: "add 3", Day: "Sun 22 November (UTC)", Time: "12:00"}, {Seq: 2, Player: "ann", Command: "undo request", Kind: "admin", Day: "Sun 22 November (UTC)", Time: "12:00"}, {Seq: 3, Command: "agreed by ben, taking back ann: add 3", Kind: "undo", Day: "Mon 23 November (UTC)", Time: "09:30"}}},
	"resign-confirm":   {Kind: "resign-confirm", Game: playGame, To: "ann", Text: "resign confirm abcdefgh"},
	"resigned":         {Kind: "resigned", Game: playGame, To: "ben", Player: "ann"},
	"resigned-undo":    {Kind: "resigned", Game: playGame, To: "ben", Player: "ann", Text: "cy: add 3"},
	"undo-request":     {Kind: "undo-request", Game: playGame, To: "ben", Player: "ann", Text: "ann added 3", Why: "ho letto male il totale"},
	"repeat":           {Kind: "repeat", Game: playGame, To: "ann", When: "Sun 22 Nov 12:00 UTC", Text: "applied"},
	"undo-asked":       {Kind: "undo-asked", Game: playGame, To: "ann", Text: "ann: add 3", ToAct: []string{"ben"}},
	"undo-waiting":     {Kind: "undo-waiting", Game: playGame, To: "ben", Player: "ann", ToAct: []string{"cy"}},
	"paused":           {Kind: "paused", Game: playGame, To: "ben", Actor: "the host"},
	"resumed":          {Kind: "resumed", Game: playGame, To: "ben", ToAct: []string{"ann"}},
	"reminder":         {Kind: "reminder", Game: playGame, To: "ann", Player: "ann", Due: "Mon 23 Nov 13:00 CET", Text: "12h", Legal: []string{"add <1-9>", "pass"}, ReplyTo: "turnmail+ta-k3p2.0.xxxx@example.org"},
	"deadline-skipped": {Kind: "deadline-skipped", Game: playGame, To: "ann", Player: "ann", Due: "Mon 23 Nov 13:00 CET", Lines: []string{"pass"}},
	"deadline-noskip":  {Kind: "deadline-noskip", Game: playGame, To: "host", Player: "ann", Due: "Mon 23 Nov 13:00 CET"},
	"deadline-paused":  {Kind: "deadline-paused", Game: playGame, To: "ben", Player: "ann", Due: "Mon 23 Nov 13:00 CET"},
	"deadline-replace": {Kind: "deadline-replace", Game: playGame, To: "host", Player: "ann", Address: "ann@example.org", Due: "Mon 23 Nov 13:00 CET"},
	"vacation":         {Kind: "vacation", Game: playGame, To: "ann", Text: "2026-12-24 to 2026-12-27", Count: 4, Limit: 14, Due: "Mon 28 Dec 2026 12:00 UTC"},
	"replaced-old":     {Kind: "replaced-old", Game: playGame, To: "ben", Player: "ben"},
	"replaced-host":    {Kind: "replaced-host", Game: playGame, To: "host", Player: "ben", Address: "cy@example.org"},
	"bounce":           {Kind: "bounce", Game: playGame, To: "host", Player: "ben", Address: "ben@example.org", Text: "5.1.1 user unknown"},
	"failed":           {Kind: "failed", Game: playGame, Text: "Re: [ta-k3p2] Tally", Host: "ann@example.org"},
	"failed-lobby":     {Kind: "failed", Text: "new tally"},
	"chat":             {Kind: "chat", Game: playGame, To: "ben", Actor: "ann", Moves: []Move{{Player: "ann", Command: "Good luck! <b>really</b>"}, {Player: "ann", Command: "shall we ally?", Kind: "private"}}},
	"said":             {Kind: "said", Game: playGame, To: "ann", Actor: "ann", Moves: []Move{{Player: "ben, cy", Command: "Good luck! <b>really</b>"}}},
	"not-read":         {Kind: "not-read", Game: playGame, To: "ann", Quoted: []Line{{N: 1, Text: "Ciao Ben, ti distruggo!"}, {N: 5, Text: "A domani,"}}, Count: 2},
	"failed-host":      {Kind: "failed-host", Game: playGame, Address: "ben@example.org", Text: "processing failed: render state: boom", Lines: []string{"Re: [ta-k3p2] Tally"}},
	"text":             {Kind: "", Game: noticeGame, Text: "cy@example.org was asked to confirm."},
	"unread":           {Kind: "unread", Count: 20, Limit: 20},
	"timers-failed":    {Kind: "timers-failed", Game: playGame, To: "host", Text: "boom"},
	"held":             {Kind: "held", Game: playGame, To: "ann", Text: "Mail to you was held back (answers to your mails): turnmail sends only so many in an hour, so that mail never loops.\n\nIt resumes Sat 28 Nov 21:00 UTC. Your moves are always answered; write status in a game's mail to get its state."},
	"replaced-new":     {Kind: "replaced-new", Game: playGame, Player: "ben", Host: "ann@example.org"},
	"rule":             {Kind: "rule", Game: Game{Kind: "smallworld", Title: "Small World"}, Text: "Ratmen (race): No ability: their strength is their many tokens."},
	"map":              {Kind: "map", Game: swGameData, To: "ann", View: loadView("smallworld.view.json")},
	"map-underground":  {Kind: "map", Game: Game{ID: "un-4f2a", Kind: "underground", Title: "Small World Underground", Players: []string{"ann", "ben"}}, To: "ann", View: loadView("underground.view.json")},
	"map-dungeoneer":   {Kind: "map", Game: Game{ID: "du-4m8x", Kind: "dungeoneer", Title: "Dungeoneer: Tomb of the Lich Lord", Players: []string{"ann", "ben", "cy"}}, To: "ann", View: loadView("dungeoneer.view.json")},
	"rules-game":       {Kind: "rules", Game: swGameData, To: "ann", View: loadView("smallworld.view.json")},
}

// swGameData is the game of the Small World samples.
var swGameData = Game{ID: "sw-7c1d", Kind: "smallworld", Title: "Small World", Players: []string{"ann", "ben"}}

// loadView reads an engine view saved in testdata (as the service decodes it).
func loadView(name string) map[string]any {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		panic(err)
	}
	return v
}

// strings of a decoded JSON list.
func legalOf(v map[string]any) []string { return Strs(v["legal"]) }

func init() {
	samples = append(samples, empireSamples()...)
	tr, err := i18n.Load()
	if err != nil {
		panic(err)
	}
	// redeployNote is the note Small World's engine gives on the redeploy pattern of
	// a view (Notes): the regions it may name and the tokens to place.
	redeployNote := func(regions string, place int) engine.Text {
		return engine.Textf("the region ends with that many; regions %s; %s", regions, engine.Textf("%d tokens to place", place))
	}
	const redeploy = "redeploy <region>=<tokens> …"
	// A real Small World Underground view (2 players, seed 1, ann to move in turn 2),
	// with pieces of every Underground kind, a found Stonehedge, the races' counters
	// and more verbs added so that one mail shows them all.
	ug := loadView("underground.view.json")
	ugNote := redeployNote("8,9,12,19", 4)
	samples = append(samples, struct {
		name, kind string
		data       any
	}{"state-underground", "state", State{
		Game: Game{ID: "un-4f2a", Kind: "underground", Title: GameTitle("underground"), Players: []string{"ann", "ben"}}, Player: "ann",
		ToAct: []string{"ann"}, YourTurn: true, Moves: []Move{{Seq: 11, Player: "ben", Command: "done"}},
		Legal: legalOf(ug), LegalNotes: map[string]string{redeploy: tr.Text(i18n.English, ugNote)},
		View: ug, ReplyTo: "turnmail+un-4f2a.0.xxxx@example.org",
	}})
	// The Small World family's state mails for an Italian reader, their legal lists in
	// Italian command words as the service gives them: a base game (real view: 2
	// players, seed 4, ann to move after ben's decline), Necromancer Island (3 players,
	// seed 2, ann to move; cy is the Necromancer) and the Underground view above.
	for _, it := range []struct {
		name, kind, id string
		view           map[string]any
		players        []string
		note           engine.Text // on the redeploy pattern
	}{
		{"state-smallworld-it", "smallworld", "sw-7c1d", loadView("smallworld.view.json"), []string{"ann", "ben"}, redeployNote("9,11,14,15,21", 5)},
		{"state-necromancer-it", "necromancer", "ne-2b9e", loadView("necromancer.view.json"), []string{"ann", "ben", "cy"}, redeployNote("3,7", 7)},
		{"state-underground-it", "underground", "un-4f2a", ug, []string{"ann", "ben"}, ugNote},
	} {
		var legal []string
		for _, c := range legalOf(it.view) {
			legal = append(legal, tr.Command(it.kind, i18n.Italian, c))
		}
		notes := map[string]string{tr.Command(it.kind, i18n.Italian, redeploy): tr.Text(i18n.Italian, it.note)}
		samples = append(samples, struct {
			name, kind string
			data       any
		}{it.name, "state", State{
			Game: Game{ID: it.id, Kind: it.kind, Title: GameTitle(it.kind), Players: it.players}, Player: "ann", Lang: "it",
			ToAct: []string{"ann"}, YourTurn: true, Moves: []Move{{Seq: 11, Player: "ben", Command: "fatto"}},
			Legal: legal, LegalNotes: notes, View: it.view, Changed: []string{"3"}, ReplyTo: "turnmail+" + it.id + ".0.xxxx@example.org",
		}})
		htmlGolden[it.name] = true
	}
	for _, k := range noticeSampleKinds {
		n, ok := noticeSamples[k]
		if !ok {
			panic("no notice sample for " + k)
		}
		n.Service = "turnmail@example.org"
		if n.ReplyTo == "" {
			n.ReplyTo = "turnmail@example.org"
		}
		samples = append(samples, struct {
			name, kind string
			data       any
		}{"notice-" + k, "notice", n})
	}
	samples = append(samples, struct {
		name, kind string
		data       any
	}{"lobby", "lobby", Lobby{Service: "turnmail@example.org", Answers: []Notice{
		{Kind: "created", Command: "new tally deadline=2d", Game: noticeGame, Player: "ann", Lines: []string{"deadline: 2d after the turn begins"}, Service: "turnmail@example.org"},
		{Kind: "invited", Command: "invite ta-k3p2 ben@example.org", Game: noticeGame, Address: "ben@example.org", Service: "turnmail@example.org"},
		{Kind: "error", Command: "strat ta-k3p2", Text: "This is not a command turnmail knows.", Service: "turnmail@example.org"},
		{Kind: "error", Command: "join ta-k3pq", Text: "There is no game ta-k3pq: did you mean join ta-k3p2? (send games for the list)", Brief: true,
			Suggest: "join ta-k3p2", ReplyTo: "turnmail@example.org", Service: "turnmail@example.org"},
	}}})
	samples = append(samples, struct {
		name, kind string
		data       any
	}{"state-observer", "state", State{
		Game: playGame, Observer: true, ToAct: []string{"ann"},
		View: map[string]any{"turn": 2.0, "players": []any{map[string]any{"name": "ann", "score": 3.0}}},
	}}, struct {
		name, kind string
		data       any
	}{"state-substitute", "state", State{
		Game: playGame, Player: "ben", ToAct: []string{"ben"}, YourTurn: true, Legal: []string{"add <1-9>"}, Deadline: "Mon 23 Nov 13:00 CET",
		Notes:   []Notice{{Kind: "replaced-new", Player: "ben", Host: "ann@example.org"}},
		View:    map[string]any{"turn": 2.0, "players": []any{map[string]any{"name": "ben", "score": 3.0}}},
		ReplyTo: "turnmail+ta-k3p2.10001.xxxx@example.org",
	}})
}

// noticeSampleKinds lists every notice kind in a stable order.
var noticeSampleKinds = []string{"help", "error", "games", "games-empty", "rules", "created", "joined", "player-joined", "left", "player-left", "started", "observing", "unobserved", "invited", "confirm-invite", "confirm-self", "confirm-replace", "confirm-list", "confirm-approve", "pending", "approval-asked", "observer-joined", "replace-asked", "done", "settings", "settings-changed", "legal", "history", "resign-confirm", "resigned", "resigned-undo", "undo-request", "undo-asked", "undo-waiting", "paused", "resumed", "reminder", "deadline-skipped", "deadline-noskip", "deadline-paused", "deadline-replace", "vacation", "replaced-old", "replaced-host", "bounce", "failed", "failed-lobby", "failed-host", "chat", "said", "not-read", "repeat", "text", "unread", "timers-failed", "replaced-new", "rule", "map", "map-underground", "map-dungeoneer", "rules-game", "held"}

func TestRender_golden(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			text, htmlPart, err := set.Render(s.kind, s.data)
			if err != nil {
				t.Fatal(err)
			}
			subject, err := set.Subject(s.kind, s.data)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", s.name+".golden"), "Subject: "+subject+"\n\n"+text)
			if err := checkHTML(htmlPart); err != nil {
				t.Errorf("HTML part: %v\n%s", err, htmlPart)
			}
			if htmlGolden[s.kind] || htmlGolden[s.name] {
				golden(t, filepath.Join("testdata", s.name+".html.golden"), htmlPart)
			}
		})
	}
}

// htmlGolden are the mail kinds and samples whose HTML part has golden files too.
var htmlGolden = map[string]bool{"notice": true, "lobby": true, "refusal-line": true, "state-after-move": true, "state-empire-play": true, "state-empire-bid": true, "state-empire-play-it": true, "state-empire-bid-it": true, "state-underground": true}

// golden compares got with the file at path (rewritten with -update).
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./templates -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// voidElements never have an end tag.
var voidElements = map[string]bool{"br": true, "hr": true, "meta": true, "img": true, "input": true, "link": true}

// checkHTML checks that the document has a doctype, a title, and that every element is
// closed in order.
func checkHTML(doc string) error {
	if !strings.HasPrefix(doc, "<!DOCTYPE html>") {
		return errorf("no <!DOCTYPE html>")
	}
	z := html.NewTokenizer(bytes.NewReader([]byte(doc)))
	var stack []string
	title := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				return z.Err()
			}
			if len(stack) != 0 {
				return errorf("unclosed elements %v", stack)
			}
			if !title {
				return errorf("no <title>")
			}
			return nil
		case html.StartTagToken:
			name, _ := z.TagName()
			if string(name) == "title" {
				title = true
			}
			if !voidElements[string(name)] {
				stack = append(stack, string(name))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				return errorf("</%s> does not close %v", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// TestRender_printedNames: the whole Underground board (map) names terrains, symbols and
// pieces as printed ("black mountain", "Lara's Ghost"), never by the view's keys.
func TestRender_printedNames(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	key := regexp.MustCompile(`\b[a-z]+_[a-z_]+\b|\b(blackmountain|mudpool)\b`)
	for _, s := range samples {
		if s.name != "notice-map-underground" {
			continue
		}
		text, h, err := set.Render(s.kind, s.data)
		if err != nil {
			t.Fatal(err)
		}
		for part, body := range map[string]string{"text": text, "html": html.UnescapeString(h)} {
			if k := key.FindAllString(body, -1); len(k) > 0 {
				t.Errorf("%s part shows view keys %q", part, k)
			}
			for _, w := range []string{"black mountain", "mud pool", "crystal grove", "mushroom forest", "Lara's Ghost", "Great Ancient",
				"mushroom armour×2", "Black Queen", "Altar of Souls", "Flying Doormat", "Balrog"} {
				if !strings.Contains(body, w) {
					t.Errorf("%s part lacks %q", part, w)
				}
			}
		}
		return
	}
	t.Fatal("no notice-map-underground sample")
}

// TestRender_undergroundMapKey: the whole Underground board (map) explains rivers, chasms
// and black mountains on an Underground board only, not on a surface one
// (map=smallworld-Np), where the monsters and pieces are still explained.
func TestRender_undergroundMapKey(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	surface := loadView("underground.view.json")
	for _, r := range surface["regions"].([]any) {
		if m := r.(map[string]any); m["terrain"] == "river" || m["terrain"] == "chasm" {
			m["terrain"] = "hill"
		}
	}
	for name, c := range map[string]struct {
		view map[string]any
		has  bool
	}{"underground board": {loadView("underground.view.json"), true}, "surface board": {surface, false}} {
		text, h, err := set.Render("notice", Notice{Kind: Map, Game: Game{ID: "un-4f2a", Kind: "underground", Title: GameTitle("underground"), Players: []string{"ann", "ben"}},
			To: "ann", View: c.view})
		if err != nil {
			t.Fatal(err)
		}
		for part, body := range map[string]string{"text": text, "html": h} {
			if got := strings.Contains(body, "A river costs 1 token"); got != c.has {
				t.Errorf("%s, %s part: explains rivers %v, want %v", name, part, got, c.has)
			}
			if !strings.Contains(body, "guard a place or relic") {
				t.Errorf("%s, %s part: the monsters are not explained", name, part)
			}
		}
	}
}

// TestRender_verbNotesItalian: the explanations of Underground's verbs under the legal
// list appear whether the list is in English or in Italian command words, in the
// reader's language, each verb in the reader's command words, ready to copy.
func TestRender_verbNotesItalian(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang       string
		legal      []string
		text, html []string
	}{
		{"en", []string{"swap 2", "sword 7", "bag sword", "done"},
			[]string{"  swap N        your Shadow Mimes take the power of combo N", "  sword R       conquer R with 2 tokens fewer", "  bag <relic>   the Bag of Wonders copies"},
			[]string{"<td><code>swap N</code></td><td>your Shadow Mimes take the power of combo N", "<td><code>bag &lt;relic&gt;</code></td><td>the Bag of Wonders copies"}},
		{"it", []string{"scambia 2", "spada 7", "sacca spada", "fatto"},
			[]string{"Cosa fanno questi comandi:", "  scambia N     i tuoi Mimi ombra prendono il potere della combinazione N", "  spada R       conquista R con 2 segnalini in meno",
				"  sacca <reliquia>\n                la Sacca delle meraviglie copia quella Reliquia"},
			[]string{"<td><code>scambia N</code></td><td>i tuoi Mimi ombra prendono il potere della combinazione N", "<td><code>sacca &lt;reliquia&gt;</code></td><td>la Sacca delle meraviglie"}},
	} {
		text, h, err := set.Render("state", State{Game: Game{ID: "un-4f2a", Kind: "underground", Title: GameTitle("underground"), Players: []string{"ann", "ben"}},
			Player: "ann", YourTurn: true, Legal: c.legal, Lang: c.lang, View: loadView("underground.view.json")})
		if err != nil {
			t.Fatal(err)
		}
		for part, wants := range map[string][]string{text: c.text, h: c.html} {
			for _, want := range wants {
				if !strings.Contains(part, want) {
					t.Errorf("%s legal list: no note %q in:\n%s", c.lang, want, part)
				}
			}
		}
	}
}

// TestFamily: the games of the Small World family share its mail sections; any other
// game is its own family.
func TestFamily(t *testing.T) {
	for kind, want := range map[string]string{
		"smallworld": "smallworld", "necromancer": "smallworld", "underground": "smallworld",
		"empire": "empire", "dungeoneer": "dungeoneer", "tally": "tally",
	} {
		if got := Family(kind); got != want {
			t.Errorf("Family(%q) = %q, want %q", kind, got, want)
		}
	}
}

// TestRender_historyByDay: a history says each day once, as the heading of its
// events, in the reader's language, and an event's time only where it differs from
// the one before (every line repeated "Fri 27 Nov 18:55 UTC", a phone's width of
// dates); a day that comes back after another keeps its events in order.
func TestRender_historyByDay(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	at := func(day, hm string) time.Time {
		v, err := time.Parse("2006-01-02 15:04", day+" "+hm)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	now := at("2026-11-30", "12:00")
	times := []time.Time{at("2026-11-27", "18:55"), at("2026-11-27", "18:55"), at("2026-11-27", "21:10"), at("2026-11-28", "08:00"), at("2026-11-28", "08:00")}
	for _, tc := range []struct {
		lang       string
		days       []string
		text, html []string
	}{
		{"en", []string{"Fri 27 November (CET)", "Sat 28 November (CET)"},
			[]string{"Fri 27 November (CET)\n  1. ann: add 1  (19:55)\n  2. ann: add 2\n  3. ann: add 3  (22:10)\n\nSat 28 November (CET)\n  4. ann: add 4  (09:00)\n  5. ann: add 5\n"},
			[]string{"<strong>Fri 27 November (CET)</strong>", "<td>(19:55)</td>", "<strong>Sat 28 November (CET)</strong>"}},
		{"it", []string{"ven 27 novembre (CET)", "sab 28 novembre (CET)"},
			[]string{"ven 27 novembre (CET)\n  1. ann: add 1  (19:55)\n  2. ann: add 2\n  3. ann: add 3  (22:10)\n\nsab 28 novembre (CET)\n  4. ann: add 4  (09:00)\n"},
			[]string{"<strong>ven 27 novembre (CET)</strong>", "<strong>sab 28 novembre (CET)</strong>"}},
	} {
		n := Notice{Kind: "history", Game: playGame, To: "ann", Lang: tc.lang, Count: len(times)}
		for i, v := range times {
			m := Move{Seq: i + 1, Player: "ann", Command: fmt.Sprintf("add %d", i+1)}
			m.Day, m.Time = set.DayTime(tc.lang, v, rome, now)
			n.Moves = append(n.Moves, m)
		}
		text, h, err := set.Render("notice", n)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range tc.days {
			if c := strings.Count(text, d); c != 1 {
				t.Errorf("%s: %q %d times in the text:\n%s", tc.lang, d, c, text)
			}
			if c := strings.Count(h, d); c != 1 {
				t.Errorf("%s: %q %d times in the HTML", tc.lang, d, c)
			}
		}
		for _, want := range tc.text {
			if !strings.Contains(text, want) {
				t.Errorf("%s: no %q in the text:\n%s", tc.lang, want, text)
			}
		}
		for _, want := range tc.html {
			if !strings.Contains(h, want) {
				t.Errorf("%s: no %q in the HTML:\n%s", tc.lang, want, h)
			}
		}
		if strings.Contains(text, "18:55") || strings.Contains(text, "2026") {
			t.Errorf("%s: a time not in the reader's zone, or this year's date with its year:\n%s", tc.lang, text)
		}
	}
}

// TestRender_historyEmpty: history of a game with no event yet says so, instead of
// "the last 0 events".
func TestRender_historyEmpty(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"en": "No event yet in game ta-k3p2.", "it": "Nessun evento finora nella partita ta-k3p2."} {
		text, h, err := set.Render("notice", Notice{Kind: "history", Game: playGame, To: "ann", Lang: lang})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, want) || !strings.Contains(h, strings.TrimSuffix(want[:len(want)-len("ta-k3p2.")], " ")) || strings.Contains(text, " 0 ") {
			t.Errorf("%s:\n%s", lang, text)
		}
	}
}
