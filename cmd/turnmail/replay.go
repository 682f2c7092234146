package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/templates"
)

func newReplayCmd(a *app) *cobra.Command {
	var at int
	var asJSON bool
	var pngFile string
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay an archived game and print the state",
		Long: `Replay an archive document (format turnmail-archive/1) through the rules engine and
print the state after the last event, or after event N with --at N. An illegal event
stops the replay with exit status 2 and names the event index, command and reason.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			arch, err := readArchiveFile(args[0])
			if err != nil {
				return err
			}
			upTo := -1
			if cmd.Flags().Changed("at") {
				if at < 0 || at > len(arch.Events) {
					return fmt.Errorf("--at %d: the archive has events 0..%d", at, len(arch.Events))
				}
				upTo = at
			}
			state, err := engine.Replay(games.Registry(), arch, upTo)
			if err != nil {
				var re *engine.ReplayError
				if errors.As(err, &re) {
					return &exitError{code: 2, err: err}
				}
				return err
			}
			if pngFile != "" {
				return writePicture(pngFile, arch.Game, state.View(engine.Observer), i18n.English)
			}
			if asJSON {
				return printJSON(a, state.View(""))
			}
			text, err := terminalText(arch.Game, "", state, "")
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(a.out, text)
			return err
		},
	}
	cmd.Flags().IntVar(&at, "at", 0, "print the state after event N (0 = the setup)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the state as JSON")
	cmd.Flags().StringVar(&pngFile, "png", "", "write the board's picture (as observers see it) to this PNG file")
	return cmd
}

// writePicture writes the picture of a game's view to file as PNG, in lang.
func writePicture(file, game string, view any, lang i18n.Lang) error {
	tr, err := i18n.Load()
	if err != nil {
		return err
	}
	_, png, err := service.Picture(tr, lang, game, view, nil)
	if err != nil {
		return err
	}
	return writeFileAtomic(file, png)
}

// writeFileAtomic writes data to a temporary file beside file, syncs it and renames
// it into place, so that a reader never sees half a file.
func writeFileAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return os.Rename(tmp.Name(), file)
}

func readArchiveFile(path string) (*engine.Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	arch, err := engine.ReadArchive(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return arch, nil
}

func printJSON(a *app, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	_, err := a.out.Write(buf.Bytes())
	return err
}

// terminalText renders a state for the terminal, from viewer's seat ("" = everything),
// listing the commands legal for forPlayer (the first player to act when empty).
func terminalText(kind, gameID string, state engine.State, viewer string) (string, error) {
	set, err := templates.Load()
	if err != nil {
		return "", err
	}
	view, err := toMap(state.View(viewer))
	if err != nil {
		return "", err
	}
	toAct := state.ToAct()
	player := viewer
	if player == "" && len(toAct) > 0 {
		player = toAct[0]
	}
	data := templates.State{
		Game:     templates.Game{ID: gameID, Kind: kind, Title: templates.GameTitle(kind)},
		Player:   player,
		ToAct:    toAct,
		Finished: state.Finished(),
		Winners:  state.Winners(),
		View:     view,
	}
	if player != "" {
		data.Legal = state.Legal(player)
		if data.LegalNotes, err = englishNotes(kind, state, player); err != nil {
			return "", err
		}
	}
	return set.Text("terminal", data)
}

// englishNotes renders the notes on player's Legal entries (engine.Noter) in
// English, as the terminal shows them after "#".
func englishNotes(kind string, state engine.State, player string) (map[string]string, error) {
	notes := engine.NotesOf(state, player)
	if len(notes) == 0 {
		return nil, nil
	}
	tr, err := i18n.Load()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(notes))
	for entry, n := range notes {
		out[entry] = tr.GameText(kind, i18n.English, n)
	}
	return out, nil
}

func toMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode view: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decode view: %w", err)
	}
	return m, nil
}
