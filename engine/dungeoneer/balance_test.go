package dungeoneer

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
)

// balanceReport plays games bot games of 2 to 4 players with options and reports the
// rounds and the win rates per hero and per seat (a win shared by several counts for
// each).
func balanceReport(t *testing.T, games int, options map[string]json.RawMessage) (rounds []int, heroWins, heroGames map[string]int, seatWins, seatGames [5][4]int, lordWins int) {
	heroWins, heroGames = map[string]int{}, map[string]int{}
	for g := range games {
		_, s := playWith(t, 2+g%3, int64(10000+g), options, 0, botPick)
		rounds = append(rounds, s.Round)
		for i, h := range s.Seats {
			heroGames[h.Hero]++
			seatGames[len(s.Seats)][i]++
			if slices.Contains(s.Win, i) {
				heroWins[h.Hero]++
				seatWins[len(s.Seats)][i]++
				if len(h.Done) < questsWin {
					lordWins++
				}
			}
		}
	}
	slices.Sort(rounds)
	return
}

// TestBalance plays many seeded bot games, with the map built as the heroes explore
// and with the map in view (map=view): every game ends within 60 rounds and no hero
// wins more than twice as often as another. TURNMAIL_BALANCE=n plays n games of each
// and prints the tables of docs/dungeoneer.md. Not under -short (make race): the
// rates need every game, and the race detector finds nothing in one game's play.
func TestBalance(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the balance needs its 150 games of each board; make test plays them")
	}
	games := 150
	if v, err := strconv.Atoi(os.Getenv("TURNMAIL_BALANCE")); err == nil {
		games = v
	}
	for _, c := range []struct {
		name    string
		options map[string]json.RawMessage
	}{{"explore", nil}, {"view", inView}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			balance(t, games, c.options)
		})
	}
}

// balance checks and, with TURNMAIL_BALANCE, prints the balance of games games with
// options.
func balance(t *testing.T, games int, options map[string]json.RawMessage) {
	rounds, hw, hg, sw, sg, lord := balanceReport(t, games, options)
	if last := rounds[len(rounds)-1]; last > 60 {
		t.Errorf("a game lasted %d rounds", last)
	}
	lo, hi := 1.0, 0.0
	for _, h := range cards.Heroes {
		r := float64(hw[h.ID]) / float64(max(hg[h.ID], 1))
		lo, hi = min(lo, r), max(hi, r)
	}
	if hi > 2*lo {
		t.Errorf("hero win rates from %.2f to %.2f: more than twice", lo, hi)
	}
	if os.Getenv("TURNMAIL_BALANCE") == "" {
		return
	}
	fmt.Printf("%s: games %d; rounds: median %d, 90%% %d, max %d; won as Dungeon Lord %d\n", t.Name(), games,
		rounds[len(rounds)/2], rounds[len(rounds)*9/10], rounds[len(rounds)-1], lord)
	for _, h := range cards.Heroes {
		fmt.Printf("| %s %s | %d | %d | %.0f%% |\n", h.ID, h.Name.En, hg[h.ID], hw[h.ID], 100*float64(hw[h.ID])/float64(hg[h.ID]))
	}
	for n := 2; n <= 4; n++ {
		fmt.Printf("| %d players |", n)
		for i := range n {
			fmt.Printf(" %.0f%% |", 100*float64(sw[n][i])/float64(max(sg[n][i], 1)))
		}
		fmt.Println()
	}
}
