package main

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/turnmail/turnmail/config"
)

// app is what every subcommand shares: its streams and the configuration sources.
type app struct {
	in         io.Reader
	out, errw  io.Writer
	v          *viper.Viper
	configFile string
}

// config loads the merged configuration (defaults, file, environment, flags).
func (a *app) config() (*config.Config, error) { return config.Load(a.v, a.configFile) }

func newRootCmd(in io.Reader, out, errw io.Writer) *cobra.Command {
	a := &app{in: in, out: out, errw: errw, v: config.NewViper()}
	root := &cobra.Command{
		Use:           "turnmail",
		Short:         "Board games by email",
		Long:          "turnmail runs board games by email: players reply to the game's mails with their moves.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errw)
	root.PersistentFlags().StringVarP(&a.configFile, "config", "c", "", "configuration file (YAML; see config.example.yaml)")
	root.PersistentFlags().String("database", "", "SQLite database file (overrides the configuration)")
	_ = a.v.BindPFlag("database", root.PersistentFlags().Lookup("database"))
	root.AddCommand(
		newServeCmd(a),
		newNewCmd(a),
		newGamesCmd(a),
		newShowCmd(a),
		newRetryCmd(a),
		newExportCmd(a),
		newImportCmd(a),
		newReplayCmd(a),
		newPlayCmd(a),
		newParseMailCmd(a),
		newConfigCmd(a),
		newMailboxCmd(a),
		newBackupCmd(a),
	)
	return root
}
