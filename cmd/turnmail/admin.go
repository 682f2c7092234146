package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/daemon"
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// withService opens the store and the service for one administrative command.
func (a *app) withService(ctx context.Context, f func(*service.Service, *store.Store) error) error {
	c, err := a.config()
	if err != nil {
		return err
	}
	st, err := daemon.OpenStore(ctx, c)
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := daemon.NewService(ctx, c, st, daemon.Options{Logger: newLogger(a, c)})
	if err != nil {
		return err
	}
	return f(svc, st)
}

func newNewCmd(a *app) *cobra.Command {
	var players, options []string
	var seed int64
	var setup, host string
	cmd := &cobra.Command{
		Use:   "new GAME --player NAME=EMAIL ...",
		Short: "Create a game and mail the opening state to every player",
		Long: `Create a game. Players are given in turn order (the first one starts). The opening
mail goes out through the outbox the next time the daemon runs (or at once if it runs).`,
		Example: `  turnmail new smallworld --player alice=alice@example.org --player bob=bob@example.org
  turnmail new smallworld --player a=a@x.org --player b=b@x.org --option map=smallworld-3p --seed 42
  turnmail new smallworld --player a=a@x.org --player b=b@x.org --option lang=it --option deadline=48h`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ng := service.NewGame{Kind: args[0], Seed: seed, Host: host}
			if !cmd.Flags().Changed("seed") {
				ng.Seed = time.Now().UnixNano() % 1_000_000_000
			}
			for _, p := range players {
				name, email, ok := strings.Cut(p, "=")
				if !ok {
					return fmt.Errorf("--player %q: want NAME=EMAIL", p)
				}
				ng.Players = append(ng.Players, engine.Player{Name: strings.TrimSpace(name), Email: strings.TrimSpace(email)})
			}
			if len(ng.Players) == 0 {
				return fmt.Errorf("give the players with --player NAME=EMAIL, in turn order")
			}
			var err error
			if ng.Settings, ng.Options, err = newOptions(options); err != nil {
				return err
			}
			if setup != "" {
				if !json.Valid([]byte(setup)) {
					return fmt.Errorf("--setup: not a JSON object")
				}
				ng.Setup = json.RawMessage(setup)
			}
			return a.withService(cmd.Context(), func(svc *service.Service, _ *store.Store) error {
				id, err := svc.CreateGame(cmd.Context(), ng)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.out, "created game %s; the opening mail is queued for %d players\n", id, len(ng.Players))
				return nil
			})
		},
	}
	cmd.Flags().StringArrayVar(&players, "player", nil, "NAME=EMAIL of a player, in turn order (repeat)")
	cmd.Flags().StringArrayVar(&options, "option", nil, "game option or service setting key=value, as in a `new` mail (map=…, lang=it, deadline=48h …; repeat)")
	cmd.Flags().Int64Var(&seed, "seed", 0, "random seed (default: random)")
	cmd.Flags().StringVar(&setup, "setup", "", `fixed setup as JSON, e.g. {"races":["Ratmen"]}`)
	cmd.Flags().StringVar(&host, "host", "", "the host's mail address")
	return cmd
}

// newOptions splits the --option values of new into the service settings (lang,
// deadline, list …, as a `new` mail takes them) and the engine options.
func newOptions(kvs []string) (service.Settings, map[string]json.RawMessage, error) {
	var settings []string
	var engineKVs []string
	for _, kv := range kvs {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return service.Settings{}, nil, fmt.Errorf("option %q: want key=value", kv)
		}
		if service.IsSetting(k) {
			settings = append(settings, kv)
		} else {
			engineKVs = append(engineKVs, kv)
		}
	}
	st, _, err := service.SplitOptions(settings)
	if err != nil {
		return st, nil, err
	}
	opts, err := parseOptions(engineKVs)
	return st, opts, err
}

func newGamesCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "games",
		Short: "List the games: whose turn, deadlines, late, bounced and resigned players, mail",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd.Context(), func(svc *service.Service, st *store.Store) error {
				list, err := svc.Games(cmd.Context())
				if err != nil {
					return err
				}
				w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "GAME\tKIND\tSTATUS\tTURN\tTO ACT\tNEXT DEADLINE\tLATE\tBOUNCED\tRESIGNED\tEVENTS\tPENDING MAIL\tFAILED MAIL\tHELD MAIL (24H)\tUPDATED")
				now := time.Now()
				for _, g := range list {
					l, err := svc.Load(cmd.Context(), g.ID)
					if err != nil {
						fmt.Fprintf(w, "%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t(cannot replay: %v)\n", g.ID, g.Kind, g.Status, err)
						continue
					}
					mail, err := st.OutboxCounts(cmd.Context(), g.ID)
					if err != nil {
						return err
					}
					turn, toAct := "-", "-"
					if l.State != nil {
						turn, toAct = fmt.Sprint(l.State.Turn()), strings.Join(l.State.ToAct(), ",")
					}
					var nextDue time.Time
					var late []string
					for _, d := range l.Deadlines() {
						if nextDue.IsZero() || d.Due.Before(nextDue) {
							nextDue = d.Due
						}
						if now.After(d.Due) {
							late = append(late, d.Player)
						}
					}
					next := "-"
					if !nextDue.IsZero() {
						next = nextDue.UTC().Format(time.RFC3339)
					}
					var bounced []string
					for _, p := range l.Players {
						if p.Unreachable != "" {
							bounced = append(bounced, p.Email)
						}
					}
					var resigned []string
					for _, p := range l.Seats() {
						if l.Facts.Resigned[p.Name] {
							resigned = append(resigned, p.Name)
						}
					}
					held, err := st.HeldMail(cmd.Context(), g.ID, now.Add(-24*time.Hour))
					if err != nil {
						return err
					}
					fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\n", g.ID, g.Kind, g.Status, turn, toAct, next,
						dash(strings.Join(late, ",")), dash(strings.Join(bounced, ",")), dash(strings.Join(resigned, ",")),
						len(l.Events), mail[store.OutboxPending], mail[store.OutboxFailed], heldSummary(held, now), g.UpdatedAt.Format(time.RFC3339))
				}
				if err := w.Flush(); err != nil {
					return err
				}
				return printQuarantined(cmd.Context(), a, st, "")
			})
		},
	}
}

func newShowCmd(a *app) *cobra.Command {
	var player, pngFile string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show GAME",
		Short: "Show a game: players, state (as a player sees it with --player), outbox",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd.Context(), func(svc *service.Service, st *store.Store) error {
				l, err := svc.Load(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				if asJSON && l.State != nil {
					return printJSON(a, l.State.View(player))
				}
				if pngFile != "" {
					if l.State == nil {
						return fmt.Errorf("game %s has not started: no board to draw", l.Game.ID)
					}
					viewer := engine.Observer
					if player != "" {
						viewer = player
						if !slices.ContainsFunc(l.Players, func(p store.Player) bool { return p.Name == player && p.Role != store.RoleObserver }) {
							return fmt.Errorf("game %s has no player %q", l.Game.ID, player)
						}
					}
					lang := i18n.Lang(l.Settings.Lang).Or(i18n.English)
					if err := writePicture(pngFile, l.Game.Kind, l.State.View(viewer), lang); err != nil {
						return err
					}
					fmt.Fprintf(a.out, "wrote %s\n", pngFile)
					return nil
				}
				fmt.Fprintf(a.out, "game %s (%s), status %s, %d events, host %s\n", l.Game.ID, l.Game.Kind, l.Game.Status, len(l.Events), l.Game.Host)
				tr, err := i18n.Load()
				if err != nil {
					return err
				}
				for _, line := range l.Settings.Describe(tr, i18n.English) {
					fmt.Fprintf(a.out, "  %s\n", line)
				}
				for _, p := range l.Players {
					extra := ""
					if p.Unreachable != "" {
						extra = "  UNREACHABLE (" + p.Unreachable + ")"
					}
					if l.Facts.Resigned[p.Name] {
						extra += "  resigned"
					}
					fmt.Fprintf(a.out, "  seat %d  %-10s %-30s %s%s\n", p.Seat, p.Name, p.Email, p.Role, extra)
				}
				for _, d := range l.Deadlines() {
					late := ""
					if time.Now().After(d.Due) {
						late = "  LATE"
					}
					fmt.Fprintf(a.out, "  deadline of %s: %s%s\n", d.Player, d.Due.Format(time.RFC3339), late)
				}
				if l.State == nil {
					fmt.Fprintln(a.out, "\nthe game is open: players join by mail, the host starts it")
				} else {
					text, err := terminalText(l.Game.Kind, l.Game.ID, l.State, player)
					if err != nil {
						return err
					}
					fmt.Fprint(a.out, "\n"+text)
				}
				counts, err := st.OutboxCounts(cmd.Context(), l.Game.ID)
				if err != nil {
					return err
				}
				failed, err := st.Outbox(cmd.Context(), l.Game.ID, store.OutboxFailed)
				if err != nil {
					return err
				}
				for _, m := range failed {
					fmt.Fprintf(a.out, "FAILED mail to %s: %s\n", strings.Join(m.To, ", "), m.LastError)
				}
				total := 0
				for _, n := range counts {
					total += n
				}
				fmt.Fprintf(a.out, "\nmail: %d queued in total, %d sent, %d pending, %d failed\n", total, counts[store.OutboxSent], counts[store.OutboxPending], counts[store.OutboxFailed])
				return printQuarantined(cmd.Context(), a, st, l.Game.ID)
			})
		},
	}
	cmd.Flags().StringVar(&player, "player", "", "show the state as this player sees it")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the state JSON")
	cmd.Flags().StringVar(&pngFile, "png", "", "write the board's picture to this PNG file (as --player sees it, else as observers do)")
	return cmd
}

