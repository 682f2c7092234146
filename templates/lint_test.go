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
	"text/template/parse"
	"unicode"

	"github.com/turnmail/turnmail/i18n"
)

// terminalOnly are the template files that no mail uses: the host's terminal
// (turnmail replay, play), which speaks English.
var terminalOnly = map[string]bool{"terminal.txt.tmpl": true}

// trees returns every parsed template of the set, text and HTML, by name, with the
// file each comes from.
func (s *Set) trees() map[string]*parse.Tree {
	out := map[string]*parse.Tree{}
	for _, t := range s.text.Templates() {
		if t.Tree != nil {
			out["text:"+t.Name()] = t.Tree
		}
	}
	for _, t := range s.html.Templates() {
		if t.Tree != nil {
			out["html:"+t.Name()] = t.Tree
		}
	}
	return out
}

// walkTemplate calls text for every literal text and call for every function call
// of the tree below n.
func walkTemplate(n parse.Node, text func(*parse.TextNode), call func(*parse.CommandNode)) {
	switch x := n.(type) {
	case *parse.ListNode:
		if x == nil {
			return
		}
		for _, c := range x.Nodes {
			walkTemplate(c, text, call)
		}
	case *parse.TextNode:
		text(x)
	case *parse.ActionNode:
		walkTemplate(x.Pipe, text, call)
	case *parse.PipeNode:
		if x == nil {
			return
		}
		for _, c := range x.Cmds {
			walkTemplate(c, text, call)
		}
	case *parse.CommandNode:
		call(x)
		for _, a := range x.Args {
			walkTemplate(a, text, call)
		}
	case *parse.IfNode:
		walkTemplate(x.Pipe, text, call)
		walkTemplate(x.List, text, call)
		walkTemplate(x.ElseList, text, call)
	case *parse.RangeNode:
		walkTemplate(x.Pipe, text, call)
		walkTemplate(x.List, text, call)
		walkTemplate(x.ElseList, text, call)
	case *parse.WithNode:
		walkTemplate(x.Pipe, text, call)
		walkTemplate(x.List, text, call)
		walkTemplate(x.ElseList, text, call)
	case *parse.TemplateNode:
		walkTemplate(x.Pipe, text, call)
	}
}

var (
	// markup is what an HTML text holds besides words: a style sheet, tags, entities.
	// A tag may be cut by an action (<html lang="{{…}}">): its ends are markup too.
	markup = regexp.MustCompile(`(?s)<style>.*?</style>|<[^>]*>|&#?[a-zA-Z0-9]+;|<[a-zA-Z][^>]*$|^[^<>]*"\s*>`)
	// notWords are the literal texts that are no language: the program's name.
	notWords = regexp.MustCompile(`\bturnmail\b`)
)

// words returns the letters of a template's literal text that a reader would read
// as words, markup and names left out ("" when there are none).
func words(text string) string {
	text = notWords.ReplaceAllString(markup.ReplaceAllString(text, " "), " ")
	if strings.IndexFunc(text, unicode.IsLetter) < 0 {
		return ""
	}
	return strings.Join(strings.Fields(text), " ")
}

// TestTemplatesReadEverythingThroughCatalogues checks issue 14's rule for the
// templates: no word is written in a template itself — every text a reader reads is
// a key given to t, so that it has its translation (the templates' literal text is
// layout only: spaces, punctuation, markup); and every key given to t has its
// Italian translation in the templates catalogue, which holds no key the templates
// no longer use.
func TestTemplatesReadEverythingThroughCatalogues(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	var used []string
	for name, tree := range s.trees() {
		file := tree.ParseName
		walkTemplate(tree.Root, func(n *parse.TextNode) {
			if w := words(string(n.Text)); w != "" && !terminalOnly[file] {
				t.Errorf("%s (%s): words outside the catalogues: %q", file, name, w)
			}
		}, func(c *parse.CommandNode) {
			if len(c.Args) < 3 {
				return
			}
			if id, ok := c.Args[0].(*parse.IdentifierNode); !ok || id.Ident != "t" {
				return
			}
			if key, ok := c.Args[2].(*parse.StringNode); ok {
				used = append(used, key.Text)
			} else {
				t.Errorf("%s (%s): t with a key that is not a literal string: %s", file, name, c)
			}
		})
	}
	for _, k := range used {
		if !tr.Has(i18n.Italian, "templates", k) {
			t.Errorf("no Italian for the template text %q", k)
		}
	}
	code := codeKeys(t)
	for _, k := range code {
		if !tr.HasAny(i18n.Italian, k) {
			t.Errorf("no Italian for the text %q of the templates' Go code", k)
		}
	}
	used = append(used, code...)
	sort.Strings(used)
	used = slices.Compact(used)
	for _, k := range tr.Keys(i18n.Italian, "templates") {
		if !slices.Contains(used, k) {
			t.Errorf("the Italian templates catalogue has %q, which no template uses", k)
		}
	}
}

// codeKeys returns the literal keys the package's Go code translates: the second
// argument of every call of a method Sprintf (i18n.Bundle.Sprintf(lang, key, …)), and
// the keys of the package's maps of formats (aboutFormats).
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
			if !ok || len(c.Args) < 2 {
				return true
			}
			if sel, ok := c.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Sprintf" {
				return true
			}
			if lit, ok := c.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				k, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, k)
			}
			return true
		})
	}
	for _, f := range aboutFormats {
		out = append(out, f)
	}
	return out
}
