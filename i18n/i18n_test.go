package i18n

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
)

func load(t *testing.T) *Bundle {
	t.Helper()
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// formats returns the literal format strings given as argument arg of every call to
// a function or method called name in the non-test Go files of dir (a constant of the
// package counts as a literal).
func formats(t *testing.T, dir, name string, arg int) []string {
	return formatsOf(t, dir, name, arg, true)
}

// formatsOf is formats; strict reports a format that is neither a literal nor a
// constant, else such calls are left out.
func formatsOf(t *testing.T, dir, name string, arg int, strict bool) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	seen := map[string]bool{}
	consts := map[string]string{}
	fs := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, af)
		for _, d := range af.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							consts[n.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
		}
	}
	for _, af := range parsed {
		ast.Inspect(af, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) <= arg {
				return true
			}
			var fn string
			switch f := c.Fun.(type) {
			case *ast.SelectorExpr:
				fn = f.Sel.Name
			case *ast.Ident:
				fn = f.Name
			}
			if fn != name {
				return true
			}
			if id, ok := c.Args[arg].(*ast.Ident); ok && consts[id.Name] != "" {
				seen[consts[id.Name]] = true
				return true
			} else if ok && id.Name == "format" {
				return true // a helper passing its own format on: its callers are read
			}
			lit, ok := c.Args[arg].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				if strict {
					t.Errorf("%s: %s with a format that is not a literal string", fs.Position(c.Pos()), name)
				}
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			seen[s] = true
			return true
		})
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// bothWays checks that every key used has an Italian translation in domain, and that
// domain holds no key that is not used.
func bothWays(t *testing.T, b *Bundle, domain string, used []string) {
	t.Helper()
	for _, k := range used {
		if !b.Has(Italian, domain, k) {
			t.Errorf("%s: no Italian for %q", domain, k)
		}
	}
	for _, k := range b.Keys(Italian, domain) {
		if !slices.Contains(used, k) {
			t.Errorf("%s: the Italian catalogue has %q, which is no longer used", domain, k)
		}
	}
}

// TestEngineCatalogues checks both ways that every engine.Illegal format of each
// engine (and of the reasons given to it as an argument: smallworld's reason; and
// an engine's other texts, its text calls: Empire's, Small World's notes) has an
// Italian translation with the same arguments (Load checks the
// arguments), and that the catalogue holds no format the engine no longer uses.
func TestEngineCatalogues(t *testing.T) {
	b := load(t)
	for _, game := range []string{"smallworld", "empire", "dungeoneer"} {
		dir := filepath.Join("..", "engine", game)
		used := append(formats(t, dir, "Illegal", 0), formats(t, dir, "illegalInstead", 1)...)
		used = append(used, formats(t, dir, "reason", 0)...)
		used = append(used, formats(t, dir, "text", 0)...) // Empire's notes, cards, score lines (empire/texts.go); Small World's notes
		if len(used) < 10 {
			t.Fatalf("%s: only %d Illegal formats found", game, len(used))
		}
		bothWays(t, b, game, used)
	}
}

// TestDungeoneerAccounts checks that every line Dungeoneer's log and accounts can say
// (state.logf, and the lines Narrate adds) has its Italian translation, even those
// that self-play (TestEngineTextsTranslated) happens not to reach.
func TestDungeoneerAccounts(t *testing.T) {
	b := load(t)
	dir := filepath.Join("..", "engine", "dungeoneer")
	used := append(formats(t, dir, "logf", 0), formatsOf(t, dir, "add", 1, false)...)
	used = append(used, "melee", "magic", "speed", "life", "level") // the scores of tests and forms of attack (formWord)
	if len(used) < 30 {
		t.Fatalf("only %d account lines found", len(used))
	}
	for _, k := range used {
		if !b.Has(Italian, "accounts", k) {
			t.Errorf("accounts: no Italian for %q", k)
		}
	}
}

