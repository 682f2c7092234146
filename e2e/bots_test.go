package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/internal/picturecheck"
	"github.com/turnmail/turnmail/mail/parse"
)

// The bots in this file play whole games using nothing but the mails they receive:
// they open, join and start the game in the lobby by mail, read the legal commands
// each state mail lists, fill in its patterns from what the mail shows (the regions,
// their armies and neighbours), and reply the way mail clients do. Anything a bot
// cannot work out from the mail is a defect of the mail, and fails the test.

// botNames are the players' mailbox names (the real-server script creates these).
var botNames = []string{"alice", "bob", "carol", "dave", "erin"}

// TestBotsByMail plays a complete game of every engine, with two players or the
// fewest it allows (three for Necromancer Island), by mail over the
// embedded servers, then checks that the exported archive replays to the winners
// the final mail announced; and the games of boardOptions. The bots play under the
// default mail limits, hundreds of moves in minutes: the mails of play are never
// held back, so no game stalls waiting for a player who was not told to move.
func TestBotsByMail(t *testing.T) {
	t.Parallel()
	for i, kind := range games.Registry().Names() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, harnessOptions{quiet: true, defaultLimits: true})
			lo, _ := playerRange(kind)
			playBots(t, h, kind, max(lo, 2), int64(100+i))
		})
		for j, opts := range boardOptions[kind] {
			t.Run(kind+"-"+opts, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, harnessOptions{quiet: true, defaultLimits: true})
				lo, _ := playerRange(kind)
				playBots(t, h, kind, max(lo, 2), int64(150+10*i+j), opts)
			})
		}
	}
}

// boardOptions are boards that TestBotsByMail also plays with two players: the
// Underground board for five players, whose monsters and volcanoes are placed at
// setup.
var boardOptions = map[string][]string{
	"underground": {"map=underground-5p"},
}

// TestBotsByMailItalian plays a complete game of every engine in Italian, as
// TestBotsByMail does in English: the bots open it in Italian words (which makes it
// an Italian game), read only the Italian mails and copy the Italian commands they
// list; no English may be read, no English command written (checkLanguage).
func TestBotsByMailItalian(t *testing.T) {
	t.Parallel()
	for i, kind := range games.Registry().Names() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, harnessOptions{quiet: true})
			lo, _ := playerRange(kind)
			playBots(t, h, kind, max(lo, 2), int64(170+i), "lang=it")
		})
	}
}

// TestBotsByMail_soak plays games of every engine with every player count from 3
// up to the engine's maximum (at most 5) (TURNMAIL_SOAK=1, make soak).
func TestBotsByMail_soak(t *testing.T) {
	t.Parallel()
	if os.Getenv("TURNMAIL_SOAK") == "" {
		t.Skip("soak: set TURNMAIL_SOAK=1 (make soak)")
	}
	for i, kind := range games.Registry().Names() {
		lo, hi := playerRange(kind)
		for n := max(lo, 3); n <= min(hi, len(botNames)); n++ {
			for j, opts := range append([]string{""}, variantOptions[kind]...) {
				t.Run(fmt.Sprintf("%s-%dp-%d", kind, n, j), func(t *testing.T) {
					t.Parallel()
					h := newHarness(t, harnessOptions{quiet: true})
					playBots(t, h, kind, n, int64(1000+100*i+10*n+j), opts)
				})
			}
		}
	}
}

// TestRealServersBots plays a three-player game of every engine through Dovecot and
// Postfix (TURNMAIL_SOAK=1 and the TURNMAIL_REAL_* variables of .ci/run; its name
// keeps it out of make race with the other real-server test).
func TestRealServersBots(t *testing.T) {
	if os.Getenv("TURNMAIL_SOAK") == "" {
		t.Skip("soak: set TURNMAIL_SOAK=1 (make soak) and TURNMAIL_REAL_*")
	}
	real := realFromEnv(t)
	for i, kind := range games.Registry().Names() {
		lo, hi := playerRange(kind)
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t, harnessOptions{real: real, quiet: true})
			playBots(t, h, kind, min(hi, max(lo, 3)), int64(2000+i))
		})
	}
}

// variantOptions are the options of new (beside players=) that the soak also plays,
// so that the variants' mail is read by the bots too.
var variantOptions = map[string][]string{
	"necromancer": {"difficulty=2"},
	"underground": {"map=underground-2p", "races=all", "map=smallworld-4p races=all"},
	"empire":      {"exploration=true fortresses=true encounters=true leaders=true", "swamp=true layout=ring die_tiebreak=true"},
	"dungeoneer":  {"map=view"},
}

func playerRange(kind string) (lo, hi int) {
	if oc, ok := games.Registry()[kind].(engine.OptionChecker); ok {
		return oc.PlayerRange()
	}
	return 2, 2
}

// bot is one player who knows only its mailbox and the language of its mails.
type bot struct {
	name, addr string
	rng        *rand.Rand
	// kind is the game the bot plays; rd how it reads its mails (English when nil).
	kind string
	rd   *reading
	// mails are the mails of this game seen so far, oldest first.
	mails []*parse.Message
	// answered holds the Message-IDs of the mails the bot has replied to.
	answered map[string]bool
	// sent is the last command line the bot sent, for error reports; outOfTurn is
	// set when it was sent from a mail that was not the bot's move.
	sent string
	// sentAll are all the command lines the bot sent in the game.
	sentAll   []string
	outOfTurn bool
	// winners is what the final mail announced; over is set once it arrived.
	winners []string
	over    bool
	// filled counts the patterns filled in, by verb (reported with -v).
	filled map[string]int
}

