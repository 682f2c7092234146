package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
)

// italianLegal returns the commands listed after "Tocca a te" in an Italian state
// mail, ready to copy.
func italianLegal(m *parse.Message) []string {
	return legalAfter(m, "Cosa puoi inviare, un comando per riga:")
}

// englishLeft returns the English sentences (or the fixed parts of a format, at
// least 16 characters long) of the catalogues' translated texts that body contains.
func englishLeft(tr *i18n.Bundle, body string) []string {
	var left []string
	for _, domain := range []string{"service", "templates", "smallworld"} {
		for _, key := range tr.Keys(i18n.Italian, domain) {
			it := tr.Sprintf(i18n.Italian, key)
			for _, part := range formatVerb.Split(key, -1) {
				part = strings.TrimSpace(part)
				if len(part) >= 16 && !strings.Contains(it, part) && strings.Contains(body, part) {
					left = append(left, part)
				}
			}
		}
	}
	return left
}

// formatVerb matches a fmt verb.
var formatVerb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*[\d.]*[a-zA-Z%]`)

// TestItalianGameByMail plays Small World by mail in Italian: the game is opened with
// lang=it, both players copy only the Italian commands their mails list (prendi,
// conquista, fatto …) and the moves apply; the log keeps the canonical commands; a
// refused Italian line is answered in Italian; a player may switch to English.
func TestItalianGameByMail(t *testing.T) {
	t.Parallel()
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
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	var read []*parse.Message // every mail the players read
	wait := func(addr string, want ...string) *parse.Message {
		t.Helper()
		m := h.waitMail(addr, want...)
		read = append(read, m)
		return m
	}
	a := wait(ann, "Tocca a te")
	legal := italianLegal(a)
	pick := firstConcrete(legal, "prendi")
	if pick == "" || firstConcrete(legal, "pick") != "" {
		t.Fatalf("ann's opening mail does not list Italian commands:\n%s", a.Body)
	}

	// A line that cannot apply: the reason in Italian, with Italian commands.
	h.send(ann, replyTo(t, a), "Re", "conquista 4\n")
	refused := wait(ann, "non hai una razza attiva", "prendi 1")
	if strings.Contains(refused.Body, "you have no active race") {
		t.Errorf("the refusal is in English:\n%s", refused.Body)
	}

	// Each player plays a whole turn with the words their mails list.
	turn := func(addr string, m *parse.Message) *parse.Message {
		t.Helper()
		lines := italianLegal(m)
		cmds := []string{firstConcrete(lines, "prendi")}
		h.send(addr, replyTo(t, m), "Re", cmds[0]+"\n")
		m = wait(addr, "Tocca a te")
		for i := 0; i < 2; i++ {
			c := firstConcrete(italianLegal(m), "conquista")
			if c == "" {
				break
			}
			h.send(addr, replyTo(t, m), "Re", c+"\n")
			m = wait(addr, "Tocca a te")
		}
		if firstConcrete(italianLegal(m), "fatto") == "" {
			t.Fatalf("no fatto in:\n%s", m.Body)
		}
		h.send(addr, replyTo(t, m), "Re", "fatto\n")
		return m
	}
	before := h.events(id)
	turn(ann, a)
	b := wait(ben, "Tocca a te")
	if h.events(id) <= before+2 {
		t.Fatalf("ann's Italian moves were not applied: %d events", h.events(id))
	}
	turn(ben, b)
	wait(ann, "Tocca a te", "Dopo la tua ultima mail:", "- ben ha preso ")

	// A player may read English: ben switches, his answer and mails are English.
	h.send(ben, replyTo(t, b), "Re", "lang en\nstatus\n")
	h.waitMail(ben, "your mails are now in English", "It is ann's move")

	// The log is language-neutral: canonical English commands only.
	l, err := h.d.Service.Load(context.Background(), id)
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

	// No sentence the catalogues translate is left in English in the Italian mails.
	if len(englishLeft(tr, "What you can send, one command per line:")) == 0 {
		t.Fatal("englishLeft finds no English")
	}
	for _, m := range read {
		if left := englishLeft(tr, m.Subject+"\n"+m.Body); len(left) > 0 {
			t.Errorf("an Italian mail (%s) has English: %q\n%s", m.Subject, left, m.Body)
		}
	}

	// The lobby answers Italian commands in Italian.
	h.send(ann, h.addr("turnmail"), "partita", "nuova smallworld\n")
	open := h.waitMail(ann, "scrivi aiuto per i comandi")
	if !strings.Contains(open.Body, "è aperta") {
		t.Errorf("the answer to nuova is not Italian: %q\n%s", open.Subject, open.Body)
	}
	// Once known, the sender's language is used for English commands too.
	h.send(ann, h.addr("turnmail"), "list", "games\n")
	h.waitMail(ann, "scrivi aiuto per i comandi", "sw-")
	h.send("cy@"+h.domain, h.addr("turnmail"), "list", "games\n")
	h.waitMail("cy@"+h.domain, "write help for the commands")
}
