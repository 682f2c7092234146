package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
)

// Authentication: who a received mail proves to come from. A From header proves
// nothing on its own; what proves something is the reply address the mail was sent
// to (a token only the service can make, see mail/auth) together with a From that
// matches what the token names. It happens in two halves, both here:
//
//   - claimOf, from the mail alone (before any lock is taken, see route): which
//     reply address it came to — a seat's, a game's host address, a confirmation
//     address, or the plain service address — and whether the token is genuine;
//   - authenticate, against the stored state (under the lock the claim asks for):
//     whether the seat, game or confirmation the token names exists and belongs to
//     the From address. It returns the typed principal every path decides with.

// principalKind is what a mail proved (principal.kind).
type principalKind int

const (
	// principalRefused: the mail proves nothing it claims (a forged or broken
	// token, a From that is not the address the token names, an unknown game, a
	// revoked seat epoch …) or is decided from the mail alone (auto-generated, our
	// own, unreadable): principal.refused is its outcome, and nobody is answered.
	principalRefused principalKind = iota
	// principalBounce: a delivery status notification (see bounce.go, which
	// proves each bounce it reads against the mail it names).
	principalBounce
	// principalStranger: mail to the plain service address. It proves nothing
	// beyond what any From header says: the lobby answers it, and whatever acts for
	// a person needs a confirmation round trip (see confirm.go).
	principalStranger
	// principalSeat: a seat's reply address from that seat's address.
	principalSeat
	// principalHost: a game's host reply address from the host's address.
	principalHost
	// principalConfirmation: a one-time confirmation address, answered from the
	// address asked (or any, for a mailing list's consent).
	principalConfirmation
)

// principal is who a received mail proved to come from, and what the proof gives.
type principal struct {
	kind principalKind
	// refused is the outcome of a principalRefused mail.
	refused Result
	from    string
	msg     *parse.Message
	// tooLarge: the mail was too large and only its header was read.
	tooLarge bool
	// l and player are the game and seat of a principalSeat.
	l      *Loaded
	player store.Player
	// gameID is the game of a principalHost.
	gameID string
	// conf is the confirmation a principalConfirmation answers.
	conf store.Confirmation
}

// credential is what the principal proves to the lobby (see lobby).
func (p principal) credential() credential {
	switch p.kind {
	case principalHost:
		return credential{proven: true, game: p.gameID, grant: grantHost}
	case principalConfirmation:
		return credential{proven: true, game: p.conf.GameID, grant: p.conf.Grant, consented: p.conf.Address}
	}
	return credential{}
}

// refusedBy is a principal refused with status and reason, in game ("" for none).
func refusedBy(status, reason, game string) principal {
	return principal{kind: principalRefused, refused: Result{Status: status, Reason: reason, GameID: game}}
}

// claimOf reads the reply token of a parsed mail from an answerable From (the
// first half of authentication: route). A mail without a token goes to the lobby,
// unless it is a mailing list's post or too large to read; a token that is not
// genuine is refused here.
func (s *Service) claimOf(msg *parse.Message, from string, tooLarge bool) route {
	early := func(status, reason string) route {
		return route{early: Result{Status: status, Reason: reason}}
	}
	token, ok := s.tokenOf(msg)
	if !ok {
		if msg.ListID != "" || msg.Precedence == "list" {
			// A post to a game's mailing list reaches us as a list member: moves come
			// only through the players' own reply addresses, and the list gets no answer.
			return early(StatusIgnored, "mailing-list post without a reply token")
		}
		if tooLarge {
			return early(StatusRejected, "mail too large, without a reply token")
		}
		return route{reads: readsAll, msg: msg, from: from}
	}
	if auth.IsKinded(token) {
		// A game's host reply address, or a one-time confirmation address.
		kind, subject, err := auth.ParseKind(s.opts.Secret, token)
		switch {
		case err != nil:
			return early(StatusRejected, "invalid reply token")
		case tooLarge:
			return early(StatusRejected, "mail too large, to a "+kind+" address")
		case kind == auth.KindHost:
			return route{reads: readsAll, msg: msg, from: from, hostGame: subject}
		}
		return route{reads: readsAll, msg: msg, from: from, code: subject}
	}
	gameID, seat, err := auth.Parse(s.opts.Secret, token)
	if err != nil {
		return early(StatusRejected, "invalid reply token")
	}
	return route{reads: readsGame, msg: msg, from: from, tooLarge: tooLarge, gameID: gameID, seat: seat}
}

