package service_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/service"
)

// TestBoard_changedAndOwnFirst plays a Small World game by mail: after bob's turn,
// alice's mail lists exactly her regions, marked "*" when they changed during bob's
// turn, and the other regions whose holder changed (the ones bob took from her
// among them) but no region that stayed empty; a refusal to alice then shows her
// regions again, none marked, and nothing changed.
func TestBoard_changedAndOwnFirst(t *testing.T) {
	f, target := smallWorldAttack(t)
	alice, bob := "alice@"+domain, "bob@"+domain
	before := f.regionOwners()
	f.play("bob", bob, target)
	f.play("bob", bob, f.legalWith("bob", "conquer"))
	f.play("bob", bob, "done")
	after := f.regionOwners()
	body := f.lastMailTo(alice)
	own := regionList(body, "Your regions: ", ", ")
	if len(own) != countOwned(after, "alice") {
		t.Fatalf("alice's mail lists %d regions of hers, she has %d:\n%s", len(own), countOwned(after, "alice"), body)
	}
	for _, r := range own {
		id := strings.TrimSuffix(r, "*")
		if after[atoi(t, id)] != "alice" {
			t.Errorf("region %s is not alice's: %v", id, own)
		}
		if before[atoi(t, id)] != "alice" && !strings.HasSuffix(r, "*") {
			t.Errorf("region %s is newly alice's but not marked: %v", id, own)
		}
	}
	changed := regionList(body, "Changed since your last mail: ", "; ")
	lost := false
	for id, owner := range after {
		if before[id] != owner && owner != "alice" && !slices.Contains(changed, strconv.Itoa(id)) {
			t.Errorf("region %d went from %q to %q but is not listed as changed: %v", id, before[id], owner, changed)
		}
		lost = lost || before[id] == "alice" && owner == "bob"
	}
	if !lost {
		t.Errorf("alice lost no region to bob: %v → %v", before, after)
	}
	for _, r := range changed {
		if id := atoi(t, r); before[id] == "" && after[id] == "" {
			t.Errorf("region %d stayed empty but is listed as changed: %v", id, changed)
		}
	}

	res := f.receive(f.mail(alice, f.reply["alice"], "conquer 99\n"))
	if res.Status == "applied" {
		t.Fatalf("conquer 99 was applied")
	}
	refusal := f.lastMailTo(alice)
	if !strings.Contains(refusal, "Not applied — line 1: conquer 99") {
		t.Fatalf("alice's last mail is not the refusal:\n%s", refusal)
	}
	// Nothing changed since the state mail: the same regions, none marked.
	unmarked := make([]string, len(own))
	for i, r := range own {
		unmarked[i] = strings.TrimSuffix(r, "*")
	}
	if got := regionList(refusal, "Your regions: ", ", "); !slices.Equal(got, unmarked) || strings.Contains(refusal, "Changed since") {
		t.Errorf("the refusal's regions %v, want the state mail's %v unmarked and nothing changed:\n%s", got, unmarked, refusal)
	}
}

// regionList reads the ids of the regions a paragraph of a Small World mail lists
// after head ("Your regions: 4* ×2 [fortress], 7 ×1."), separated by sep, with a
// "*" after a marked one.
func regionList(body, head, sep string) []string {
	_, rest, ok := strings.Cut(strings.ReplaceAll(body, " \n", " "), head)
	if !ok {
		return nil
	}
	rest, _, _ = strings.Cut(rest, ".\n")
	var out []string
	for _, item := range strings.Split(rest, sep) {
		id, _, _ := strings.Cut(strings.TrimSpace(item), " ")
		out = append(out, id)
	}
	return out
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