// printQuarantined lists the quarantined incoming mails (of one game, unless
// gameID is ""), with the command that processes one again.
func printQuarantined(ctx context.Context, a *app, st *store.Store, gameID string) error {
	failed, err := st.FailedInbox(ctx)
	if err != nil {
		return err
	}
	var shown []store.InboxMsg
	for _, m := range failed {
		if gameID == "" || m.GameID == gameID {
			shown = append(shown, m)
		}
	}
	if len(shown) == 0 {
		return nil
	}
	fmt.Fprintf(a.out, "\nQUARANTINED incoming mail (processing failed; after a fix: turnmail retry MAIL):\n")
	w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "MAIL\tRECEIVED\tGAME\tMESSAGE-ID\tERROR")
	for _, m := range shown {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", m.ID, m.ReceivedAt.Format(time.RFC3339), dash(m.GameID), dash(m.MessageID), m.Error)
	}
	return w.Flush()
}

func newRetryCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "retry MAIL",
		Short: "Process a quarantined incoming mail again (after the fault was fixed)",
		Long: `Process a quarantined incoming mail again. A mail whose processing failed in a way
that trying again could not fix (a render error, an engine panic) is quarantined:
stored with its error, listed by "turnmail games" and "turnmail show GAME" with its
number, moved to the IMAP folder imap.failed. After the fault is fixed, retry
processes it as when it arrived: its moves are applied and everyone is mailed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil {
				return fmt.Errorf("retry: %q is not a mail number (see turnmail games)", args[0])
			}
			return a.withService(cmd.Context(), func(svc *service.Service, st *store.Store) error {
				res, err := svc.Retry(cmd.Context(), id)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.out, "mail %d: %s", id, res.Status)
				if res.Reason != "" {
					fmt.Fprintf(a.out, " (%s)", res.Reason)
				}
				fmt.Fprintln(a.out)
				return nil
			})
		},
	}
}

func newExportCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "export GAME [FILE]",
		Short: "Write a game as an archive document (to standard output without FILE)",
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd.Context(), func(svc *service.Service, _ *store.Store) error {
				l, err := svc.Load(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				arch := l.Archive()
				if len(args) == 2 {
					return writeArchive(arch, args[1])
				}
				b, err := arch.Marshal()
				if err != nil {
					return err
				}
				_, err = a.out.Write(b)
				return err
			})
		},
	}
}

func newImportCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Create a game from an archive document (players need mail addresses) and mail its state",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			arch, err := readArchiveFile(args[0])
			if err != nil {
				return err
			}
			return a.withService(cmd.Context(), func(svc *service.Service, _ *store.Store) error {
				id, err := svc.Import(cmd.Context(), arch)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.out, "imported game %s with %d events\n", id, len(arch.Events))
				return nil
			})
		},
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// heldSummary sums up a game's mail held back by the limits for the host: how many,
// and to whom until when mail resumes (the latest hold of each reader), "-" for none.
func heldSummary(held []store.Held, now time.Time) string {
	if len(held) == 0 {
		return "-"
	}
	until := map[string]time.Time{}
	var order []string
	for _, h := range held {
		if _, ok := until[h.Rcpt]; !ok {
			order = append(order, h.Rcpt)
		}
		if h.Until.After(until[h.Rcpt]) {
			until[h.Rcpt] = h.Until
		}
	}
	parts := make([]string, len(order))
	for i, r := range order {
		if until[r].After(now) {
			parts[i] = r + " until " + until[r].UTC().Format("15:04 UTC")
		} else {
			parts[i] = r + " (resumed)"
		}
	}
	return fmt.Sprintf("%d: %s", len(held), strings.Join(parts, ", "))
}
