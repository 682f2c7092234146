package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
)

// italianLegal returns the commands listed in a state mail, ready to copy.
func italianLegal(m *parse.Message) []string { return legalLines(m) }

// TestItalianGameByMail plays Small World by mail in Italian: the game is opened with
// lang=it, both players copy only the Italian commands their mails list (prendi,
// conquista, fatto …) and the moves apply; the log keeps the canonical commands; a
// refused Italian line is answered in Italian; a player may switch to English.
func TestItalianGameByMail(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	ann, ben := h.addr("ann"), h.addr("ben")
	ng := service.NewGame{Kind: "smallworld", Seed: 11, Settings: service.Settings{Lang: i18n.Italian}}
	for _, p := range []string{"ann", "ben"} {
		ng.Players = append(ng.Players, engine.Player{Name: p, Email: h.addr(p)})
	}
	id, err := h.d.Service.CreateGame(context.Background(), ng)
	if err != nil {
		t.Fatal(err)
	}
	a := h.waitMail(ann, "It is your move")
	legal := italianLegal(a)
	pick := firstConcrete(legal, "prendi")
	if pick == "" || firstConcrete(legal, "pick") != "" {
		t.Fatalf("ann's opening mail does not list Italian commands:\n%s", a.Body)
	}

	// A line that cannot apply: the reason in Italian, with Italian commands.
	h.send(ann, replyTo(t, a), "Re", "conquista 4\n")
	refused := h.waitMail(ann, "non hai una razza attiva", "prendi 1")
	if strings.Contains(refused.Body, "you have no active race") {
		t.Errorf("the refusal is in English:\n%s", refused.Body)
	}

	// Each player plays a whole turn with the words their mails list.
	turn := func(addr string, m *parse.Message) *parse.Message {
		t.Helper()
		lines := italianLegal(m)
		cmds := []string{firstConcrete(lines, "prendi")}
		h.send(addr, replyTo(t, m), "Re", cmds[0]+"\n")
		m = h.waitMail(addr, "It is your move")
		for i := 0; i < 2; i++ {
			c := firstConcrete(italianLegal(m), "conquista")
			if c == "" {
				break
			}
			h.send(addr, replyTo(t, m), "Re", c+"\n")
			m = h.waitMail(addr, "It is your move")
		}
		if firstConcrete(italianLegal(m), "fatto") == "" {
			t.Fatalf("no fatto in:\n%s", m.Body)
		}
		h.send(addr, replyTo(t, m), "Re", "fatto\n")
		return m
	}
	before := h.events(id)
	turn(ann, a)
	b := h.waitMail(ben, "It is your move")
	if h.events(id) <= before+2 {
		t.Fatalf("ann's Italian moves were not applied: %d events", h.events(id))
	}
	turn(ben, b)
	h.waitMail(ann, "It is your move")

	// The log is language-neutral: canonical English commands only.
	l, err := h.d.Service.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l.Events {
		if e.Kind != engine.KindMove {
			continue
		}
		if canon, it := tr.Canonical("smallworld", e.Command); it || canon != e.Command {
			t.Errorf("event %d stores %q, not the canonical command", e.Seq, e.Command)
		}
	}
}