// lastMails formats the bot's last n mails for a failure report.
func (b *bot) lastMails(n int) string {
	var out strings.Builder
	for _, m := range b.mails[max(0, len(b.mails)-n):] {
		fmt.Fprintf(&out, "---- to %s: %s\n%s\n", b.name, m.Subject, m.Body)
	}
	return out.String()
}

// reading is how b reads its mails: English unless it was given another language.
func (b *bot) reading() *reading {
	if b.rd == nil {
		rd, err := readingOf(i18n.English)
		if err != nil {
			panic(err) // the embedded catalogues are checked by the i18n tests
		}
		b.rd = rd
	}
	return b.rd
}

// playBots opens a game of kind by mail with n bots, plays it to the end and
// compares the announced winners with the replay of the exported archive. The bots
// write and read English, or Italian when options hold "lang=it": then the host
// opens the game in Italian words (which makes it an Italian game) and every bot
// reads the Italian mails and copies the Italian commands they list.
func playBots(t *testing.T, h *harness, kind string, n int, seed int64, options ...string) {
	svc := h.addr("turnmail")
	lang := i18n.English
	if i := slices.Index(options, "lang=it"); i >= 0 {
		lang, options = i18n.Italian, slices.Delete(slices.Clone(options), i, i+1)
	}
	rd := newReading(t, lang)
	var bots []*bot
	for i := range n {
		bots = append(bots, &bot{name: botNames[i], addr: h.addr(botNames[i]), kind: kind, rd: rd,
			rng: rand.New(rand.NewPCG(uint64(seed), uint64(i))), answered: map[string]bool{}, filled: map[string]int{}})
	}
	defer func() {
		if t.Failed() {
			for _, b := range bots {
				t.Logf("seed %d; last mails of %s (last sent %q):\n%s", seed, b.name, b.sent, b.lastMails(3))
			}
		}
	}()

	// The lobby: the first bot opens the game, the others join, the host starts it.
	host := bots[0]
	id := h.send(host.addr, svc, "a game", rd.command("", strings.TrimSpace(fmt.Sprintf("new %s players=%d %s", kind, n, strings.Join(options, " "))))+"\n")
	opened := botWait(t, h, host, func(m *parse.Message) bool { return m.InReplyTo == id })
	game, ok := rd.opened(opened.Body)
	if !ok {
		t.Fatalf("the answer to new names no game:\n%s", opened.Body)
	}
	// The service draws a game's seed at random; the test fixes it, so that a failing
	// run can be played again move for move (the rest of the setup — the rules
	// version new games get — stays).
	if _, err := h.d.Store.DB().Exec(`UPDATE games SET setup = json_set(setup, '$.seed', ?) WHERE id = ?`, seed, game); err != nil {
		t.Fatal(err)
	}
	stamp := map[string]json.RawMessage{}
	engine.StampSetup(games.Registry()[kind], stamp)
	var rules sql.NullString
	if err := h.d.Store.DB().QueryRow(`SELECT json_extract(setup, '$.rules') FROM games WHERE id = ?`, game).Scan(&rules); err != nil {
		t.Fatal(err)
	}
	if rules.String != string(stamp["rules"]) {
		t.Fatalf("game %s plays rules %q, want the current %q", game, rules.String, stamp["rules"])
	}
	// A join waits for the joiner's confirmation: the bot replies yes to the
	// request, as it says. (lobbyReply quotes with a random generator of its own,
	// so that the game's moves are drawn as before for the same seed.)
	for _, b := range bots[1:] {
		join := rd.command("", "join "+game)
		h.send(b.addr, svc, "join", join+"\n")
		req := botWait(t, h, b, func(m *parse.Message) bool {
			return strings.Contains(m.Body, "    "+join) && strings.Contains(m.Body, rd.joinAsked())
		})
		id := b.lobbyReply(h, req, rd.yes())
		m := botWait(t, h, b, func(m *parse.Message) bool { return m.InReplyTo == id })
		if !strings.Contains(m.Body, rd.joined(game)) {
			t.Fatalf("%s could not join:\n%s", b.name, m.Body)
		}
	}
	// The host starts the game by replying to the answer to new: its Reply-To is
	// the game's host address, where host commands need no confirmation.
	id = host.lobbyReply(h, opened, rd.command("", "start "+game))
	m := botWait(t, h, host, func(m *parse.Message) bool { return m.InReplyTo == id })
	if !strings.Contains(m.Body, rd.started(game)) {
		t.Fatalf("the game did not start:\n%s", m.Body)
	}

	// The game: in rounds, every bot reads its new mail and answers the newest one
	// when it says it is the bot's move; then the service settles.
	defects, progress := 0, time.Now()
	for round := 0; ; round++ {
		if round > 5000 {
			t.Fatalf("game %s does not end after %d rounds", game, round)
		}
		var ids []string
		done := true
		for _, b := range bots {
			b.read(t, h, game)
			if b.over {
				continue
			}
			done = false
			last := b.current(game)
			if last == nil || b.answered[last.MessageID] {
				continue
			}
			repeated := strings.Contains(last.Body, b.reading().sentAlready())
			if repeated {
				// The bot sent the same command twice with nothing changed in between:
				// as a person would, it sends something else from its last state mail.
				b.answered[last.MessageID] = true
				if last = b.stateMail(game); last == nil {
					continue
				}
			}
			if len(b.reading().legalEntries(last.Body)) == 0 {
				// Not its move: a command of any moment, when the mail lists one the bot
				// wants (Dungeoneer: a heal for a hurt hero).
				if cmd := b.dungeonOutOfTurn(last.Body, b.board(game)); cmd != "" {
					b.answered[last.MessageID], b.sent, b.outOfTurn = true, cmd, true
					b.sentAll = append(b.sentAll, cmd)
					ids = append(ids, b.reply(h, last, cmd))
				}
				continue
			}
			// A command sent out of turn may meet a game that moved on since its mail
			// (another's move came first): its refusal is no defect of the mail.
			if line, why, refused := b.reading().notApplied(last.Body); refused && !b.outOfTurn {
				defects++
				t.Errorf("defect of the mail: %s sent %q, refused: %s\nthe mails:\n%s", b.name, line, why, b.lastMails(2))
				if defects > 10 {
					t.FailNow()
				}
			}
			cmd, err := b.choose(last.Body, b.board(game))
			for try := 0; repeated && cmd == b.sent && err == nil && try < 20; try++ {
				cmd, err = b.choose(last.Body, b.board(game))
			}
			if err != nil {
				t.Fatalf("defect of the mail: %s cannot work out a command: %v\n%s", b.name, err, b.lastMails(2))
			}
			b.answered[last.MessageID] = true
			b.sent, b.outOfTurn = cmd, false
			b.sentAll = append(b.sentAll, cmd)
			ids = append(ids, b.reply(h, last, cmd))
		}
		if done {
			break
		}
		if len(ids) == 0 {
			// Nobody may act on the mail they have. The embedded server delivers
			// before the outbox drains, so that is a dead end; real servers may
			// still be delivering.
			if h.d.Mail != nil || time.Since(progress) > waitLimit {
				t.Fatalf("defect of the mail: game %s is not over but no mail says whose move it is", game)
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		for _, id := range ids {
			h.settled(id)
		}
		h.quietOutbox()
		progress = time.Now()
	}

	for _, b := range bots {
		checkThread(t, b, game)
		if lang != i18n.English {
			checkLanguage(t, b, game)
		}
	}
	checkAccounts(t, h, bots, game)

	// Everyone was told the same winners, and the exported archive replays to them.
	want := bots[0].winners
	for _, b := range bots {
		if !slices.Equal(b.winners, want) {
			t.Errorf("%s was told the winners are %v, %s %v", b.name, b.winners, bots[0].name, want)
		}
	}
	checkPictures(t, h, game)
	l, err := h.d.Service.Load(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := l.Archive().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	arch, err := engine.ReadArchive(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("read the exported archive: %v", err)
	}
	st, err := engine.Replay(games.Registry(), arch, -1)
	if err != nil {
		t.Fatalf("replay the exported archive: %v", err)
	}
	if !st.Finished() || !slices.Equal(st.Winners(), want) {
		t.Fatalf("replay: finished %v, winners %v; the final mail said %v", st.Finished(), st.Winners(), want)
	}
	filled := map[string]int{}
	for _, b := range bots {
		for v, k := range b.filled {
			filled[v] += k
		}
	}
	sent := map[string]int{} // the commands sent, by canonical verb
	for _, b := range bots {
		for _, c := range b.sentAll {
			sent[b.reading().canonical(kind, c)]++
		}
	}
	t.Logf("%s %v with %d players: %d events, winners %v; patterns chosen: %v; commands sent: %v", kind, options, n, len(arch.Events), want, filled, sent)
	reportLength(t, kind, options, string(lang), n, measureMails(bots, game))
	if dir := os.Getenv("TURNMAIL_BOTS_DUMP"); dir != "" {
		dumpMails(t, h, dir, strings.Join(append([]string{string(lang), kind}, options...), "-"), bots)
	}
}

// checkThread checks that b's mails of game stay in one thread from the lobby on: the
// first mail with the game's subject (the answer to new or join) is the root, and
// every later one of the game has its subject, References starting with the root's
// Message-ID and an In-Reply-To; the opening mail is one of them.
func checkThread(t *testing.T, b *bot, game string) {
	t.Helper()
	var root *parse.Message
	opened := false
	for _, m := range b.mails {
		about := strings.HasPrefix(m.Subject, "["+game+"] ")
		if !about && !strings.Contains(m.Body, b.reading().footer(game)) || confirmation(m) {
			continue // another game's, or a confirmation request (a subject of its own)
		}
		opened = opened || strings.Contains(m.Body, b.reading().opening())
		if root == nil {
			if !about {
				t.Errorf("%s's first mail of %s has the subject %q, not the game's", b.name, game, m.Subject)
			}
			root = m
			continue
		}
		if m.Subject != root.Subject || len(m.References) == 0 || m.References[0] != root.MessageID || m.InReplyTo == "" {
			t.Errorf("%s's mail of %s leaves the thread: subject %q References %q In-Reply-To %q; the root is %q %q\n%s",
				b.name, game, m.Subject, m.References, m.InReplyTo, root.Subject, root.MessageID, m.Body)
			return
		}
	}
	if root == nil || !opened {
		t.Errorf("%s got no mail of %s, or not its opening mail", b.name, game)
	}
}

// rawCommand matches what only a command as typed has in an account: region pairs
// (3=2), paths (6>2), "sent:" and its Italian.
var rawCommand = regexp.MustCompile(`\d=\d|\d>\d| sent: | ha inviato: `)

// checkAccounts checks that no account of what happened in the mails of game ("Since
// your last mail"), nor the game's history the first bot asks for at the end, shows
// a command as it was typed.
func checkAccounts(t *testing.T, h *harness, bots []*bot, game string) {
	t.Helper()
	check := func(b *bot, what, text string) {
		if m := rawCommand.FindString(text); m != "" {
			t.Errorf("%s's %s of %s shows a command as typed (%q):\n%s", b.name, what, game, m, text)
		}
	}
	since := bots[0].reading().say("Since your last mail:")
	for _, b := range bots {
		for _, m := range b.mails {
			if _, rest, ok := strings.Cut(m.Body, since); ok && strings.Contains(m.Body, b.reading().footer(game)) {
				account, _, _ := strings.Cut(rest, "\n\n")
				check(b, "account", account)
			}
		}
	}
	b := bots[0]
	last := b.current(game)
	if last == nil {
		return
	}
	h.settled(b.reply(h, last, b.reading().command("", "history 500")))
	h.quietOutbox()
	n := len(b.mails)
	b.read(t, h, game)
	for _, m := range b.mails[n:] {
		if strings.Contains(m.Body, b.reading().historyOf(game)) {
			check(b, "history", m.Body)
			return
		}
	}
	t.Errorf("%s got no history of %s", b.name, game)
}

// checkLanguage checks that a bot playing in another language than English read no
// English in its mails of game (langcheck) and wrote every command in that
// language's words, as the mails listed them.
func checkLanguage(t *testing.T, b *bot, game string) {
	t.Helper()
	for _, p := range languageProblems(b, game) {
		t.Error(p)
	}
}

// languageProblems lists what checkLanguage reports.
func languageProblems(b *bot, game string) []string {
	var out []string
	found := map[string]bool{}
	var english langcheck.Checker // the mails repeat most of their lines
	for _, m := range b.mails {
		if !strings.Contains(m.Body, b.reading().footer(game)) {
			continue
		}
		for _, w := range english.English(m.Subject+"\n"+m.Body, langcheck.Rulebook(b.kind)) {
			if !found[w] {
				found[w] = true
				out = append(out, fmt.Sprintf("%s read English in a mail of %s: %s", b.name, game, w))
			}
		}
	}
	for _, cmd := range b.sentAll {
		if _, translated := b.reading().tr.Canonical(b.kind, cmd); !translated {
			out = append(out, fmt.Sprintf("%s sent %q, which is not in %s words", b.name, cmd, b.reading().lang))
		}
	}
	if len(b.sentAll) == 0 {
		out = append(out, fmt.Sprintf("%s sent no command in game %s", b.name, game))
	}
	return out
}

// dumpMails writes every mail the bots read to dir, one file each
// (LANG-KIND-BOT-NNN.txt, its text part, and LANG-KIND-BOT-NNN.eml, the mail as received with
// its HTML part and picture), for a person to read what the players read.
func dumpMails(t *testing.T, h *harness, dir, kind string, bots []*bot) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, b := range bots {
		for i, m := range b.mails {
			name := filepath.Join(dir, fmt.Sprintf("%s-%s-%03d.txt", kind, b.name, i))
			text := "Subject: " + m.Subject + "\n\n" + m.Body
			if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			h.mu.Lock()
			raw := h.raw[m.MessageID]
			h.mu.Unlock()
			if raw != nil {
				if err := os.WriteFile(strings.TrimSuffix(name, ".txt")+".eml", raw, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// botWait waits for a mail to b that matches ok, keeping every mail b reads.
func botWait(t *testing.T, h *harness, b *bot, ok func(*parse.Message) bool) *parse.Message {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	var poll poller
	for time.Now().Before(deadline) {
		var found *parse.Message
		for _, m := range h.inbox(b.addr) {
			b.mails = append(b.mails, m) // every mail read, also those after the awaited one
			if found == nil && ok(m) {
				found = m
			}
		}
		if found != nil {
			return found
		}
		poll.wait()
	}
	t.Fatalf("no awaited mail to %s:\n%s", b.name, b.lastMails(3))
	return nil
}

// current is the newest mail of game the bot has, or nil.
func (b *bot) current(game string) *parse.Message {
	for i := len(b.mails) - 1; i >= 0; i-- {
		if strings.Contains(b.mails[i].Body, b.reading().footer(game)) {
			return b.mails[i]
		}
	}
	return nil
}

// confirmation reports whether m asks to confirm a command: its Reply-To is a one-time
// confirmation address.
func confirmation(m *parse.Message) bool {
	return slices.ContainsFunc(m.ReplyTo, func(a parse.Address) bool { return strings.Contains(a.Address, ".confirm.") })
}

// stateMail is the newest mail of game that lists commands to send (nil when none).
func (b *bot) stateMail(game string) *parse.Message {
	for i := len(b.mails) - 1; i >= 0; i-- {
		if m := b.mails[i]; strings.Contains(m.Body, b.reading().footer(game)) && len(b.reading().legalEntries(m.Body)) > 0 {
			return m
		}
	}
	return nil
}

// board is the text of the newest mail of game that shows the board: a refusal
// lists what may be sent but not the state, which the mail before it shows.
func (b *bot) board(game string) string {
	for i := len(b.mails) - 1; i >= 0; i-- {
		rd := b.reading()
		if body := b.mails[i].Body; strings.Contains(body, rd.footer(game)) && (strings.Contains(body, "\n"+rd.swRegions()) || strings.Contains(body, "\n"+rd.emRegions()) || strings.Contains(body, rd.dungeoneer().heroes)) {
			return body
		}
	}
	return ""
}

// read fetches b's new mail of game and notes the end of the game.
func (b *bot) read(t *testing.T, h *harness, game string) {
	for _, m := range h.inbox(b.addr) {
		if !strings.Contains(m.Body, b.reading().footer(game)) {
			continue // another game's mail (real servers keep earlier runs' mail)
		}
		b.mails = append(b.mails, m)
		if strings.Contains(m.Body, b.reading().over(game)) {
			w, ok := b.reading().winners(m.Body)
			if !ok {
				t.Fatalf("defect of the mail: the final mail to %s names no winner:\n%s", b.name, m.Body)
			}
			b.winners, b.over = w, true
		}
	}
}

// reply answers m with cmd the way a mail client does, and returns its Message-ID.
func (b *bot) reply(h *harness, m *parse.Message, cmd string) string {
	h.t.Helper()
	subject := m.Subject
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	refs := append(slices.Clone(m.References), m.MessageID)
	extra := []string{"In-Reply-To: <" + m.MessageID + ">", "References: <" + strings.Join(refs, "> <") + ">"}
	id := fmt.Sprintf("%s.%d.%d@client.example", b.name, time.Now().UnixNano(), len(b.mails))
	msg := h.rawMail(id, b.addr, replyTo(h.t, m), subject, b.quote(m, cmd), extra...)
	h.sendRaw(b.addr, replyTo(h.t, m), msg)
	return id
}

// lobbyReply is reply with a random generator of its own for the quoting, so
// that the lobby does not change the moves the bot draws for a seed.
func (b *bot) lobbyReply(h *harness, m *parse.Message, cmd string) string {
	h.t.Helper()
	lobby := *b
	lobby.rng = rand.New(rand.NewPCG(uint64(len(b.name)), uint64(len(b.mails))))
	return lobby.reply(h, m, cmd)
}

// quote writes cmd above or below the quoted mail, as the common clients do.
func (b *bot) quote(m *parse.Message, cmd string) string {
	from := m.From.String()
	date := m.Date
	quoted := func(prefix string) string {
		lines := strings.Split(strings.TrimRight(m.Body, "\n"), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(prefix+l, " ")
		}
		return strings.Join(lines, "\n") + "\n"
	}
	sig := ""
	if b.rng.IntN(4) == 0 {
		sig = "\n-- \n" + b.name + "\n"
	} else if b.rng.IntN(4) == 0 {
		sig = "\nSent from my phone\n"
	}
	switch b.rng.IntN(4) {
	case 0: // Gmail, top-posting
		return cmd + "\n" + sig + "\nOn " + date.Format("Mon, 2 Jan 2006 at 15:04") + ", " + from + " wrote:\n\n" + quoted("> ")
	case 1: // Thunderbird or mutt, bottom-posting
		return "On " + date.Format("1/2/06 3:04 PM") + ", " + from + " wrote:\n" + quoted("> ") + "\n" + cmd + "\n" + sig
	case 2: // Outlook
		return cmd + "\n" + sig + "\n________________________________\nFrom: " + from + "\nSent: " + date.Format("Monday, January 2, 2006 3:04 PM") +
			"\nTo: " + b.addr + "\nSubject: " + m.Subject + "\n\n" + quoted("")
	default: // Italian Gmail, top-posting
		return cmd + "\n" + sig + "\nIl giorno " + date.Format("02/01/2006 15:04") + " " + from + " ha scritto:\n\n" + quoted("> ")
	}
}

// legalEntries returns the command lines a mail asks the reader to choose from:
// under "It is your move." in a state mail, "What you can send now:" in a refusal.
func (r *reading) legalEntries(body string) []string {
	_, rest, ok := strings.Cut(body, r.yourMove())
	if !ok {
		if _, rest, ok = strings.Cut(body, r.canSend()); !ok {
			return nil
		}
	}
	rest, _, _ = strings.Cut(rest, r.legalEnd())
	rest, _, _ = strings.Cut(rest, "\n-- \n")
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// choose picks one of the commands the mail lists, filling in a pattern from the
// mail when it picks one, as a person would.
func (b *bot) choose(body, board string) (string, error) {
	entries := b.reading().legalEntries(body)
	if len(entries) == 0 {
		return "", fmt.Errorf("the mail says it is my move but lists no command")
	}
	if cmd := b.dungeon(entries, board); cmd != "" {
		return cmd, nil
	}
	// Weights keep games moving as people's do: conquests and actions mostly,
	// ending the turn or skipping an action now and then.
	weight := func(e string) int {
		switch verb := b.reading().canonical(b.kind, e); verb {
		case "skip", "pass", "decline":
			return 1
		case "abandon":
			return 1
		case "done":
			return 4
		case "conquer", "dragon", "enchant", "berserk", "take", "move", "place", "city", "destroy":
			return 12
		}
		return 6
	}
	for range 20 {
		total := 0
		for _, e := range entries {
			total += weight(e)
		}
		k := b.rng.IntN(total)
		var e string
		for _, e = range entries {
			if k -= weight(e); k < 0 {
				break
			}
		}
		cmd, err := b.fill(e, body, board)
		if err != nil {
			return "", err
		}
		if cmd != "" {
			return cmd, nil
		}
	}
	return "", fmt.Errorf("no entry of %q could be filled in", entries)
}

// The shapes of legal patterns, the same in every language.
var (
	numRangeRe = regexp.MustCompile(`<(\d+)…(\d+)>`)
	choiceRe   = regexp.MustCompile(`<(\d+(?:,\d+)+)>`)
	optRangeRe = regexp.MustCompile(` \[(\d+)…(\d+)\]`)
)

// The notes the bots read to fill patterns (English formats, read in the bot's
// language by reading.fact).
const (
	noteRedeploy = "the region ends with that many; regions %s; %s"
	noteCamps    = "the region ends with that many; regions %s; %d encampments in all: %s, %d on the map"
	noteTwo      = "two different regions of %s"
	noteToPlace  = "%d tokens to place"
	noteTakeBack = "take %d tokens back into your hand: your %s keep %d there"
	noteUpTo     = "up to %d armies in all, in %s"
	notePays     = "pays %s 1 coin per army"
	notePoints   = "along the path you name: land and crossings 1 point, sea routes %d, %d points left"
)

// listedRegions reads the regions a note offers ("regions 3,7", "two different
// regions of 3,7"), and whether the note says that R=N is what region R ends with.
func (r *reading) listedRegions(note string) (regions []string, ends bool) {
	for _, key := range []string{noteCamps, noteRedeploy, noteTwo} {
		if g := r.fact(key).find(note); g != nil {
			for _, id := range strings.Split(g[1], ",") {
				regions = append(regions, strings.TrimSpace(id))
			}
			return regions, key != noteTwo
		}
	}
	return nil, false
}

// fill turns a legal entry into a command line: a concrete entry is copied (with
// its explanation, sometimes, as copying the whole line does), a pattern is filled
// in from the mail. It returns "" for a pattern the bot passes over this time.
func (b *bot) fill(entry, body, board string) (string, error) {
	if !engine.IsPattern(entry) {
		if b.rng.IntN(3) == 0 {
			return entry, nil
		}
		cmd, _, _ := strings.Cut(entry, " #")
		return strings.TrimSpace(cmd), nil
	}
	cmd, note, _ := strings.Cut(entry, " #")
	cmd = strings.TrimSpace(cmd)
	verb := b.reading().canonical(b.kind, cmd)
	b.filled[verb]++
	cmd = choiceRe.ReplaceAllStringFunc(cmd, func(m string) string {
		alts := strings.Split(m[1:len(m)-1], ",")
		return alts[b.rng.IntN(len(alts))]
	})
	switch {
	case !engine.IsPattern(cmd):
		return cmd, nil
	case strings.Contains(cmd, b.reading().placeholder(b.kind, "region")):
		return b.fillRegions(cmd, note, body, board)
	case numRangeRe.MatchString(cmd) || optRangeRe.MatchString(cmd):
		cmd = optRangeRe.ReplaceAllStringFunc(cmd, func(s string) string {
			if b.rng.IntN(3) == 0 {
				return ""
			}
			g := optRangeRe.FindStringSubmatch(s)
			return " " + b.between(g[1], g[2])
		})
		return numRangeRe.ReplaceAllStringFunc(cmd, func(s string) string {
			g := numRangeRe.FindStringSubmatch(s)
			return b.between(g[1], g[2])
		}), nil
	}
	return "", fmt.Errorf("a pattern the mail does not explain: %q", entry)
}

// takeBack fills a redeploy that takes n tokens back into the hand from the listed
// regions (Amazons), never a region's last.
func (b *bot) takeBack(word, n string, listed []string, regions map[string]region) (string, error) {
	back, _ := strconv.Atoi(n)
	var parts []string
	for _, r := range listed {
		cur, known := regions[r]
		if !known || cur.owner != b.name {
			return "", fmt.Errorf("redeploy: region %s is offered but the mail does not show my tokens there", r)
		}
		take := min(back, cur.tokens-1)
		if take > 0 {
			back -= take
			parts = append(parts, fmt.Sprintf("%s=%d", r, cur.tokens-take))
		}
	}
	if back > 0 || len(parts) == 0 {
		return "", fmt.Errorf("redeploy: cannot take %s tokens back from %v", n, listed)
	}
	return word + " " + strings.Join(parts, " "), nil
}

func (b *bot) between(lo, hi string) string {
	l, _ := strconv.Atoi(lo)
	h, _ := strconv.Atoi(hi)
	if h < l {
		return lo
	}
	return strconv.Itoa(l + b.rng.IntN(h-l+1))
}

// fillRegions fills the patterns that name regions: redeploy, camp, hero and reborn
// (Small World), place and move (Eight-Minute Empire). cmd is the pattern as the
// mail lists it, in its language's words, note its note.
func (b *bot) fillRegions(cmd, note, body, board string) (string, error) {
	rd := b.reading()
	word, verb := strings.Fields(cmd)[0], rd.canonical(b.kind, cmd)
	regions := parseRegions(rd, board, b.name)
	listed, ends := rd.listedRegions(note)
	switch verb {
	case "redeploy":
		toPlace := rd.fact(noteToPlace).find(note)
		if g := rd.fact(noteTakeBack).find(note); g != nil && len(listed) > 0 && toPlace == nil {
			return b.takeBack(word, g[1], listed, regions)
		}
		if toPlace == nil || len(listed) == 0 {
			return "", fmt.Errorf("redeploy: the mail does not say where and how many tokens: %q", note)
		}
		hand, _ := strconv.Atoi(toPlace[1])
		// The tokens in hand go on top of those in the regions. A reader who is not
		// told that R=N is what region R ends with reads N as the tokens put there.
		add := map[string]int{}
		for range hand {
			add[listed[b.rng.IntN(len(listed))]]++
		}
		if hand == 0 {
			if !ends {
				return "", nil // nothing to put anywhere
			}
			add[listed[b.rng.IntN(len(listed))]] = 0
		}
		var parts []string
		for _, r := range listed {
			if n, ok := add[r]; ok {
				cur, known := regions[r]
				if !known || cur.owner != b.name {
					return "", fmt.Errorf("redeploy: region %s is offered but the mail does not show my tokens there", r)
				}
				if ends {
					n += cur.tokens
				}
				parts = append(parts, fmt.Sprintf("%s=%d", r, n))
			}
		}
		return word + " " + strings.Join(parts, " "), nil
	case "camp":
		g := rd.fact(noteCamps).find(note)
		if g == nil || len(listed) == 0 {
			return "", fmt.Errorf("camp: the mail does not say where and how many encampments: %q", note)
		}
		if g[4] != "0" {
			return "", nil // the bot places its encampments once
		}
		return fmt.Sprintf("%s %s=%s", word, listed[b.rng.IntN(len(listed))], b.between("1", g[2])), nil
	case "hero", "reborn":
		if len(listed) < 2 {
			return "", fmt.Errorf("%s: the mail does not list two regions: %q", verb, note)
		}
		i := b.rng.Perm(len(listed))
		return word + " " + listed[i[0]] + " " + listed[i[1]], nil
	case "place":
		return b.fillPlace(word, note, body)
	case "move":
		return b.fillMove(word, note, regions)
	}
	return "", fmt.Errorf("a region pattern the bot does not know: %s … %q", verb, note)
}

// fillPlace places armies in two of the regions listed, each within what its own
// entry allows.
func (b *bot) fillPlace(word, note, body string) (string, error) {
	rd := b.reading()
	g := rd.fact(noteUpTo).find(note)
	if g == nil {
		return "", fmt.Errorf("place: the mail does not say how many armies and where: %q", note)
	}
	most, _ := strconv.Atoi(g[1])
	var where []string
	for _, r := range strings.Split(g[2], ",") {
		where = append(where, strings.TrimSpace(r))
	}
	limit := map[string]int{}
	paying := map[string]bool{}
	for _, e := range rd.legalEntries(body) {
		var r string
		var lo, hi int
		if _, err := fmt.Sscanf(e, word+" %s", &r); err != nil {
			continue
		}
		regs, most, ok := strings.Cut(r, "=")
		if !ok {
			continue
		}
		if n, err := fmt.Sscanf(most, "<%d…%d>", &lo, &hi); n != 2 || err != nil {
			if most != "1" {
				continue
			}
			hi = 1
		}
		// One region, or a choice of several: "<4,9>".
		for _, reg := range strings.Split(strings.Trim(regs, "<>"), ",") {
			limit[reg] = hi
			paying[reg] = rd.fact(notePays).in(e)
		}
	}
	b.rng.Shuffle(len(where), func(i, j int) { where[i], where[j] = where[j], where[i] })
	var parts []string
	left, payers := most, 0
	for _, r := range where {
		if len(parts) == 2 || left == 0 {
			break
		}
		if paying[r] {
			if payers++; payers > 1 {
				continue
			}
		}
		lim := min(limit[r], left-1+len(parts)) // leave room for a second region
		if lim < 1 {
			lim = 1
		}
		n := 1 + b.rng.IntN(lim)
		parts = append(parts, fmt.Sprintf("%s=%d", r, n))
		left -= n
	}
	return word + " " + strings.Join(parts, " "), nil
}

// fillMove walks from a region holding the bot's armies along land neighbours, as
// far as the points left allow.
func (b *bot) fillMove(word, note string, regions map[string]region) (string, error) {
	g := b.reading().fact(notePoints).find(note)
	if g == nil {
		return "", fmt.Errorf("move: the mail does not say how many points are left: %q", note)
	}
	left, _ := strconv.Atoi(g[2])
	var from []string
	for id, r := range regions {
		if r.mine > 0 {
			from = append(from, id)
		}
	}
	if len(from) == 0 {
		return "", fmt.Errorf("move: the mail offers a move but shows no region with my armies")
	}
	slices.Sort(from)
	src := from[b.rng.IntN(len(from))]
	path := []string{src}
	for steps := 1 + b.rng.IntN(max(left, 1)); len(path) <= steps; {
		var next []string
		for _, r := range regions[path[len(path)-1]].land {
			if !slices.Contains(path, r) {
				next = append(next, r)
			}
		}
		if len(next) == 0 {
			break
		}
		path = append(path, next[b.rng.IntN(len(next))])
	}
	if len(path) < 2 {
		return "", nil
	}
	cmd := word + " " + strings.Join(path, ">")
	if most := min(regions[src].mine, left/(len(path)-1)); most > 1 && b.rng.IntN(2) == 0 {
		cmd += " " + strconv.Itoa(1+b.rng.IntN(most))
	}
	return cmd, nil
}

// region is what a state mail shows of one region.
type region struct {
	owner  string // Small World: the player holding it
	tokens int    // Small World: their tokens
	mine   int    // Eight-Minute Empire: the reader's armies
	land   []string
}

// emRegionRe reads a row of Eight-Minute Empire's region table in r's language:
// "    3   armies alice×2 bob×1, cities alice×1, controlled by alice — land 2, 4;
// sea none" (the armies, the land neighbours).
func (r *reading) emRegionRe() *regexp.Regexp {
	word := func(key string) string { return regexp.QuoteMeta(strings.TrimSuffix(r.say(key, "\x00"), "\x00")) }
	return regexp.MustCompile(`^\s+(\d+)\s+(` + word("armies %s") + `[^—,]*)?.*— ` + word("land %s") + `([^;]*); ` + word("sea %s"))
}

// tableRows returns the rows of a table of a plain-text mail, up to its first blank
// line: a row longer than a mail line continues on lines indented deeper than the
// row's number (under its text or its second column), which are joined to it.
func tableRows(lines []string) []string {
	var rows []string
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	numberAt := func(l string) int { return strings.IndexFunc(l, func(r rune) bool { return r >= '0' && r <= '9' }) }
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			break
		}
		if n := len(rows); n > 0 && numberAt(rows[n-1]) >= 0 && indent(l) > numberAt(rows[n-1]) {
			rows[n-1] += " " + strings.TrimSpace(l)
			continue
		}
		rows = append(rows, l)
	}
	return rows
}

// parseRegions reads the regions a state mail shows in r's language: a Small World
// reader's own ("Your regions: 4* ×2 [fortress], 7 ×1."), or the rows of an Empire
// mail's table of the reader's regions and those that changed.
func parseRegions(r *reading, body, me string) map[string]region {
	out := map[string]region{}
	if _, list, ok := strings.Cut(strings.ReplaceAll(body, " \n", " "), "\n"+r.swRegions()); ok {
		list, _, _ = strings.Cut(list, ".\n")
		for _, item := range strings.Split(list, ", ") {
			if g := swOwnRe.FindStringSubmatch(item); g != nil {
				n, _ := strconv.Atoi(g[2])
				out[g[1]] = region{owner: me, tokens: n}
			}
		}
		return out
	}
	_, list, ok := strings.Cut(body, "\n"+r.emRegions())
	if !ok {
		return out
	}
	emRegion, none := r.emRegionRe(), r.say("land none")
	for _, l := range tableRows(strings.Split(list, "\n")[1:]) {
		if g := emRegion.FindStringSubmatch(l); g != nil {
			r := region{}
			for _, a := range strings.Fields(g[2]) {
				if n, ok := strings.CutPrefix(a, me+"×"); ok {
					r.mine, _ = strconv.Atoi(n)
				}
			}
			if !strings.Contains(l, none) {
				for _, n := range strings.Split(g[3], ",") {
					r.land = append(r.land, strings.TrimSpace(n))
				}
			}
			out[g[1]] = r
		}
	}
	return out
}

// swOwnRe reads one of a Small World reader's regions: "4* ×2 [fortress]", the id
// and the tokens.
var swOwnRe = regexp.MustCompile(`^(\d+)\*? ×(\d+)`)

// checkPictures checks that every state mail of game carries the board's picture,
// shown by its Content-ID and within its budget (issue 22).
func checkPictures(t *testing.T, h *harness, game string) {
	t.Helper()
	rows, err := h.d.Store.Outbox(context.Background(), game, "")
	if err != nil {
		t.Fatal(err)
	}
	n, largest := 0, 0
	for _, r := range rows {
		if r.Kind != "state" {
			continue
		}
		p, err := picturecheck.Read(r.Raw)
		if err != nil {
			t.Errorf("state mail %d to %s: %v", r.ID, r.To[0], err)
			continue
		}
		n, largest = n+1, max(largest, len(p.PNG))
	}
	if n == 0 {
		t.Errorf("game %s: no state mail with a picture", game)
	}
	t.Logf("game %s: %d state mails, each with its picture (the largest %d bytes)", game, n, largest)
}
