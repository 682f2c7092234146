package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// turnGame is a tally game in turns mode ("add N" or "pass", one player after the
// other) on a fixture's service, with a host.
type turnGame struct {
	*fixture
	id string
	// host is the host's name: "host" (an address that does not play) or a player's.
	host string
	// lastMail is the outbox id of the last mail the scenario has looked at.
	lastMail int64
	// mails are every mail queued for the game's people since it was created.
	mails []*parse.Message
}

// newTurnGame creates a tally game in turns mode between players (at the fixture's
// domain) hosted by host@domain, and skips the opening mails.
func newTurnGame(t *testing.T, host string, players ...string) *turnGame {
	t.Helper()
	f := newFixture(t, 1000)
	ng := service.NewGame{Kind: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")}, Host: host + "@" + domain}
	for _, p := range players {
		ng.Players = append(ng.Players, engine.Player{Name: p, Email: p + "@" + domain})
	}
	id, err := f.svc.CreateGame(context.Background(), ng)
	if err != nil {
		t.Fatal(err)
	}
	g := &turnGame{fixture: f, id: id, host: host}
	g.newMails()
	return g
}

// addr is the address of a player or the host.
func (g *turnGame) addr(name string) string { return name + "@" + domain }

// newMails returns the mails queued since the last call, and keeps them.
func (g *turnGame) newMails() []*parse.Message {
	g.t.Helper()
	rows, err := g.st.Outbox(context.Background(), "", "")
	if err != nil {
		g.t.Fatal(err)
	}
	var out []*parse.Message
	for _, r := range rows {
		if r.ID <= g.lastMail {
			continue
		}
		g.lastMail = r.ID
		m, err := parse.Parse(r.Raw, nil)
		if err != nil {
			g.t.Fatal(err)
		}
		out = append(out, m)
	}
	g.mails = append(g.mails, out...)
	return out
}

// confirmRe finds the line that confirms a resignation, in English or Italian.
var confirmRe = regexp.MustCompile(`(?:resign confirm|abbandona la partita conferma) [a-z0-9]+`)

// code returns the confirmation line last mailed to a player.
func (g *turnGame) code(name string) string {
	g.t.Helper()
	for i := len(g.mails) - 1; i >= 0; i-- {
		if m := g.mails[i]; m.To[0].Address == g.addr(name) {
			if c := confirmRe.FindString(m.Body); c != "" {
				return c
			}
		}
	}
	g.t.Fatalf("%s got no resignation code", name)
	return ""
}

// step is one mail of a scenario and what must come of it.
type step struct {
	// from is the writer's name (a player, or "host"). The mail goes to the writer's
	// reply address, or with lobby to the service address — the host's to the game's
	// host reply address (the service address needs a confirmation round trip).
	from  string
	lobby bool
	// body is the mail's text; {game} is replaced by the game's id (also in reason)
	// and {code:NAME} by the resignation line last mailed to NAME.
	body string
	// status and reason are what the service says of the mail (reason: a substring).
	status, reason string
	// mail maps a name to a text that one of the mails the step causes to them
	// contains; noMail to a text that none of them contains.
	mail, noMail map[string]string
}

var codeRef = regexp.MustCompile(`\{code:([a-z]+)\}`)

// play sends one step's mail and checks what came of it.
func (g *turnGame) play(i int, s step) {
	g.t.Helper()
	body := strings.ReplaceAll(s.body, "{game}", g.id)
	body = codeRef.ReplaceAllStringFunc(body, func(ref string) string { return g.code(codeRef.FindStringSubmatch(ref)[1]) })
	to := g.svc.ReplyAddress(g.id, g.seat(s.from))
	if s.lobby {
		to = "turnmail@" + domain
		if s.from == "host" {
			to = g.svc.HostAddress(g.id)
		}
	}
	res := g.receive(g.mail(g.addr(s.from), to, body))
	if reason := strings.ReplaceAll(s.reason, "{game}", g.id); res.Status != s.status || !strings.Contains(res.Reason, reason) {
		g.t.Fatalf("step %d (%s: %q): status %q reason %q, want %q with %q", i, s.from, body, res.Status, res.Reason, s.status, reason)
	}
	mails := g.newMails()
	for who, want := range s.mail {
		found := false
		var got []string
		for _, m := range mails {
			if m.To[0].Address == g.addr(who) {
				got = append(got, m.Body)
				found = found || strings.Contains(m.Body, want)
			}
		}
		if !found {
			g.t.Errorf("step %d (%s: %q): no mail to %s containing %q; got:\n%s", i, s.from, body, who, want, strings.Join(got, "\n----\n"))
		}
	}
	for who, unwanted := range s.noMail {
		for _, m := range mails {
			if m.To[0].Address == g.addr(who) && strings.Contains(m.Body, unwanted) {
				g.t.Errorf("step %d (%s: %q): %s got a mail containing %q:\n%s", i, s.from, body, who, unwanted, m.Body)
			}
		}
	}
}

// seat is a player's seat number (0 for the host who does not play: unused).
func (g *turnGame) seat(name string) int {
	l := g.load()
	for _, p := range l.Seats() {
		if p.Name == name {
			return p.Seat
		}
	}
	return 0
}

func (g *turnGame) load() *service.Loaded {
	g.t.Helper()
	l, err := g.svc.Load(context.Background(), g.id)
	if err != nil {
		g.t.Fatal(err)
	}
	return l
}

// log is the game's event log as "kind player: command" lines (kind "move" for a
// move).
func (g *turnGame) log() []string {
	var out []string
	for _, e := range g.load().Events {
		kind := e.Kind
		if kind == engine.KindMove {
			kind = "move"
		}
		out = append(out, fmt.Sprintf("%s %s: %s", kind, e.Player, e.Command))
	}
	return out
}

// scenario is a table entry of the in-game command tests.
type scenario struct {
	name string
	// host is the host's name (default "host", who does not play); players default
	// to alice, bob, carol.
	host    string
	players []string
	steps   []step
	// wantScores are sums at the end; wantToAct who must act; wantStatus the game's
	// status (default running); wantLog, when set, the event log (see log).
	wantScores map[string]int
	wantToAct  string
	wantStatus string
	wantLog    []string
}

// run plays a scenario and checks the end state.
func (sc scenario) run(t *testing.T) {
	host, players := sc.host, sc.players
	if host == "" {
		host = "host"
	}
	if players == nil {
		players = []string{"alice", "bob", "carol"}
	}
	g := newTurnGame(t, host, players...)
	for i, s := range sc.steps {
		g.play(i+1, s)
	}
	l := g.load()
	st := l.State.(testgame.State)
	for p, want := range sc.wantScores {
		if got := st.Scores[p]; got != want {
			t.Errorf("%s has %d, want %d", p, got, want)
		}
	}
	if sc.wantToAct != "" {
		if got := strings.Join(st.ToAct(), ","); got != sc.wantToAct {
			t.Errorf("to act: %q, want %q", got, sc.wantToAct)
		}
	}
	wantStatus := sc.wantStatus
	if wantStatus == "" {
		wantStatus = store.GameRunning
	}
	if l.Game.Status != wantStatus {
		t.Errorf("game status %q, want %q", l.Game.Status, wantStatus)
	}
	if sc.wantLog != nil {
		if got := g.log(); strings.Join(got, "\n") != strings.Join(sc.wantLog, "\n") {
			t.Errorf("event log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(sc.wantLog, "\n"))
		}
	}
	// An undo is an event like any other: it records the state it leaves.
	if n := len(l.Events); n > 0 && l.Events[n-1].Kind == engine.KindUndo && l.Events[n-1].Hash != l.State.Hash() {
		t.Errorf("the undo event records hash %s, the state after it is %s", l.Events[n-1].Hash, l.State.Hash())
	}
}

// TestUndo_consentAndForce: an undo request waits for every other active player's
// accept; the host may force one; every refusal says why.
func TestUndo_consentAndForce(t *testing.T) {
	const forcedNotHost = "Only the host of game "
	tests := []scenario{
		{
			name: "every other player accepts",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied", mail: map[string]string{
					"alice": "You asked to take back the move “alice: add 5”. It is taken back once accepted by: bob, carol.",
					"bob":   "alice asks to take back the last move (alice: add 5)",
					"carol": "alice asks to take back the last move (alice: add 5)",
				}},
				{from: "bob", body: "accept\n", status: "applied", mail: map[string]string{"bob": "You accepted alice's undo. Still waiting for: carol."},
					noMail: map[string]string{"alice": "undo:"}},
				{from: "carol", body: "accept\n", status: "applied", mail: map[string]string{
					"alice": "taken back, as bob, carol agreed: alice: add 5",
					"bob":   "taken back, as bob, carol agreed: alice: add 5",
				}},
			},
			wantScores: map[string]int{"alice": 0}, wantToAct: "alice",
			wantLog: []string{"move alice: add 5", `admin alice: {"admin":"undo request"}`, `admin bob: {"admin":"accept"}`, `admin carol: {"admin":"accept"}`,
				`undo : {"undo":"agreed","by":["bob","carol"],"move":{"seq":1,"player":"alice","command":"add 5"}}`},
		},
		{
			name: "the accepts come in any order",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "bob", body: "add 2\n", status: "applied"},
				{from: "bob", body: "undo\n", status: "applied"},
				{from: "carol", body: "accept\n", status: "applied", mail: map[string]string{"carol": "Still waiting for: alice."}},
				{from: "alice", body: "accept\n", status: "applied", mail: map[string]string{"carol": "taken back, as alice, carol agreed: bob: add 2"}},
			},
			wantScores: map[string]int{"alice": 5, "bob": 0}, wantToAct: "bob",
		},
		{
			name: "a second undo while one is pending",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "bob", body: "undo\n", status: "rejected", reason: "alice has asked for an undo already",
					mail: map[string]string{"bob": "alice has asked for an undo already; the others answer with accept."}},
				{from: "alice", body: "undo\n", status: "rejected", reason: "a copy of the player's previous mail"},
				{from: "alice", body: "undo again, please\n", status: "rejected", reason: "alice has asked for an undo already"},
			},
			wantScores: map[string]int{"alice": 5}, wantToAct: "bob",
			wantLog: []string{"move alice: add 5", `admin alice: {"admin":"undo request"}`},
		},
		{
			name: "nothing to undo at the start",
			steps: []step{
				{from: "alice", body: "undo\n", status: "rejected", reason: "There is no move to take back.",
					mail: map[string]string{"alice": "There is no move to take back."}},
			},
			wantLog: []string{},
		},
		{
			name: "nothing left to undo once the only move was taken back",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "host", lobby: true, body: "undo {game} force\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "rejected", reason: "There is no move to take back."},
				{from: "host", lobby: true, body: "undo {game} force\n", status: "rejected", mail: map[string]string{"host": "There is no move to take back."}},
			},
			wantScores: map[string]int{"alice": 0}, wantToAct: "alice",
		},
		{
			name: "the host forces an undo at the host reply address",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "bob", body: "add 3\n", status: "applied"},
				{from: "host", lobby: true, body: "undo {game} force\n", status: "applied", mail: map[string]string{
					"host":  "Done: undo for game",
					"alice": "taken back by the host: bob: add 3",
					"bob":   "taken back by the host: bob: add 3",
				}},
			},
			wantScores: map[string]int{"alice": 5, "bob": 0}, wantToAct: "bob",
			wantLog: []string{"move alice: add 5", "move bob: add 3", `undo : {"undo":"forced","move":{"seq":2,"player":"bob","command":"add 3"}}`},
		},
		{
			name: "a host who plays forces an undo in the game",
			host: "alice",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "bob", body: "add 3\n", status: "applied"},
				{from: "alice", body: "undo force\n", status: "applied", mail: map[string]string{"bob": "taken back by the host: bob: add 3"}},
			},
			wantScores: map[string]int{"alice": 5, "bob": 0}, wantToAct: "bob",
		},
		{
			name: "the force of a non-host in the game is refused",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "bob", body: "undo force\n", status: "rejected", reason: forcedNotHost + "{game} (host@games.example) may force an undo."},
			},
			wantScores: map[string]int{"alice": 5}, wantToAct: "bob",
		},
		{
			name: "the force of a non-host at the service address is refused",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "bob", lobby: true, body: "undo {game} force\n", status: "rejected", reason: "lobby: error",
					mail: map[string]string{"bob": "may send undo; the host sends host commands"}},
			},
			wantScores: map[string]int{"alice": 5}, wantToAct: "bob",
		},
		{
			name: "accept without a pending undo",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "bob", body: "accept\n", status: "rejected", reason: "There is no undo request to accept."},
			},
			wantScores: map[string]int{"alice": 5},
			wantLog:    []string{"move alice: add 5"},
		},
		{
			name: "the asker cannot accept",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "alice", body: "accept\n", status: "rejected", reason: "You asked for the undo; the other players accept it."},
			},
			wantScores: map[string]int{"alice": 5},
		},
		{
			name: "accepting twice",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "bob", body: "accept\n", status: "applied"},
				{from: "bob", body: "accept\n", status: "rejected", reason: "a copy of the player's previous mail"},
				{from: "bob", body: "status\naccept\n", status: "applied", reason: "You have accepted already."},
			},
			wantScores: map[string]int{"alice": 5},
		},
		{
			name: "a move withdraws the pending request",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "bob", body: "add 2\n", status: "applied"},
				{from: "carol", body: "accept\n", status: "rejected", reason: "There is no undo request to accept."},
			},
			wantScores: map[string]int{"alice": 5, "bob": 2}, wantToAct: "carol",
		},
		{
			name: "a resigned player is not asked",
			steps: []step{
				{from: "carol", body: "resign\n", status: "applied"},
				{from: "carol", body: "{code:carol}\n", status: "applied"},
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied", mail: map[string]string{"alice": "It is taken back once accepted by: bob"},
					noMail: map[string]string{"carol": "accept"}},
				{from: "bob", body: "accept\n", status: "applied", mail: map[string]string{"alice": "taken back, as bob agreed: alice: add 5"}},
			},
			wantScores: map[string]int{"alice": 0}, wantToAct: "alice",
		},
		{
			name: "a resigned player may neither ask nor accept",
			steps: []step{
				{from: "carol", body: "resign\n", status: "applied"},
				{from: "carol", body: "{code:carol}\n", status: "applied"},
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "carol", body: "undo\n", status: "rejected", reason: "You resigned from this game"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "carol", body: "accept\n", status: "rejected", reason: "You resigned from this game"},
			},
			wantScores: map[string]int{"alice": 5}, wantToAct: "bob",
		},
		{
			name: "the undo takes back the move, not the turn skipped for a resigned player after it",
			steps: []step{
				{from: "bob", body: "resign\n", status: "applied"},
				{from: "bob", body: "{code:bob}\n", status: "applied"},
				{from: "alice", body: "add 5\n", status: "applied", mail: map[string]string{"carol": "bob sent: pass"}},
				{from: "alice", body: "undo\n", status: "applied", mail: map[string]string{
					"alice": "You asked to take back the move “alice: add 5”. It is taken back once accepted by: carol.",
					"carol": "alice asks to take back the last move (alice: add 5)",
				}},
				{from: "carol", body: "accept\n", status: "applied", mail: map[string]string{"alice": "taken back, as carol agreed: alice: add 5"}},
			},
			wantScores: map[string]int{"alice": 0}, wantToAct: "alice",
		},
		{
			name: "the last player still needed resigns: the undo applies",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "bob", body: "accept\n", status: "applied", mail: map[string]string{"bob": "Still waiting for: carol."}},
				{from: "carol", body: "resign\n", status: "applied"},
				{from: "carol", body: "{code:carol}\n", status: "applied", mail: map[string]string{
					"alice": "taken back, as bob agreed (carol resigned): alice: add 5",
					"bob":   "taken back, as bob agreed (carol resigned): alice: add 5",
				}},
				{from: "bob", body: "accept\n", status: "rejected", reason: "There is no undo request to accept."},
			},
			wantScores: map[string]int{"alice": 0}, wantToAct: "alice",
			wantLog: []string{"move alice: add 5", `admin alice: {"admin":"undo request"}`, `admin bob: {"admin":"accept"}`, `admin carol: {"admin":"resign"}`,
				`undo : {"undo":"agreed","by":["bob"],"resigned":"carol","move":{"seq":1,"player":"alice","command":"add 5"}}`},
		},
		{
			name: "the last player still needed resigns on their turn: the undo applies before the turn is skipped",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "bob", body: "add 2\n", status: "applied"},
				{from: "bob", body: "undo\n", status: "applied"},
				{from: "alice", body: "accept\n", status: "applied"},
				{from: "carol", body: "resign\n", status: "applied"},
				{from: "carol", body: "{code:carol}\n", status: "applied", mail: map[string]string{
					"bob": "taken back, as alice agreed (carol resigned): bob: add 2",
				}},
			},
			wantScores: map[string]int{"alice": 5, "bob": 0}, wantToAct: "bob",
			wantLog: []string{"move alice: add 5", "move bob: add 2", `admin bob: {"admin":"undo request"}`, `admin alice: {"admin":"accept"}`, `admin carol: {"admin":"resign"}`,
				`undo : {"undo":"agreed","by":["alice"],"resigned":"carol","move":{"seq":2,"player":"bob","command":"add 2"}}`},
		},
		{
			name: "a player who accepted resigns: the others are still asked",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "carol", body: "accept\n", status: "applied"},
				{from: "carol", body: "resign\n", status: "applied"},
				{from: "carol", body: "{code:carol}\n", status: "applied", noMail: map[string]string{"alice": "undo:", "bob": "withdrawn"}},
				{from: "bob", body: "accept\n", status: "applied", mail: map[string]string{"alice": "taken back, as bob agreed: alice: add 5"}},
			},
			wantScores: map[string]int{"alice": 0}, wantToAct: "alice",
		},
		{
			name: "the asker resigns: the request is withdrawn and the others are told",
			steps: []step{
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "bob", body: "accept\n", status: "applied"},
				{from: "alice", body: "resign\n", status: "applied"},
				{from: "alice", body: "{code:alice}\n", status: "applied", mail: map[string]string{
					"bob":   "From now on their turns are skipped.\nTheir request to take back alice: add 5 is withdrawn.",
					"carol": "Their request to take back alice: add 5 is withdrawn.",
				}, noMail: map[string]string{"bob": "undo:"}},
				{from: "carol", body: "accept\n", status: "rejected", reason: "There is no undo request to accept."},
			},
			wantScores: map[string]int{"alice": 5}, wantToAct: "bob",
			wantLog: []string{"move alice: add 5", `admin alice: {"admin":"undo request"}`, `admin bob: {"admin":"accept"}`, `admin alice: {"admin":"resign"}`},
		},
		{
			name: "a resignation that ends the game leaves the move",
			steps: []step{
				{from: "carol", body: "resign\n", status: "applied"},
				{from: "carol", body: "{code:carol}\n", status: "applied"},
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "alice", body: "undo\n", status: "applied"},
				{from: "bob", body: "resign\n", status: "applied"},
				{from: "bob", body: "{code:bob}\n", status: "applied", mail: map[string]string{"alice": "Winner: alice"}, noMail: map[string]string{"alice": "undo:"}},
			},
			wantScores: map[string]int{"alice": 5}, wantStatus: store.GameFinished,
			wantLog: []string{`admin carol: {"admin":"resign"}`, "move alice: add 5", `admin alice: {"admin":"undo request"}`, `admin bob: {"admin":"resign"}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestResign_confirmation: resigning takes the code from the confirmation mail; a
// resigned player's turns are skipped, and the last player standing wins.
func TestResign_confirmation(t *testing.T) {
	tests := []scenario{
		{
			name: "asking records nothing and mails the code",
			steps: []step{
				{from: "alice", body: "resign\n", status: "applied", mail: map[string]string{"alice": "Resigning cannot be taken back"},
					noMail: map[string]string{"bob": "resign"}},
			},
			wantLog: []string{},
		},
		{
			name: "a wrong code is refused",
			steps: []step{
				{from: "alice", body: "resign\n", status: "applied"},
				{from: "alice", body: "resign confirm nonsense\n", status: "rejected", reason: "To resign, send the exact line from the confirmation mail"},
				{from: "alice", body: "resign confirm\n", status: "rejected", reason: "To resign, send the exact line"},
			},
			wantLog: []string{},
		},
		{
			name: "another seat's code is refused",
			steps: []step{
				{from: "alice", body: "resign\n", status: "applied"},
				{from: "bob", body: "{code:alice}\n", status: "rejected", reason: "To resign, send the exact line"},
			},
			wantLog: []string{},
		},
		{
			name: "the right code resigns; everyone is told",
			steps: []step{
				{from: "bob", body: "resign\n", status: "applied"},
				{from: "bob", body: "{code:bob}\n", status: "applied", mail: map[string]string{
					"alice": "bob resigned from game", "carol": "bob resigned from game", "host": "bob resigned from game",
				}},
				{from: "bob", body: "resign\n", status: "rejected", reason: "You have resigned from this game already."},
			},
			wantToAct: "alice", wantLog: []string{`admin bob: {"admin":"resign"}`},
		},
		{
			name: "a player who resigns on their turn is skipped at once, and may not move",
			steps: []step{
				{from: "alice", body: "resign\n", status: "applied"},
				{from: "alice", body: "{code:alice}\n", status: "applied", mail: map[string]string{"bob": "Your move"}},
				{from: "alice", body: "add 1\n", status: "rejected", reason: "You resigned from this game"},
				{from: "bob", body: "add 1\n", status: "applied"},
				{from: "carol", body: "add 2\n", status: "applied", mail: map[string]string{"bob": "Your move"}},
			},
			wantScores: map[string]int{"alice": 0, "bob": 1, "carol": 2}, wantToAct: "bob",
			wantLog: []string{`admin alice: {"admin":"resign"}`, "move alice: pass", "move bob: add 1", "move carol: add 2", "move alice: pass"},
		},
		{
			name: "the resignation of the last but one player ends the game",
			steps: []step{
				{from: "bob", body: "resign\n", status: "applied"},
				{from: "bob", body: "{code:bob}\n", status: "applied"},
				{from: "carol", body: "resign\n", status: "applied"},
				{from: "carol", body: "{code:carol}\n", status: "applied", mail: map[string]string{
					"alice": "Winner: alice", "bob": "Winner: alice", "carol": "Winner: alice",
				}},
				{from: "alice", body: "add 1\n", status: "rejected", reason: "The game is over"},
			},
			wantStatus: store.GameFinished,
			wantLog:    []string{`admin bob: {"admin":"resign"}`, `admin carol: {"admin":"resign"}`},
		},
		{
			name: "a resigned player may send status, history and legal, nothing else",
			steps: []step{
				{from: "carol", body: "resign\n", status: "applied"},
				{from: "carol", body: "{code:carol}\n", status: "applied"},
				{from: "carol", body: "status\nhistory\nlegal\n", status: "applied", mail: map[string]string{"carol": "carol resigned"}},
				{from: "carol", body: "add 1\n", status: "rejected", reason: "You resigned from this game"},
				{from: "carol", body: "vacation 2026-12-01 2026-12-02\n", status: "rejected", reason: "You resigned from this game"},
				{from: "alice", body: "add 5\n", status: "applied"},
				{from: "carol", body: "undo\n", status: "rejected", reason: "You resigned from this game"},
				{from: "carol", body: "resign\n", status: "rejected", reason: "You have resigned from this game already."},
			},
			wantScores: map[string]int{"alice": 5}, wantToAct: "bob",
			wantLog: []string{`admin carol: {"admin":"resign"}`, "move alice: add 5"},
		},
		{
			name:    "in a two-player game one resignation ends it",
			players: []string{"alice", "bob"},
			steps: []step{
				{from: "alice", body: "resign\n", status: "applied"},
				{from: "alice", body: "{code:alice}\n", status: "applied", mail: map[string]string{"bob": "Winner: bob"}},
			},
			wantStatus: store.GameFinished,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}
