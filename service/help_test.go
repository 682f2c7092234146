package service_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/service"
)

// exampleRe finds the examples of the help text: what follows "e.g." (Italian
// "es.") up to the end of the line or a colon and a space, and the lines aligned
// under it.
var exampleRe = regexp.MustCompile(`(?m)^( *.*?)(?:\be\.g\.|\bes\.) ((?:[^:\n]|:[^ \n])+)((?:\n {12,}[a-z][^\n]*)*)`)

// TestHelpExamples runs every example of the help mail, in English and in Italian
// (the help asked for with aiuto, its examples in Italian words): each must be
// accepted, lobby examples at the service address (their games among those
// turnmail ships), in-game ones in a game. The English help keeps within 78
// columns (the Italian one's paragraphs are flowed, see templates' width test).
func TestHelpExamples(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lang, help, gameID string }{{"en", "help", "GAME-ID"}, {"it", "aiuto", "PARTITA"}} {
		t.Run(c.lang, func(t *testing.T) {
			f := newFixtureWith(t, games.Registry())
			host := "alice@" + domain
			f.receive(f.mail(host, svcAddr, c.help+"\n"))
			ms := f.mailsTo(host)
			if len(ms) == 0 {
				t.Fatal("no help mail")
			}
			help := ms[len(ms)-1].Body
			var examples []string
			for _, m := range exampleRe.FindAllStringSubmatch(help, -1) {
				examples = append(examples, strings.TrimSpace(m[2]))
				for _, l := range strings.Split(m[3], "\n") {
					if l = strings.TrimSpace(l); l != "" {
						examples = append(examples, l)
					}
				}
			}
			if len(examples) < 5 {
				t.Fatalf("found only the examples %q in:\n%s", examples, help)
			}
			for _, l := range strings.Split(help, "\n") {
				if n := len([]rune(l)); n > 78 && c.lang == "en" {
					t.Errorf("help line of %d columns: %q", n, l)
				}
			}
			for _, ex := range examples {
				t.Run(ex, func(t *testing.T) { runExample(t, tr, ex, c.gameID) })
			}
		})
	}
}

// runExample sends one example of the help (in English or Italian words; gameID is
// the help's placeholder of a game's id) where it belongs, and fails unless it is
// applied.
func runExample(t *testing.T, tr *i18n.Bundle, ex, gameID string) {
	f := newFixtureWith(t, games.Registry())
	host := "alice@" + domain
	canon, _ := tr.Canonical("", ex)
	switch verb := strings.Fields(canon)[0]; {
	case verb == "new":
		if _, err := games.Registry().Lookup(strings.Fields(canon)[1]); err != nil {
			t.Fatalf("example %q: %v", ex, err)
		}
		if res := f.receive(f.mail(host, svcAddr, ex+"\n")); res.Status != service.StatusApplied {
			t.Fatalf("example %q: %+v", ex, res)
		}
	case strings.Contains(ex, gameID):
		id := f.lobbyGame(host, "")
		body := strings.ReplaceAll(ex, gameID, id)
		if res := f.receive(f.mail(host, f.svc.HostAddress(id), body+"\n")); res.Status != service.StatusApplied {
			t.Fatalf("example %q: %+v", body, res)
		}
	default: // in a game, by its host and player
		id := f.lobbyGame(host, "")
		f.receive(f.mail(host, f.svc.HostAddress(id), "start "+id+"\n"))
		l, err := f.svc.Load(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if res := f.receive(f.mail(host, f.svc.ReplyAddress(id, l.Seats()[0].Seat), ex+"\n")); res.Status != service.StatusApplied {
			t.Fatalf("example %q: %+v", ex, res)
		}
	}
}