// TestDungeoneerTerms: every card of Dungeoneer's set (heroes, map cards, quests and
// their monsters, Adventure cards) is named in Italian by its Italian name in the data.
func TestDungeoneerTerms(t *testing.T) {
	b := load(t)
	var ids []string
	for i := 1; i <= 6; i++ {
		ids = append(ids, fmt.Sprintf("h%d", i))
	}
	for i := 1; i <= 62; i++ {
		ids = append(ids, fmt.Sprintf("m%02d", i), fmt.Sprintf("q%02d", i), fmt.Sprintf("a%02d", i))
	}
	n := 0
	for _, id := range ids {
		c, ok := dungeoneer.Card(id)
		if !ok {
			continue
		}
		n++
		names := []dungeoneer.Names{c.Name}
		if c.Monster != nil && c.Monster.Name.En != "" {
			names = append(names, c.Monster.Name)
		}
		for _, nm := range names {
			if got := b.Term(Italian, nm.En); got != nm.It {
				t.Errorf("%s: %q is %q in Italian, want %q", id, nm.En, got, nm.It)
			}
		}
	}
	if n != 6+20+14+62 {
		t.Errorf("%d cards found, want 102", n)
	}
}

// TestMailCatalogue checks both ways that everything mail/compose says of an address
// it refuses (its problems, read by the service into a reader's language) has an
// Italian translation.
func TestMailCatalogue(t *testing.T) {
	b := load(t)
	used := formats(t, filepath.Join("..", "mail", "compose"), "why", 0)
	if len(used) < 10 {
		t.Fatalf("only %d address problems found", len(used))
	}
	bothWays(t, b, "mail", used)
}

// TestServiceCatalogue checks both ways that every sentence the service renders
// through the catalogue (run.t, lobbyTx.t, Bundle.Sprintf, failf) has an Italian translation,
// and that the Italian catalogue holds no sentence the service no longer uses.
func TestServiceCatalogue(t *testing.T) {
	b := load(t)
	dir := filepath.Join("..", "service")
	used := formats(t, dir, "t", 0)
	used = append(used, formatsOf(t, dir, "Sprintf", 1, false)...)
	used = append(used, formats(t, dir, "failf", 0)...) // errors shown in the reader's language
	if len(used) < 40 {
		t.Fatalf("only %d service sentences found", len(used))
	}
	bothWays(t, b, "service", used)
}

