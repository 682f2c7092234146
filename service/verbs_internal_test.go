package service

import (
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/templates"
)

// TestServiceVerbs: the registered service verbs are those the service has always
// understood, each where it was (at the service address, in a game, both), sent by
// whom it was, and answered once per mail when it only informs; each has its words
// in both languages in the catalogue, and its help lines are in the help.
func TestServiceVerbs(t *testing.T) {
	t.Parallel()
	lobby := []string{"games", "help", "invite", "join", "leave", "new", "observe", "pause", "replace", "resume", "rules", "set", "start", "undo", "unobserve"}
	game := []string{"accept", "help", "history", "lang", "legal", "map", "notify", "pause", "replace", "resign", "respond", "resume", "rules", "say", "set", "status", "tz", "undo", "vacation"}
	info := []string{"games", "help", "history", "legal", "map", "rules", "status"}
	who := map[string]sender{"join": self, "leave": self, "observe": self, "unobserve": self,
		"start": host, "invite": host, "pause": host, "resume": host, "replace": host, "undo": host, "set": host}
	if got := verbNames(false); !slices.Equal(got, lobby) {
		t.Errorf("at the service address: %v, want %v", got, lobby)
	}
	if got := verbNames(true); !slices.Equal(got, game) {
		t.Errorf("in a game: %v, want %v", got, game)
	}
	for name, v := range verbs {
		if v.info != slices.Contains(info, name) {
			t.Errorf("%s: info %v", name, v.info)
		}
		if v.lobby != nil && v.who != who[name] {
			t.Errorf("%s: sent by %d, want %d", name, v.who, who[name])
		}
		if (v.lobbyHelp != "") && v.lobby == nil || (v.gameHelp != "") && v.game == nil {
			t.Errorf("%s: a help line where it is not understood", name)
		}
	}

	// The catalogue's service words are the registered verbs (an Italian word
	// is read as its verb: see i18n, words.json).
	tr := mustBundle(t)
	words := tr.Verbs(i18n.ServiceDomain)
	slices.Sort(words)
	var all []string
	for name := range verbs {
		all = append(all, name)
	}
	slices.Sort(all)
	if !slices.Equal(words, all) {
		t.Errorf("the catalogue's service verbs %v, the registered %v", words, all)
	}
	for _, name := range all {
		if it := tr.Word(i18n.ServiceDomain, i18n.Italian, name); it == "" {
			t.Errorf("%s has no Italian word", name)
		}
		if canon, _ := tr.Canonical("", tr.Word(i18n.ServiceDomain, i18n.Italian, name)); strings.Fields(canon)[0] != name {
			t.Errorf("the Italian word of %s reads as %q", name, canon)
		}
	}

	// Each help line registered is in the help, in both languages.
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	help := map[i18n.Lang]string{}
	for _, lang := range i18n.Langs {
		text, _, err := tmpl.Render("notice", templates.Notice{Kind: "help", Service: "turnmail@games.example", Lang: string(lang)})
		if err != nil {
			t.Fatal(err)
		}
		help[lang] = strings.Join(strings.Fields(text), " ")
	}
	for name, v := range verbs {
		for _, key := range []string{v.lobbyHelp, v.gameHelp} {
			if key == "" {
				continue
			}
			for _, lang := range i18n.Langs {
				line := strings.Join(strings.Fields(tr.Sprintf(lang, key)), " ")
				if !strings.Contains(help[lang], line) {
					t.Errorf("%s: %q is not in the help in %s", name, line, lang)
				}
				if lang != i18n.English && line == key && strings.Contains(key, " ") {
					t.Errorf("%s: %q is not translated to %s", name, key, lang)
				}
			}
		}
	}
}
