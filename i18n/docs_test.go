package i18n_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
)

// docPages are the pages that document each command domain: the service's commands,
// and each game's (Small World's family shares its words).
var docPages = map[string][]string{
	i18n.ServiceDomain: {"commands.md", "it/comandi.md"},
	"smallworld":       {"smallworld.md", "underground.md", "necromancer.md", "it/smallworld.md"},
	"underground":      {"smallworld.md", "underground.md", "necromancer.md", "it/smallworld.md"},
	"necromancer":      {"smallworld.md", "underground.md", "necromancer.md", "it/smallworld.md"},
	"empire":           {"empire.md", "it/empire.md"},
	"dungeoneer":       {"dungeoneer.md", "it/dungeoneer.md"},
}

// commandColumns are the headings of the table columns that hold commands.
var commandColumns = map[string]bool{"command": true, "verb": true, "example": true, "italiano": true, "inglese": true, "esempio": true}

// docSpan matches a code span in a table cell.
var docSpan = regexp.MustCompile("`([^`]+)`")

// documentedCommands returns the commands a page's command tables show (the code
// spans of their command columns).
func documentedCommands(t *testing.T, page string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "docs", page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var cols []bool // of the table being read: which columns hold commands
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = nil
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		switch {
		case cols == nil:
			cols = make([]bool, len(cells))
			for i, c := range cells {
				cols[i] = commandColumns[strings.ToLower(strings.TrimSpace(c))]
			}
			continue
		case strings.HasPrefix(strings.TrimSpace(cells[0]), "---"):
			continue
		}
		for i, c := range cells {
			if i < len(cols) && cols[i] {
				for _, m := range docSpan.FindAllStringSubmatch(c, -1) {
					out = append(out, m[1])
				}
			}
		}
	}
	return out
}

// TestDocsCommands: the command tables of docs/ and docs/it/ show only commands that
// exist (each one's first word, in English or Italian, is a command word of the page's
// game or of the service), and every command word each engine names (engine.Worder)
// and the service reads has an Italian word and is shown by its pages, in English and
// in Italian.
func TestDocsCommands(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	service := map[string]bool{"end": true}
	for _, v := range b.Verbs(i18n.ServiceDomain) {
		service[v] = true
	}
	reg := games.Registry()
	anyGame := map[string]bool{} // the service's page shows Small World's words for a standing order
	for _, g := range reg {
		for _, v := range g.(engine.Worder).Words() {
			anyGame[v] = true
		}
	}
	for domain, pages := range docPages {
		verbs := map[string]bool{}
		if domain != i18n.ServiceDomain {
			g, err := reg.Lookup(domain)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range g.(engine.Worder).Words() {
				verbs[v] = true
			}
		} else {
			verbs = service
		}
		shown := map[string]map[bool]bool{} // verb → shown in English (false) / Italian (true) pages
		for _, page := range pages {
			italian := strings.HasPrefix(page, "it/")
			for _, c := range documentedCommands(t, page) {
				canon, _ := b.Canonical(domain, strings.ToLower(c))
				verb, _, _ := strings.Cut(canon, " ")
				if !verbs[verb] && !service[verb] && !(domain == i18n.ServiceDomain && anyGame[verb]) {
					t.Errorf("docs/%s shows %q, which is no command of %s", page, c, domain)
				}
				if shown[verb] == nil {
					shown[verb] = map[bool]bool{}
				}
				shown[verb][italian] = true
			}
		}
		italianWords := b.Verbs(domain)
		for _, v := range slices.Sorted(mapKeys(verbs)) {
			if v != "end" && !slices.Contains(italianWords, v) {
				t.Errorf("%s: the command %q has no Italian word (catalog/it/words.json)", domain, v)
			}
			for _, italian := range []bool{false, true} {
				if !shown[v][italian] && v != "end" {
					t.Errorf("%s: the command %q is not shown in the command tables of %s (Italian %v)", domain, v, strings.Join(pages, ", "), italian)
				}
			}
		}
	}
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
