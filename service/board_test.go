package service_test

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/service"
)

// boardRow is a line of a Small World region table in a mail's text: the mark
// ("*" for a region changed since the reader's last mail) and the region's id.
var boardRow = regexp.MustCompile(`^ ([ *]) ?(\d+) +[a-z]`)

// regionRows returns the region rows of a mail's text, in order, as "*ID" for a
// marked region and "ID" for another.
func regionRows(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if m := boardRow.FindStringSubmatch(l); m != nil {
			out = append(out, strings.TrimSpace(m[1])+m[2])
		}
	}
	return out
}

// TestBoard_changedAndOwnFirst plays a Small World game by mail: after bob's turn,
// alice's mail lists her regions first and marks every region whose holder changed
// during bob's turn (the one he took from her among them) but no region that stayed
// empty; a refusal to alice then shows the same board.
func TestBoard_changedAndOwnFirst(t *testing.T) {
	f, target := smallWorldAttack(t)
	alice, bob := "alice@"+domain, "bob@"+domain
	before := f.regionOwners()
	f.play("bob", bob, target)
	f.play("bob", bob, f.legalWith("bob", "conquer"))
	f.play("bob", bob, "done")
	after := f.regionOwners()
	body := f.lastMailTo(alice)
	rows := regionRows(body)
	if len(rows) < 10 {
		t.Fatalf("alice's mail has %d region rows:\n%s", len(rows), body)
	}
	marked := map[string]bool{}
	for i, r := range rows {
		id := strings.TrimPrefix(r, "*")
		marked[id] = r != id
		mine := after[atoi(t, id)] == "alice"
		if first := i < countOwned(after, "alice"); mine != first {
			t.Errorf("row %d is region %s (alice's: %v): alice's regions must come first: %v", i, id, mine, rows)
		}
	}
	lost := false
	for id, owner := range after {
		if before[id] != owner && !marked[strconv.Itoa(id)] {
			t.Errorf("region %d went from %q to %q but is not marked: %v", id, before[id], owner, rows)
		}
		lost = lost || before[id] == "alice" && owner == "bob"
	}
	if !lost {
		t.Errorf("alice lost no region to bob: %v → %v", before, after)
	}
	for _, r := range rows {
		if id := atoi(t, strings.TrimPrefix(r, "*")); before[id] == "" && after[id] == "" && marked[strconv.Itoa(id)] {
			t.Errorf("region %d stayed empty but is marked: %v", id, rows)
		}
	}
	if !strings.Contains(body, "* changed since your last mail") {
		t.Errorf("no legend for the mark:\n%s", body)
	}

	res := f.receive(f.mail(alice, f.reply["alice"], "conquer 99\n"))
	if res.Status == "applied" {
		t.Fatalf("conquer 99 was applied")
	}
	refusal := f.lastMailTo(alice)
	if !strings.Contains(refusal, "not applied") {
		t.Fatalf("alice's last mail is not the refusal:\n%s", refusal)
	}
	// Nothing changed since the state mail: the same rows, none marked.
	unmarked := make([]string, len(rows))
	for i, r := range rows {
		unmarked[i] = strings.TrimPrefix(r, "*")
	}
	if got := regionRows(refusal); !slices.Equal(got, unmarked) {
		t.Errorf("the refusal's region rows %v, want the state mail's %v unmarked:\n%s", got, unmarked, refusal)
	}
}

// smallWorldAttack starts a Small World game in which alice took three regions in
// her turn and bob picked his combo: target is a legal conquest of bob's of a region
// of alice's.
func smallWorldAttack(t *testing.T) (f *fixture, target string) {
	t.Helper()
	f = newGameFixture(t, "smallworld", service.Settings{}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	alice := "alice@" + domain
	f.play("alice", alice, "pick 1")
	for i := 0; i < 3; i++ {
		f.play("alice", alice, f.legalWith("alice", "conquer"))
	}
	f.play("alice", alice, "done")
	f.play("bob", "bob@"+domain, "pick 1")
	if target = f.conquestOf("bob", "alice"); target == "" {
		t.Fatal("bob cannot reach alice's regions")
	}
	return f, target
}

// lastMailTo returns the body of the last queued mail of the fixture's game to addr.
func (f *fixture) lastMailTo(addr string) string {
	f.t.Helper()
	ms := f.gameMailsTo(addr)
	if len(ms) == 0 {
		f.t.Fatalf("no mail to %s", addr)
	}
	return ms[len(ms)-1].Body
}

// conquestOf returns a legal "conquer N" of player whose region N is victim's
// ("" when there is none).
func (f *fixture) conquestOf(player, victim string) string {
	f.t.Helper()
	owners := f.regionOwners()
	l, err := f.svc.Load(context.Background(), f.game)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range l.State.Legal(player) {
		rest, ok := strings.CutPrefix(c, "conquer ")
		if id, err := strconv.Atoi(rest); ok && err == nil && owners[id] == victim {
			return c
		}
	}
	return ""
}

// countOwned counts the regions of owners held by player.
func countOwned(owners map[int]string, player string) int {
	n := 0
	for _, o := range owners {
		if o == player {
			n++
		}
	}
	return n
}

// atoi is strconv.Atoi for ids a test read: a bad one fails the test.
func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("region id %q: %v", s, err)
	}
	return n
}
