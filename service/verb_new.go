package service

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb new (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "new", who: anyone, lobbyHelp: "open a game; you are its host and first player",
		lobby: func(s *Service, ctx context.Context, c lobbyCall) (templates.Notice, error) {
			return s.lobbyNew(ctx, c.tx, c.from, c.args, c.msg, c.lineNo)
		}})
}

// lobbyNew opens a game with the sender as host and first player. Its options are
// checked through the engine first: nothing is created when one is wrong.
func (s *Service) lobbyNew(ctx context.Context, tx *lobbyTx, from string, args []string, msg *parse.Message, lineNo int) (templates.Notice, error) {
	if len(args) == 0 {
		return lobbyError(tx.t("Write new GAME [option=value …], e.g. new smallworld deadline=48h. Games: %s.", strings.Join(s.games.Names(), ", "))), nil
	}
	kind := strings.ToLower(args[0])
	eng, err := s.games.Lookup(kind)
	if err != nil {
		return lobbyError(s.unknownGame(tx.lang, kind)), nil
	}
	lowered := make([]string, len(args)-1)
	for i, a := range args[1:] {
		if k, v, ok := strings.Cut(a, "="); ok {
			lowered[i] = strings.ToLower(k) + "=" + v
		} else {
			lowered[i] = a
		}
	}
	settings, opts, err := SplitOptions(lowered)
	if err != nil {
		return lobbyError(tx.t("%s. Nothing was created.", s.reasonIn(tx.lang, "", err))), nil
	}
	if why := checkNewOptions(tx.t, func(err error) string { return s.reasonIn(tx.lang, kind, err) }, eng, settings, opts); why != "" {
		return lobbyError(why), nil
	}
	if settings.Lang == "" {
		settings.Lang = tx.lang // a host who writes Italian opens an Italian game
	}
	id, err := s.newLobbyGameID(ctx, tx, kind, msg.MessageID, lineNo)
	if err != nil {
		return templates.Notice{}, err
	}
	optsJSON, _ := json.Marshal(opts)
	settingsJSON, _ := json.Marshal(settings)
	stamp := map[string]json.RawMessage{"seed": json.RawMessage(fmt.Sprint(mrand.Int64N(1_000_000_000)))}
	engine.StampSetup(eng, stamp)
	setup, _ := json.Marshal(stamp)
	now := s.opts.Clock()
	g := store.Game{ID: id, Kind: kind, Options: optsJSON, Setup: setup, Status: store.GameOpen, Host: from,
		List: settings.List, CreatedAt: now, UpdatedAt: now, Settings: settingsJSON}
	name := seatName(from, s.nameFree(nil))
	seats := []store.Player{{Seat: 0, Name: name, Email: from, Role: store.RolePlayer, Active: true}}
	tx.create(g, seats)
	n := templates.Notice{Kind: "created", Game: s.gameData(g, seats), Player: name, Lines: settings.Describe(s.tr, tx.lang), Host: from}
	if settings.List != "" {
		// The list gets the game's mail once someone on it confirms (mayMailList).
		var c store.Commit
		k := store.Confirmation{Address: settings.List, Actor: from, GameID: id, Grant: grantList, AnyFrom: true}
		lang := s.langOf(settings, "") // the list reads the game's language
		ask := templates.Notice{Game: n.Game, Text: "list", Actor: from, Lines: settings.Describe(s.tr, lang), Lang: string(lang)}
		if err := s.ask(&c, k, ask, true, from); err != nil {
			return n, err
		}
		tx.commit(c)
		n.Address = settings.List
	}
	return n, nil
}

// checkNewOptions checks the engine options and the number of seats of a new game
// through the engine, and says what is wrong with t, in the reader's language ("" when
// nothing is); reason renders the engine's error (its rule error in the reader's
// language).
func checkNewOptions(t sprintf, reason func(error) string, eng engine.Game, st Settings, opts map[string]json.RawMessage) string {
	if oc, ok := eng.(engine.OptionChecker); ok && st.MaxPlayers > 0 {
		if lo, hi := oc.PlayerRange(); st.MaxPlayers < lo || st.MaxPlayers > hi {
			return t("players=%d: %s is for %d to %d players. Nothing was created.", st.MaxPlayers, eng.Name(), lo, hi)
		}
	}
	if err := engine.CheckOptions(eng, opts, st.MaxPlayers); err != nil {
		return t("%s. Nothing was created; see rules %s for the game's options.", reason(err), eng.Name())
	}
	return ""
}

// newLobbyGameID returns an unused id for a game opened by mail: derived from the
// mail's Message-ID and line (so the same mail gives the same id), else random.
func (s *Service) newLobbyGameID(ctx context.Context, tx *lobbyTx, kind, messageID string, lineNo int) (string, error) {
	prefix, _, _ := strings.Cut(store.NewGameID(kind), "-")
	for try := 0; ; try++ {
		id := store.NewGameID(kind)
		if messageID != "" && try < 10 {
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%d", messageID, lineNo, try)))
			const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
			b := make([]byte, 5)
			for i := range b {
				b[i] = alphabet[sum[i]&31]
			}
			id = prefix + "-" + string(b)
		}
		taken, err := tx.exists(ctx, id)
		if err != nil || !taken {
			return id, err
		}
	}
}
