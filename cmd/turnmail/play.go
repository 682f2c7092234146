package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
)

func newPlayCmd(a *app) *cobra.Command {
	var players []string
	var options []string
	var seed int64
	var from, save string
	cmd := &cobra.Command{
		Use:   "play [GAME]",
		Short: "Play a game hot-seat in the terminal, without mail",
		Long: `Play a game in the terminal, every player at one keyboard. Type the command of the
player to act (shown with the legal commands), or "NAME: command" to act for another
player (out-of-turn decisions, secret bids). "save FILE" writes the archive, "quit"
stops. With --from, an archive is loaded and continued.`,
		Example: `  turnmail play smallworld --player alice --player bob --seed 7
  turnmail play --from game.json --save game.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var arch *engine.Archive
			if from != "" {
				var err error
				if arch, err = readArchiveFile(from); err != nil {
					return err
				}
			} else {
				if len(args) != 1 {
					return errors.New("name a game (" + strings.Join(games.Registry().Names(), ", ") + ") or give --from FILE")
				}
				opts, err := parseOptions(options)
				if err != nil {
					return err
				}
				if len(players) == 0 {
					players = []string{"alice", "bob"}
				}
				arch = &engine.Archive{Format: engine.ArchiveFormat, Game: args[0], Options: opts, Setup: json.RawMessage(fmt.Sprintf(`{"seed":%d}`, seed))}
				for _, p := range players {
					arch.Players = append(arch.Players, engine.Player{Name: p})
				}
				if err := arch.Validate(); err != nil {
					return err
				}
			}
			return hotSeat(a, arch, save)
		},
	}
	cmd.Flags().StringArrayVar(&players, "player", nil, "a player's name, in turn order (repeat; default alice and bob)")
	cmd.Flags().StringArrayVar(&options, "option", nil, "a game option key=value (repeat), e.g. map=smallworld-3p")
	cmd.Flags().Int64Var(&seed, "seed", 1, "random seed")
	cmd.Flags().StringVar(&from, "from", "", "continue the game in this archive file")
	cmd.Flags().StringVar(&save, "save", "", "write the archive to this file after every move")
	return cmd
}

// parseOptions turns key=value pairs into game options; a value that is valid JSON is
// used as such, anything else as a string.
func parseOptions(kvs []string) (map[string]json.RawMessage, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	out := map[string]json.RawMessage{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("option %q: want key=value", kv)
		}
		if json.Valid([]byte(v)) {
			out[k] = json.RawMessage(v)
		} else {
			out[k], _ = json.Marshal(v)
		}
	}
	return out, nil
}

func hotSeat(a *app, arch *engine.Archive, save string) error {
	reg := games.Registry()
	states, err := engine.ReplayAll(reg, arch, -1)
	if err != nil {
		return err
	}
	state := states[len(states)-1]
	seed, err := arch.Seed()
	if err != nil {
		return err
	}
	if len(arch.SetupOutcomes) == 0 {
		// Record the setup's draws so that the saved archive replays exactly.
		g, _ := reg.Lookup(arch.Game)
		setup, _ := arch.SetupOf()
		if _, arch.SetupOutcomes, err = engine.Start(g, setup, nil); err != nil {
			return err
		}
	}
	in := bufio.NewScanner(a.in)
	for {
		toAct := state.ToAct()
		viewer := ""
		if len(toAct) > 0 {
			viewer = toAct[0]
		}
		text, err := terminalText(arch.Game, "", state, viewer)
		if err != nil {
			return err
		}
		fmt.Fprint(a.out, "\n"+text)
		if state.Finished() {
			return nil
		}
		fmt.Fprintf(a.out, "%s> ", viewer)
		if !in.Scan() {
			return in.Err()
		}
		line := strings.TrimSpace(in.Text())
		player := viewer
		if name, rest, ok := strings.Cut(line, ":"); ok && isPlayer(arch, strings.TrimSpace(name)) {
			player, line = strings.TrimSpace(name), strings.TrimSpace(rest)
		}
		switch f := strings.Fields(line); {
		case len(f) == 0:
			continue
		case f[0] == "quit" || f[0] == "exit":
			return nil
		case f[0] == "save" && len(f) == 2:
			if err := writeArchive(arch, f[1]); err != nil {
				fmt.Fprintln(a.out, "not saved:", err)
			} else {
				fmt.Fprintln(a.out, "saved to", f[1])
			}
			continue
		}
		next, outcomes, err := engine.Step(state, seed, len(arch.Events)+1, player, line, nil)
		if err != nil {
			fmt.Fprintln(a.out, "not applied:", err)
			continue
		}
		arch.Events = append(arch.Events, engine.Event{Player: player, Command: engine.Normalize(line), Outcomes: outcomes, Hash: next.Hash()})
		state = next
		if len(outcomes) > 0 {
			b, _ := json.Marshal(outcomes)
			fmt.Fprintln(a.out, "random outcomes:", string(b))
		}
		if save != "" {
			if err := writeArchive(arch, save); err != nil {
				return err
			}
		}
	}
}

func isPlayer(arch *engine.Archive, name string) bool {
	for _, p := range arch.Players {
		if strings.EqualFold(p.Name, name) {
			return true
		}
	}
	return false
}

// writeArchive writes the archive crash-safely: temporary file, fsync, rename.
func writeArchive(arch *engine.Archive, path string) error {
	b, err := arch.Marshal()
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("write archive: %w", err)
	}
	defer os.Remove(tmp)
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("write archive: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write archive: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write archive: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write archive: %w", err)
	}
	return nil
}