// tokenOf finds a reply token among the addresses the mail was sent to.
func (s *Service) tokenOf(msg *parse.Message) (string, bool) {
	for _, addr := range msg.Recipients() {
		if t, ok := auth.TokenFrom(addr, s.local, s.domain); ok && t != "" {
			return t, true
		}
	}
	return "", false
}

// authenticate checks a routed mail's claim against the stored state and returns
// its principal (the second half of authentication). A claim the state refutes is
// refused without an answer: answering a forged From would be backscatter; the
// host sees the reason in the inbox. err is a failure to read the state.
func (s *Service) authenticate(ctx context.Context, rt route) (principal, error) {
	p := principal{from: rt.from, msg: rt.msg, tooLarge: rt.tooLarge}
	switch {
	case rt.reads == readsNothing:
		return principal{kind: principalRefused, refused: rt.early}, nil
	case rt.bounce:
		p.kind = principalBounce
		return p, nil
	case rt.code != "":
		return s.confirmationPrincipal(ctx, p, rt.code)
	case rt.hostGame != "":
		return s.hostPrincipal(ctx, p, rt.hostGame)
	case rt.reads == readsAll:
		p.kind = principalStranger
		return p, nil
	}
	return s.seatPrincipal(ctx, p, rt.gameID, rt.seat)
}

// seatPrincipal proves mail to the reply address of token seat tokenSeat (the
// seat and its epoch, see epochStride) of game gameID.
func (s *Service) seatPrincipal(ctx context.Context, p principal, gameID string, tokenSeat int) (principal, error) {
	l, err := s.Load(ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return refusedBy(StatusRejected, "reply token names an unknown game", gameID), nil
	}
	if err != nil {
		return principal{}, err
	}
	if l.State == nil {
		return refusedBy(StatusRejected, "the game has not started", gameID), nil
	}
	player, why := seatClaim(l.Seats(), tokenSeat, p.from)
	if why != "" {
		return refusedBy(StatusRejected, why, gameID), nil
	}
	p.kind, p.l, p.player = principalSeat, l, player
	return p, nil
}

// seatClaim checks mail from the address from to the reply address of token seat
// tokenSeat against a game's seats: the seat it names, or why the claim fails (a
// seat that does not exist, an epoch that is not the seat's, another From).
func seatClaim(seats []store.Player, tokenSeat int, from string) (store.Player, string) {
	i := slices.IndexFunc(seats, func(p store.Player) bool { return p.Seat == tokenSeat%epochStride })
	if i < 0 {
		return store.Player{}, "reply token names an unknown seat"
	}
	player := seats[i]
	if player.Epoch != tokenSeat/epochStride {
		// The seat was handed to another address: the old reply address is dead (the
		// old player was told when it happened).
		return store.Player{}, fmt.Sprintf("reply address no longer valid: the seat of %s was handed to another player", player.Name)
	}
	if !strings.EqualFold(player.Email, from) {
		// A valid token with another From is a forgery or a second address.
		return store.Player{}, fmt.Sprintf("From %s is not the address of %s", from, player.Name)
	}
	return player, ""
}

// hostPrincipal proves mail to the host reply address of game gameID: from the
// host's address it proves the host.
func (s *Service) hostPrincipal(ctx context.Context, p principal, gameID string) (principal, error) {
	g, _, err := s.store.Game(ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return refusedBy(StatusRejected, "host reply address of an unknown game", gameID), nil
	}
	if err != nil {
		return principal{}, fmt.Errorf("host address of %s: %w", gameID, err)
	}
	if g.Host == "" || !strings.EqualFold(g.Host, p.from) {
		return refusedBy(StatusRejected, fmt.Sprintf("From %s is not the host of %s", p.from, gameID), gameID), nil
	}
	p.kind, p.gameID = principalHost, gameID
	return p, nil
}

// confirmationPrincipal proves a reply to the confirmation address of code: a
// confirmation still open, answered from the address it asked (any address for a
// mailing list's consent).
func (s *Service) confirmationPrincipal(ctx context.Context, p principal, code string) (principal, error) {
	k, err := s.store.ConfirmationOf(ctx, code, s.opts.Clock())
	if errors.Is(err, store.ErrNotFound) {
		return refusedBy(StatusRejected, "confirmation address unknown, used or expired", ""), nil
	}
	if err != nil {
		return principal{}, err
	}
	if !k.AnyFrom && !strings.EqualFold(p.from, k.Address) {
		return refusedBy(StatusRejected, "confirmation from another address than the one asked", k.GameID), nil
	}
	p.kind, p.conf = principalConfirmation, k
	return p, nil
}
