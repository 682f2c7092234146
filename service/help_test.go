package service_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/service"
)

// exampleRe finds the examples of the help text: what follows "e.g." up to the end
// of the line or a colon and a space, and the lines aligned under it.
var exampleRe = regexp.MustCompile(`(?m)^( *.*?)e\.g\. ((?:[^:\n]|:[^ \n])+)((?:\n {13,}[a-z][^\n]*)*)`)

// TestHelpExamples runs every example of the help mail: each must be accepted,
// lobby examples at the service address (their games among those turnmail ships),
// in-game ones in a game. The help text keeps within 78 columns.
func TestHelpExamples(t *testing.T) {
	f := newFixtureWith(t, games.Registry())
	host := "alice@" + domain
	f.receive(f.mail(host, svcAddr, "help\n"))
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
		if n := len([]rune(l)); n > 78 {
			t.Errorf("help line of %d columns: %q", n, l)
		}
	}
	known := games.Registry()
	for _, ex := range examples {
		t.Run(ex, func(t *testing.T) {
			f := newFixtureWith(t, games.Registry())
			switch verb := strings.Fields(ex)[0]; {
			case verb == "new":
				if _, err := known.Lookup(strings.Fields(ex)[1]); err != nil {
					t.Fatalf("example %q: %v", ex, err)
				}
				if res := f.receive(f.mail(host, svcAddr, ex+"\n")); res.Status != service.StatusApplied {
					t.Fatalf("example %q: %+v", ex, res)
				}
			case strings.Contains(ex, "GAME-ID"):
				id := f.lobbyGame(host, "")
				body := strings.ReplaceAll(ex, "GAME-ID", id)
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
		})
	}
}