func TestVerbs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"no verbs", nil},
		{"%d of %s", []string{"1:d", "2:s"}},
		{"%[2]s then %[1]d", []string{"1:d", "2:s"}},
		{"100%% %q %5.2f", []string{"1:q", "2:f"}},
		{"%[2]s %s", []string{"2:s", "3:s"}},
		{"bad %", []string{"bad"}},
		{"bad %[x]d", []string{"bad"}},
	} {
		if got := Verbs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Verbs(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestCheckEntry(t *testing.T) {
	for _, c := range []struct {
		key string
		e   entry
		ok  bool
	}{
		{"region %d", entry{Text: "regione %d"}, true},
		{"region %d", entry{Text: "regione %s"}, false},
		{"region %d", entry{Text: "regione"}, false},
		{"region %d", entry{Text: ""}, false},
		{"%s plays %d", entry{Text: "%[2]d: %[1]s"}, true},
		{"%d coins", entry{Arg: 1, One: "una moneta", Other: "%d monete"}, true},
		{"%d coins", entry{Arg: 1, One: "una moneta", Other: "%s monete"}, false},
		{"%d coins", entry{Arg: 2, One: "x", Other: "y"}, false},
	} {
		if err := checkEntry(c.key, c.e); (err == nil) != c.ok {
			t.Errorf("checkEntry(%q, %+v) = %v, want ok %v", c.key, c.e, err, c.ok)
		}
	}
}

func TestSprintf(t *testing.T) {
	b := load(t)
	for _, c := range []struct {
		lang Lang
		key  string
		args []any
		want string
	}{
		{English, "region %d is not yours", []any{4}, "region 4 is not yours"},
		{Italian, "region %d is not yours", []any{4}, "la regione 4 non è tua"},
		{Italian, "you already play the %s %s; a new race comes after a decline", []any{engine.Term("Flying"), engine.Term("Ratmen")},
			"giochi già con Uomini Ratto Volanti; una nuova razza arriva dopo un declino"},
		{Italian, "you have no declined %s", []any{engine.Term("Ghouls")}, "non hai Ghoul in Declino"},
		// A plain string is a name of the game's own, such as a player's: a player
		// called like a race keeps their name.
		{Italian, "%s joined", []any{"Giants"}, "nuovo giocatore: Giants"},
		{Italian, "not in any catalogue %d", []any{3}, "not in any catalogue 3"},
		{English, "the last %d of %d events", []any{50, 5000}, "the last 50 of 5000 events"},
		{English, "That is %d days; you have used %d of the %d days of vacation this game allows.", []any{1, 3, 14},
			"That is 1 day; you have used 3 of the 14 days of vacation this game allows."},
		{English, "That is %d days; you have used %d of the %d days of vacation this game allows.", []any{20, 3, 14},
			"That is 20 days; you have used 3 of the 14 days of vacation this game allows."},
		{Italian, "That is %d days; you have used %d of the %d days of vacation this game allows.", []any{1, 3, 14},
			"È 1 giorno; hai già usato 3 dei 14 giorni di vacanza che questa partita concede."},
		// The count that selects a plural form is a quantity: the Printer groups its digits.
		{Italian, "That is %d days; you have used %d of the %d days of vacation this game allows.", []any{1000, 0, 14},
			"Sono 1.000 giorni; hai già usato 0 dei 14 giorni di vacanza che questa partita concede."},
		{Italian, "region %d is not yours", []any{2026}, "la regione 2026 non è tua"},
		{English, "%5.1f%%|%-4d|%x", []any{2.5, 7, 255}, "  2.5%|7   |ff"},
		{Italian, "%s", []any{engine.Textf("region %d is not yours", 2)}, "la regione 2 non è tua"},
		{Italian, "%s takes %d wounds, %d life left", []any{"bob", 1, 5}, "bob subisce 1 ferita, Vita 5"},
		{Italian, "%s takes %d wounds, %d life left", []any{"bob", 2, 3}, "bob subisce 2 ferite, Vita 3"},
		{English, "%s takes %d wounds, %d life left", []any{"bob", 1, 5}, "bob takes 1 wound, 5 life left"},
		{Italian, "%s rolls %d: %s %d against %d, %s", []any{"ann", 6, engine.Text{Key: "magic"}, 8, 5, engine.Term("success")}, "ann tira 6: magia 8 contro 5, successo"},
		{Italian, "%s plays %s on %s", []any{"ann", engine.Term("Ogre Jailer"), "bob"}, "ann gioca Orco Carceriere contro bob"},
		{Italian, "%s moves %s", []any{"ann", engine.Term("west")}, "ann si muove verso ovest"},
	} {
		if got := b.Sprintf(c.lang, c.key, c.args...); got != c.want {
			t.Errorf("Sprintf(%s, %q) = %q, want %q", c.lang, c.key, got, c.want)
		}
	}
}

func TestTerms(t *testing.T) {
	b := load(t)
	if got := b.Term(Italian, "Will-o'-Wisps"); got != "Fuochi fatui" {
		t.Errorf("Will-o'-Wisps = %q", got)
	}
	if got := b.Term(English, "Ratmen"); got != "Ratmen" {
		t.Errorf("English Ratmen = %q", got)
	}
	// Empire cards the Italian rulebook names (terms.json _source)
	for en, it := range map[string]string{"Arcane Sphinx": "Sfinge arcana", "Ancient Sage": "Saggio antico", "Stronghold": "Roccaforte", "Dire Ogre": "Orco spaventoso"} {
		if got := b.Term(Italian, en); got != it {
			t.Errorf("Italian %s = %q, want %q", en, got, it)
		}
	}
	for name, want := range map[string]string{"uomini ratto": "Ratmen", "RATMEN": "Ratmen", "Fuochi Fatui": "Will-o'-Wisps", "nobody": "",
		"orco spaventoso": "Dire Ogre", "Sfinge Arcana": "Arcane Sphinx"} {
		if got, _ := b.TermOf(name); got != want {
			t.Errorf("TermOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestItalianAsTheRulebooks: Italian texts a player met in the mails, as the Italian
// rulebooks and a native speaker write them (Empire's "rotta marina"; Reborn empties
// "1 o 2 delle sue regioni", not "1 o 2 sue regioni").
func TestItalianAsTheRulebooks(t *testing.T) {
	b := load(t)
	for _, c := range []struct{ key, want string }{
		{"sea route", "rotta marina"},
	} {
		if got := b.Sprintf(Italian, c.key); got != c.want {
			t.Errorf("%q = %q in Italian, want %q", c.key, got, c.want)
		}
	}
	for _, c := range []struct{ term, want string }{
		{"Reborn", "all'inizio del tuo turno svuoti 1 o 2 delle sue regioni"},
	} {
		if got, _ := b.About(Italian, c.term); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want it to say %q", c.term, got, c.want)
		}
	}
}

func TestCanonical(t *testing.T) {
	b := load(t)
	for _, c := range []struct {
		game, in, want string
		it             bool
	}{
		{"smallworld", "prendi 1", "pick 1", true},
		{"smallworld", "Conquista 4 tira", "conquer 4 roll", true},
		{"smallworld", "conquer 4 roll", "conquer 4 roll", false},
		{"smallworld", "abbandona 3", "abandon 3", true},
		{"smallworld", "abbandona la partita", "resign", true},
		{"smallworld", "compra fantasma", "buy ghost", true},
		{"smallworld", "fatto", "done", true},
		{"empire", "prendi 2", "take 2", true},
		{"empire", "città 4", "city 4", true},
		{"", "nuova smallworld lang=it", "new smallworld lang=it", true},
		{"", "nuova smallworld Lingua=it giocatori=3 scadenza=48h", "new smallworld lang=it players=3 deadline=48h", true},
		{"", "imposta promemoria=6h fuso=Europe/Rome", "set remind=6h tz=Europe/Rome", true},
		{"", "nuova smallworld lingua", "new smallworld lingua", true}, // only name=value is an option
		{"", "osserva sw-AB12", "observe sw-AB12", true},
		{"", "smetti  di osservare sw-1", "unobserve sw-1", true},
		{"", "fuso Europe/Rome", "tz Europe/Rome", true},
		{"dungeoneer", "gioca a13 su bob mischia", "play a13 on bob melee", true},
		{"dungeoneer", "costruisci m07 a 1,-2 rot 90", "build m07 at 1,-2 rot 90", true},
		{"dungeoneer", "tieni a13 branco", "keep a13 pack", true},
		{"dungeoneer", "muovi o", "move w", true},
		{"dungeoneer", "Abilità", "ability", true},
		{"dungeoneer", "missione q04 velocita", "quest q04 speed", true},
		{"dungeoneer", "passa", "pass", true},
		{"dungeoneer", "stato", "status", true}, // the service's words still work in a game
		{"", "prendi 1", "prendi 1", false},     // a game's word is no service command
		{"", "", "", false},
	} {
		got, it := b.Canonical(c.game, c.in)
		if got != c.want || it != c.it {
			t.Errorf("Canonical(%q, %q) = %q %v, want %q %v", c.game, c.in, got, it, c.want, c.it)
		}
	}
}

func TestCommand(t *testing.T) {
	b := load(t)
	for _, c := range []struct {
		game string
		lang Lang
		in   string
		want string
	}{
		{"smallworld", English, "pick 1", "pick 1"},
		{"smallworld", Italian, "pick 1", "prendi 1"},
		{"smallworld", Italian, "conquer <4…7> roll", "conquista <4…7> tira"},
		{"smallworld", Italian, "status", "stato"},
		{"smallworld", Italian, "resign", "abbandona la partita"},
		{"empire", Italian, "skip # untranslated note", "salta # untranslated note"},
		{"empire", Italian, "first ann", "primo ann"},
		{"dungeoneer", Italian, "play a13 on @2 magic", "gioca a13 su @2 magia"},
		{"dungeoneer", Italian, "build m07 at 1,-2 rot 90", "costruisci m07 a 1,-2 rot 90"},
		{"dungeoneer", Italian, "keep a13 hand", "tieni a13 mano"},
		{"dungeoneer", Italian, "move w", "muovi o"},
		{"dungeoneer", Italian, "peril carol 2", "pericolo carol 2"},
		// A relic named after a verb (bag RELIC): the relic's word in Italian too.
		{"underground", Italian, "bag sword", "sacca spada"},
		// Placeholders, which the reader replaces, in the reader's words.
		{"smallworld", Italian, "redeploy <region>=<tokens> …", "rischiera <regione>=<segnalini> …"},
		{"underground", Italian, "camp <region>=<encampments>", "accampa <regione>=<accampamenti>"},
		{"empire", Italian, "move <region>><region> [1…2]", "muovi <regione>><regione> [1…2]"},
		{"dungeoneer", Italian, "play <cancelled card> on <player>", "gioca <carta annullata> su <giocatore>"},
		{"smallworld", English, "redeploy <region>=<tokens> …", "redeploy <region>=<tokens> …"},
		{"smallworld", Italian, "conquer <unknown>", "conquista <unknown>"},
	} {
		if got := b.Command(c.game, c.lang, c.in); got != c.want {
			t.Errorf("Command(%q, %s, %q) = %q, want %q", c.game, c.lang, c.in, got, c.want)
		}
		if strings.Contains(c.in, "<") && !strings.Contains(c.in, "…7>") {
			continue // a pattern is filled in, never typed back as it is
		}
		back, _ := b.Canonical(c.game, strings.SplitN(b.Command(c.game, c.lang, c.in), " #", 2)[0])
		if want := strings.SplitN(c.in, " #", 2)[0]; back != want {
			t.Errorf("round trip of %q: %q", c.in, back)
		}
	}
}

// TestWordsUnique: no Italian verb of a game is a service verb too (one would hide the
// other).
func TestWordsUnique(t *testing.T) {
	b := load(t)
	svc := b.words[ServiceDomain]
	for game, w := range b.words {
		if game == ServiceDomain {
			continue
		}
		for ph := range w.verbs {
			if c, ok := svc.verbs[ph]; ok {
				t.Errorf("%s: %q is also the service's %s", game, ph, c)
			}
		}
	}
}

// codeSpan matches a Markdown code span; the words are the command as typed.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// TestDocsIt checks that docs/it documents every Italian command word: each verb and
// keyword of a domain appears in code (`…`) on the domain's page.
func TestDocsIt(t *testing.T) {
	b := load(t)
	// Necromancer Island and Underground share Small World's words (same_as) and page.
	pages := map[string]string{ServiceDomain: "comandi.md", "smallworld": "smallworld.md", "necromancer": "smallworld.md", "underground": "smallworld.md", "empire": "empire.md", "dungeoneer": "dungeoneer.md"}
	for domain, page := range pages {
		raw, err := os.ReadFile(filepath.Join("..", "docs", "it", page))
		if err != nil {
			t.Fatal(err)
		}
		shown := " "
		for _, m := range codeSpan.FindAllStringSubmatch(string(raw), -1) {
			shown += m[1] + " "
		}
		for _, w := range b.Words(domain) {
			if !strings.Contains(shown, " "+w[1]+" ") {
				t.Errorf("docs/it/%s does not show %q (%s)", page, w[1], w[0])
			}
		}
	}
	if len(pages) != len(b.words) {
		t.Errorf("%d command domains, %d pages in docs/it", len(b.words), len(pages))
	}
}

// TestWordsSameAs: the games of the Small World family read Small World's Italian
// words (same_as), and a domain without words of its own reads none.
func TestWordsSameAs(t *testing.T) {
	b := load(t)
	for _, game := range []string{"smallworld", "necromancer", "underground"} {
		if got, it := b.Canonical(game, "conquista 5"); got != "conquer 5" || !it {
			t.Errorf("%s: conquista 5 reads %q (%v), want conquer 5", game, got, it)
		}
	}
	if got, _ := b.Canonical("nosuchgame", "conquista 5"); got != "conquista 5" {
		t.Errorf("a game without words reads conquista 5 as %q", got)
	}
}

// TestDungeoneerWords: every verb Dungeoneer accepts has an Italian word that reads
// back as it.
func TestDungeoneerWords(t *testing.T) {
	b := load(t)
	for _, w := range (dungeoneer.Game{}).Words() {
		it := b.Word("dungeoneer", Italian, w)
		if back, _ := b.Canonical("dungeoneer", it); it == w || back != w {
			t.Errorf("%s: Italian %q reads back as %q", w, it, back)
		}
	}
}

// TestForms: the formats a language writes a key with — its translation, its plural
// forms, or the key itself where nothing is translated.
func TestForms(t *testing.T) {
	b := load(t)
	if got := b.Forms(Italian, "Your move"); !slices.Equal(got, []string{"Tocca a te"}) {
		t.Errorf("Forms(it, Your move) = %q", got)
	}
	plural := "That is %d days; you have used %d of the %d days of vacation this game allows."
	if got := b.Forms(Italian, plural); len(got) != 2 || got[0] == got[1] {
		t.Errorf("Forms(it, a plural key) = %q, want its two forms", got)
	}
	if got := b.Forms(English, plural); len(got) != 2 {
		t.Errorf("Forms(en, a plural key) = %q, want the English forms", got)
	}
	if got := b.Forms(Italian, "no such key %d"); !slices.Equal(got, []string{"no such key %d"}) {
		t.Errorf("Forms of an unknown key = %q", got)
	}
}

// TestTermOf_shared: a name two terms share reads back as the same term every time
// (the catalogue is read in key order), and a term's own English name is itself.
func TestTermOf_shared(t *testing.T) {
	for range 5 {
		b := load(t)
		if got, _ := b.TermOf("lago"); got != "Lake" {
			t.Errorf("TermOf(lago) = %q, want Lake (the first of Lake and lake)", got)
		}
		if got, _ := b.TermOf("lake"); got != "lake" {
			t.Errorf("TermOf(lake) = %q, want lake", got)
		}
	}
}

// TestTextsDigest: the digest of the engines' text keys is the same for two loads,
// changes with a key of an engine's domain and not with one of the mails'.
func TestTextsDigest(t *testing.T) {
	a, b := load(t), load(t)
	d := a.TextsDigest()
	if len(d) != 16 || d != b.TextsDigest() {
		t.Fatalf("digests %q and %q", d, b.TextsDigest())
	}
	b.keys[Italian]["templates"]["a mail's new sentence"] = true
	if b.TextsDigest() != d {
		t.Error("a key of the mails changes the digest")
	}
	b.keys[Italian]["accounts"]["%s places %s at %d,%d, reworded"] = true
	if b.TextsDigest() == d {
		t.Error("a new key of the accounts leaves the digest as it was")
	}
}
