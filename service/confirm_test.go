package service_test

import (
	"strings"
	"testing"

	"github.com/turnmail/turnmail/service"
)

// TestLobbyProof: what each kind of mail proves. A host command acts only at the
// host reply address from the host's address, or after the host's confirmation; a
// From header alone, the host address from another From, another game's host
// address, a confirmation replied from another address, replied twice, or with a
// forged code do nothing — and only the confirmation request goes anywhere.
func TestLobbyProof(t *testing.T) {
	const other = "mallory@" + domain
	tests := []struct {
		name string
		// send sends the attempt (g is a running game hosted by hostAddr, g2 another).
		send func(f *fixture, g, g2 string) service.Result
		// paused says whether game g is paused afterwards.
		paused bool
		// requests is the number of confirmation requests to the host.
		requests int
	}{
		{"host address, host's From", func(f *fixture, g, _ string) service.Result {
			return f.asHost(hostAddr, g, "pause "+g+"\n")
		}, true, 0},
		{"service address, forged host From", func(f *fixture, g, _ string) service.Result {
			return f.receive(f.mail(hostAddr, svcAddr, "pause "+g+"\n"))
		}, false, 1},
		{"service address, host confirms", func(f *fixture, g, _ string) service.Result {
			f.receive(f.mail(hostAddr, svcAddr, "pause "+g+"\n"))
			return f.confirm(hostAddr, "yes")
		}, true, 1},
		{"service address, host declines", func(f *fixture, g, _ string) service.Result {
			f.receive(f.mail(hostAddr, svcAddr, "pause "+g+"\n"))
			return f.confirm(hostAddr, "no")
		}, false, 1},
		{"host address, another From", func(f *fixture, g, _ string) service.Result {
			return f.receive(f.mail(other, f.svc.HostAddress(g), "pause "+g+"\n"))
		}, false, 0},
		{"another game's host address", func(f *fixture, g, g2 string) service.Result {
			return f.asHost(hostAddr, g2, "pause "+g+"\n")
		}, false, 1}, // treated as the service address for g: the host is asked
		{"confirmation replied from another address", func(f *fixture, g, _ string) service.Result {
			f.receive(f.mail(hostAddr, svcAddr, "pause "+g+"\n"))
			return f.receive(f.mail(other, f.confirmAddr(hostAddr), "yes\n"))
		}, false, 1},
		{"forged confirmation code", func(f *fixture, g, _ string) service.Result {
			f.receive(f.mail(hostAddr, svcAddr, "pause "+g+"\n"))
			to := f.confirmAddr(hostAddr)
			return f.receive(f.mail(hostAddr, strings.Replace(to, "+", "+a", 1), "yes\n"))
		}, false, 1},
		{"confirmation used twice", func(f *fixture, g, _ string) service.Result {
			f.receive(f.mail(hostAddr, svcAddr, "pause "+g+"\n"))
			to := f.confirmAddr(hostAddr)
			f.receive(f.mail(hostAddr, to, "no\n"))
			return f.receive(f.mail(hostAddr, to, "yes\n"))
		}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, 100)
			g, g2 := f.hostedGame(hostAddr, ""), f.hostedGame(hostAddr, "")
			res := tt.send(f, g, g2)
			if paused := f.load(g).Game.Status == "paused"; paused != tt.paused {
				t.Errorf("paused %v, want %v (%+v)", paused, tt.paused, res)
			}
			requests := 0
			for _, m := range f.mailsTo(hostAddr) {
				if strings.Contains(m.Body, "This request expires") {
					requests++
				}
			}
			if requests != tt.requests {
				t.Errorf("%d confirmation requests to the host, want %d", requests, tt.requests)
			}
			if got := f.mailsTo(other); len(got) != 0 {
				t.Errorf("the other address got %q", got[0].Subject)
			}
		})
	}
}

// TestLobbyProof_pendingCapped: at most five requests wait for one address: a
// sixth forged command mails nobody.
func TestLobbyProof_pendingCapped(t *testing.T) {
	f := newFixture(t, 100)
	g := f.hostedGame(hostAddr, "")
	for range 8 {
		f.receive(f.mail(hostAddr, svcAddr, "pause "+g+"\n"))
	}
	if n := len(f.mailsTo(hostAddr)); n != 5 {
		t.Errorf("%d mails to the host, want 5 confirmation requests", n)
	}
}

// TestConfirmReplyWords: a reply declines a confirmation request when its first word
// says no, in English or Italian and with punctuation after it; any other reply
// (yes, sì, si, ok, an empty line of thanks) confirms.
func TestConfirmReplyWords(t *testing.T) {
	tests := []struct {
		reply  string
		paused bool
	}{
		{"yes", true},
		{"sì", true},
		{"si, grazie", true},
		{"Sì!", true},
		{"ok", true},
		{"no", false},
		{"No.", false},
		{"no, grazie", false},
		{"NO!", false},
		{"rifiuto", false},
		{"Rifiuta", false},
		{"declino", false},
		{"decline", false},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			f := newFixture(t, 100)
			g := f.hostedGame(hostAddr, "")
			f.receive(f.mail(hostAddr, svcAddr, "pause "+g+"\n"))
			res := f.confirm(hostAddr, tt.reply)
			if paused := f.load(g).Game.Status == "paused"; paused != tt.paused {
				t.Errorf("reply %q: paused %v, want %v (%+v)", tt.reply, paused, tt.paused, res)
			}
		})
	}
}
