package service

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/mail"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// ReplyAddress is the personal reply address of a seat.
func (s *Service) ReplyAddress(gameID string, seat int) string {
	return auth.ReplyAddress(s.local, s.domain, auth.Token(s.opts.Secret, gameID, seat))
}

// threadRoot is the Message-ID every mail of a game refers to, so that mail clients
// show one thread per game.
func (s *Service) threadRoot(gameID string) string { return gameID + "@" + s.domain }

func (s *Service) gameData(g store.Game) templates.Game {
	return templates.Game{ID: g.ID, Kind: g.Kind, Title: templates.GameTitle(g.Kind)}
}

// viewMap decodes an engine view into the map the templates read.
func viewMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode view: %w", err)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decode view: %w", err)
	}
	return m, nil
}

// stateMails renders the state mail for every seat after events were appended. The
// player whose mail caused them also sees what was applied and any refused line.
func (s *Service) stateMails(l *Loaded, state engine.State, events []store.Event, author string, applied []templates.Line, lineErr *templates.LineError, replyTo string) ([]store.OutMail, error) {
	moves := make([]templates.Move, len(events))
	for i, e := range events {
		moves[i] = templates.Move{Seq: e.Seq, Player: e.Player, Command: e.Command}
	}
	toAct := state.ToAct()
	var out []store.OutMail
	for _, p := range l.Seats() {
		masked := make([]templates.Move, len(moves))
		for i, m := range moves {
			m.Command = engine.MaskCommand(state, m.Player, m.Command, p.Name)
			masked[i] = m
		}
		view, err := viewMap(state.View(p.Name))
		if err != nil {
			return nil, err
		}
		data := templates.State{
			Game:     s.gameData(l.Game),
			Player:   p.Name,
			Opening:  len(events) == 0,
			Moves:    masked,
			ToAct:    toAct,
			YourTurn: contains(toAct, p.Name),
			Legal:    state.Legal(p.Name),
			Finished: state.Finished(),
			Winners:  state.Winners(),
			View:     view,
			ReplyTo:  s.ReplyAddress(l.Game.ID, p.Seat),
		}
		inReply, auto := "", "auto-generated"
		if p.Name == author {
			data.Applied, data.Error = applied, lineErr
			inReply, auto = replyTo, "auto-replied"
		}
		m, err := s.mail("state", data, l.Game.ID, p.Email, data.ReplyTo, inReply, nil, auto)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// refusal renders the answer to a mail from which nothing was applied.
func (s *Service) refusal(l *Loaded, p store.Player, reason string, lineErr *templates.LineError, replyTo string) (store.OutMail, error) {
	data := templates.Refusal{
		Game:    s.gameData(l.Game),
		Player:  p.Name,
		Error:   lineErr,
		ToAct:   l.State.ToAct(),
		Legal:   l.State.Legal(p.Name),
		ReplyTo: s.ReplyAddress(l.Game.ID, p.Seat),
	}
	if lineErr == nil {
		data.Reason = reason
	}
	return s.mail("refusal", data, l.Game.ID, p.Email, data.ReplyTo, replyTo, nil, "auto-replied")
}

// mail renders a mail kind and builds the outbox row.
func (s *Service) mail(kind string, data any, gameID, to, replyTo, inReplyTo string, headers map[string]string, auto string) (store.OutMail, error) {
	subject, err := s.tmpl.Subject(kind, data)
	if err != nil {
		return store.OutMail{}, err
	}
	text, html, err := s.tmpl.Render(kind, data)
	if err != nil {
		return store.OutMail{}, err
	}
	m := compose.Mail{
		From:          mail.Address{Name: s.opts.Name, Address: s.local + "@" + s.domain},
		To:            []mail.Address{{Address: to}},
		Subject:       subject,
		MessageID:     s.newMessageID(gameID),
		Date:          s.opts.Clock(),
		AutoSubmitted: auto,
		Headers:       headers,
		Text:          text,
		HTML:          html,
	}
	if replyTo != "" {
		m.ReplyTo = mail.Address{Name: s.opts.Name, Address: replyTo}
	}
	if gameID != "" {
		root := s.threadRoot(gameID)
		m.References = []string{root}
		m.InReplyTo = root
	}
	if inReplyTo != "" {
		m.InReplyTo = inReplyTo
		m.References = append(m.References, inReplyTo)
	}
	raw, err := compose.Build(m)
	if err != nil {
		return store.OutMail{}, fmt.Errorf("compose %s mail: %w", kind, err)
	}
	return store.OutMail{GameID: gameID, Kind: kind, From: s.local + "@" + s.domain, To: []string{to}, Raw: raw, Status: "pending"}, nil
}

func (s *Service) newMessageID(gameID string) string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	prefix := "turnmail"
	if gameID != "" {
		prefix = gameID
	}
	return prefix + "." + hex.EncodeToString(b[:]) + "@" + s.domain
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
