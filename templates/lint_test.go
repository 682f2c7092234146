package templates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/turnmail/turnmail/i18n"
)

// keyCalls are the calls whose argument at the index is a message key: the words'
// t, rich and prefix, fixed (a notice's topic), and Bundle.Sprintf(lang, key, …).
var keyCalls = map[string]int{"t": 0, "rich": 0, "fixed": 0, "prefix": 0, "Sprintf": 1}

// runCalls are the doc package's functions that put a literal text into a mail as
// it is: their literal arguments must hold no words.
var runCalls = map[string]bool{"T": true, "B": true, "C": true, "S": true, "L": true}

// notWords are the literal texts that are no language: the program's name, the
// turnmail commands a host types in a shell, card and region ids.
var notWords = regexp.MustCompile(`\bturnmail\b|--at N`)

// codeKeys returns the literal keys the package's Go code translates, and reports
// (through t) a key that is not a literal and a literal text put into a mail without
// the catalogue.
func codeKeys(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fs := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fn := c.Fun.(type) {
			case *ast.SelectorExpr:
				name = fn.Sel.Name
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "doc" && runCalls[name] {
					for _, a := range c.Args {
						if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							s, _ := strconv.Unquote(lit.Value)
							if w := notWords.ReplaceAllString(s, ""); strings.IndexFunc(w, unicode.IsLetter) >= 0 {
								t.Errorf("%s: words outside the catalogues: doc.%s(%s)", fs.Position(lit.Pos()), name, lit.Value)
							}
						}
					}
					return true
				}
			case *ast.Ident:
				name = fn.Name
			}
			at, ok := keyCalls[name]
			if !ok || len(c.Args) <= at {
				return true
			}
			if lit, ok := c.Args[at].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				k, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, k)
			} else if name != "Sprintf" {
				t.Errorf("%s: %s with a key that is not a literal string", fs.Position(c.Pos()), name)
			}
			return true
		})
	}
	for _, f := range aboutFormats {
		out = append(out, f)
	}
	out = append(append(append(out, dayKeys[:]...), monthKeys[:]...), monthNameKeys[:]...)
	return out
}

// TestEverythingThroughCatalogues checks issue 14's rule for the mails: no word is
// written in the package's code — every text a reader reads is a key given to the
// catalogue (t, rich, fixed, Sprintf), and a literal put into a mail as it is holds
// no word; every key has its Italian translation, and the Italian templates
// catalogue holds no key the mails no longer use.
func TestEverythingThroughCatalogues(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	used := codeKeys(t)
	if len(used) < 300 {
		t.Fatalf("only %d keys found in the code", len(used))
	}
	for _, k := range used {
		if !tr.HasAny(i18n.Italian, k) {
			t.Errorf("no Italian for the text %q of the mails", k)
		}
	}
	sort.Strings(used)
	used = slices.Compact(used)
	for _, k := range tr.Keys(i18n.Italian, "templates") {
		if _, found := slices.BinarySearch(used, k); !found {
			t.Errorf("the Italian templates catalogue has %q, which no mail uses", k)
		}
	}
}
