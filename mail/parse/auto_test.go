package parse

import (
	"strings"
	"testing"
)

func TestAutoSubjects(t *testing.T) {
	auto := []string{
		"Out of Office: [turnmail] game 7",
		"Automatic reply: [turnmail] game 7",
		"Auto: Re: [turnmail] game 7",
		"AutoReply: game 7",
		"Risposta automatica: [turnmail] partita 7",
		"Fuori sede: [turnmail] partita 7",
		"Sono fuori ufficio",
		"Abwesenheitsnotiz: [turnmail] Spiel 7",
		"Automatische Antwort: Spiel 7",
		"Absence: [turnmail] partie 7",
		"Réponse automatique : partie 7",
		"Respuesta automática: partida 7",
		"Resposta automática: partida 7",
		"Automatisch antwoord: spel 7",
		"Autosvar: spil 7",
		"Automaattinen vastaus: peli 7",
		"Автоответ: игра 7",
		"Undeliverable: [turnmail] game 7",
		"Delivery Status Notification (Failure)",
		"Re: Automatic reply: [turnmail] game 7",
		"R: Risposta automatica: [turnmail] partita 7",
		"RE: AW: Autoreply: game 7",
	}
	human := []string{
		"Re: [turnmail] game 7",
		"R: [turnmail] partita 7: tocca a te",
		"AW: Spiel 7",
		"Re: autonomous regions",
		"Re: my automatic move",
		"",
	}
	for _, s := range auto {
		m := &Message{Subject: s}
		if r := autoReason(m, content{}); r == "" {
			t.Errorf("subject %q: not recognised as automatic", s)
		}
	}
	for _, s := range human {
		m := &Message{Subject: s}
		if r := autoReason(m, content{}); r != "" {
			t.Errorf("subject %q: Auto = %q, want a human mail", s, r)
		}
	}
}

func TestAutoHeaders(t *testing.T) {
	cases := []struct{ headers, want string }{
		{"Auto-Submitted: auto-generated", "Auto-Submitted"},
		{"Auto-Submitted: auto-replied; owner-email=x@example.org", "Auto-Submitted"},
		{"Auto-Submitted: no", ""},
		{"Precedence: junk", "Precedence"},
		{"Precedence: list\nList-Id: <game7.example.org>", ""},
		{"X-Autorespond: yes", "X-Autorespond"},
		{"X-Autoreply: no", ""},
		{"X-Auto-Response-Suppress: All", "X-Auto-Response-Suppress"},
		{"X-Auto-Response-Suppress: DR, RN, NRN, OOF, AutoReply", "X-Auto-Response-Suppress"},
		{"X-Autoreply: yes", "X-Autoreply"},
		{"Precedence: auto_reply", "Precedence"},
		{"Return-Path: <>", "null Return-Path"},
		{"Sender: Postmaster@example.org", "sent by postmaster@example.org"},
		{"From: MAILER-DAEMON@example.org (Mail Delivery System)", "sent by mailer-daemon@example.org"},
		{"Content-Type: multipart/report; report-type=disposition-notification; boundary=b\n\n--b\nContent-Type: message/disposition-notification\n\nx\n--b--", "disposition notification"},
	}
	for _, c := range cases {
		raw := "From: alice@example.org\nSubject: Re: game 7\n" + c.headers
		if !strings.Contains(c.headers, "\n\n") {
			raw += "\n\nconquer 1\n"
		}
		raw = strings.Replace(raw, "From: alice@example.org\n", "", strings.Count(raw, "\nFrom:"))
		m, err := Parse([]byte(raw), nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.want == "" && m.Auto != "" || !strings.HasPrefix(m.Auto, c.want) {
			t.Errorf("%q: Auto = %q, want %q…", c.headers, m.Auto, c.want)
		}
	}
}
