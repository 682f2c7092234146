package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/templates"
	"github.com/turnmail/turnmail/web/page"
)

func newReplayCmd(a *app) *cobra.Command {
	var at int
	var asJSON bool
	var pngFile, htmlFile, player, langName string
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay an archived game and print the state",
		Long: `Replay an archive document (format turnmail-archive/1) through the rules engine and
print the state after the last event, or after event N with --at N. An illegal event
stops the replay with exit status 2 and names the event index, command and reason.

With --html FILE it writes the whole game as one self-contained web page: every move
with the board after it and what it did, keys ← → Home End to step through it, no
request outside the file. It shows what observers see, or with --player NAME what
that player saw, in English or with --lang it in Italian.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			arch, err := readArchiveFile(args[0])
			if err != nil {
				return err
			}
			lang, ok := i18n.ParseLang(langName)
			if !ok {
				return fmt.Errorf("--lang %q: en or it", langName)
			}
			viewer, err := viewerIn(arch, player)
			if err != nil {
				return err
			}
			if htmlFile != "" {
				if cmd.Flags().Changed("at") {
					return errors.New("--at and --html do not go together: the file has every move (open it at #sN for event N)")
				}
				return writeReplayHTML(a, htmlFile, args[0], arch, viewer, lang)
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
				return writePicture(pngFile, arch.Game, state.View(viewer), lang)
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
	cmd.Flags().StringVar(&htmlFile, "html", "", "write the whole game, move by move, as one self-contained web page to this file")
	cmd.Flags().StringVar(&player, "player", "", "for --png and --html: what this player sees (default: what observers see)")
	cmd.Flags().StringVar(&langName, "lang", "en", "for --png and --html: the language, en or it")
	return cmd
}

// viewerIn returns the engine viewer of a player of an archive (engine.Observer for
// none).
func viewerIn(arch *engine.Archive, player string) (string, error) {
	if player == "" {
		return engine.Observer, nil
	}
	var names []string
	for _, p := range arch.Players {
		if strings.EqualFold(p.Name, player) {
			return p.Name, nil
		}
		names = append(names, p.Name)
	}
	return "", fmt.Errorf("--player %q: the game's players are %s", player, strings.Join(names, ", "))
}

// writeReplayHTML writes the replay file of an archive (read from path) to file, as
// viewer sees it in lang.
func writeReplayHTML(a *app, file, path string, arch *engine.Archive, viewer string, lang i18n.Lang) error {
	reg := games.Registry()
	rec, err := page.FromArchive(reg, arch)
	if err != nil {
		var re *engine.ReplayError
		if errors.As(err, &re) {
			return &exitError{code: 2, err: err}
		}
		return err
	}
	tr, err := i18n.Load()
	if err != nil {
		return err
	}
	if id := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)); auth.ValidGameID(id) {
		rec.ID = id
	}
	rec.Lang = lang
	tmpl, err := templates.Load()
	if err != nil {
		return err
	}
	rec.Tell = service.Teller(tr, tmpl)
	rec.PictureWords = func(lang i18n.Lang) draw.Words { return service.PictureWords(tr, lang, arch.Game) }
	r, err := page.Build(rec, rec.ReaderOf(viewer, ""), tr)
	if err != nil {
		return err
	}
	w, err := page.New(tr)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := w.File(&b, r, page.FileOptions{}); err != nil {
		return err
	}
	if err := writeFileAtomic(file, b.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(a.out, "wrote %s: %d moves, %d KB; open it in a browser\n", file, len(r.Steps())-1, (b.Len()+1023)/1024)
	return nil
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
