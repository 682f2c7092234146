package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/parse"
)

// reading is what a bot knows of the language its mails are written in: the phrases
// that mark the parts of a mail, the facts it reads in notes and tables, and the
// words of the commands it writes. All of it comes from the catalogues, as a player
// who knows the language reads the mail — the bot never sees the program's data.
type reading struct {
	lang i18n.Lang
	tr   *i18n.Bundle
}

var (
	bundleOnce sync.Once
	bundle     *i18n.Bundle
	bundleErr  error
)

// newReading returns the reading of lang.
func newReading(t testing.TB, lang i18n.Lang) *reading {
	t.Helper()
	r, err := readingOf(lang)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readingOf returns the reading of lang (the catalogues are loaded once).
func readingOf(lang i18n.Lang) (*reading, error) {
	bundleOnce.Do(func() { bundle, bundleErr = i18n.Load() })
	return &reading{lang: lang, tr: bundle}, bundleErr
}

// say is a sentence of the mails in the bot's language (an English format and its
// arguments, as the templates write it).
func (r *reading) say(key string, args ...any) string { return r.tr.Sprintf(r.lang, key, args...) }

// sentence is the first sentence of a text of the mails: "It is your move." of "It
// is your move. Reply to …".
func (r *reading) sentence(key string) string {
	s := r.say(key)
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// command is a command the bot writes, in its language's words ("join sw-1" →
// "unisciti sw-1").
func (r *reading) command(game, cmd string) string { return r.tr.Command(game, r.lang, cmd) }

// canonical is the canonical verb of a command or legal entry the mail lists, for the
// bot's choices ("schiera <regione>=…" → "redeploy").
func (r *reading) canonical(game, entry string) string {
	if f := strings.Fields(r.canonicalCommand(game, entry)); len(f) > 0 {
		return strings.ToLower(f[0])
	}
	return ""
}

// canonicalCommand is a command or legal entry the mail lists in the canonical (English)
// words, verb and keywords, for the bot's choices ("muovi o" → "move w", "gioca a13
// su bob mischia" → "play a13 on bob melee").
func (r *reading) canonicalCommand(game, entry string) string {
	c, _ := r.tr.Canonical(game, entry)
	return c
}

// placeholder is a pattern's placeholder in the bot's language ("<region>" →
// "<regione>").
func (r *reading) placeholder(game, word string) string {
	return r.tr.Command(game, r.lang, "<"+word+">")
}

// fact is a text of the mails whose arguments the bot reads: every form the
// language writes it with (plural forms too) as a regular expression, with the
// groups of each argument.
type fact struct {
	forms []*regexp.Regexp
	// args maps each form's groups to the argument they read (1-based).
	args [][]int
}

// fact compiles the texts a key is written with in the bot's language: %d reads a
// number, %s text up to the next literal (or, last, up to ";" or ")").
func (r *reading) fact(key string) fact {
	var f fact
	for _, form := range r.tr.Forms(r.lang, key) {
		re, args := formRegexp(form)
		f.forms = append(f.forms, re)
		f.args = append(f.args, args)
	}
	return f
}

// verbRe matches a fmt verb with an optional explicit argument index.
var verbRe = regexp.MustCompile(`%(?:\[(\d+)\])?([ds])`)

// formRegexp turns a fmt format into a regular expression reading its arguments, and
// the argument each group reads.
func formRegexp(form string) (*regexp.Regexp, []int) {
	var args []int
	re := formShape(form, func(arg int, verb string, last bool) string {
		args = append(args, arg)
		switch {
		case verb == "d":
			return `(\d+)`
		case last:
			return `([^;)\n]+)`
		}
		return `(.+?)`
	})
	return regexp.MustCompile(re), args
}

// formShape writes a fmt format as a regular expression: its text as it is, each verb
// as the expression group gives for it — given the argument it stands for (1-based),
// the verb ("d" or "s") and whether it ends the format.
func formShape(form string, group func(arg int, verb string, last bool) string) string {
	var b strings.Builder
	next, last := 1, 0
	locs := verbRe.FindAllStringSubmatchIndex(form, -1)
	for i, loc := range locs {
		b.WriteString(regexp.QuoteMeta(form[last:loc[0]]))
		arg := next
		if loc[2] >= 0 {
			arg, _ = strconv.Atoi(form[loc[2]:loc[3]])
		}
		next = arg + 1
		b.WriteString(group(arg, form[loc[4]:loc[5]], i == len(locs)-1 && loc[1] == len(form)))
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(form[last:]))
	return b.String()
}

// shape is the regular expression of a text of the mails in the bot's language whose
// arguments are read by the expressions given, one for each argument of the English
// format, in its order (a translation may write them in another: groups that read
// an argument are best named). For a text without plural forms.
func (r *reading) shape(key string, args ...string) string {
	return formShape(r.tr.Forms(r.lang, key)[0], func(arg int, _ string, _ bool) string {
		if arg > len(args) {
			panic(fmt.Sprintf("shape %q: no expression for argument %d", key, arg))
		}
		return args[arg-1]
	})
}

// find returns the arguments of the first form of f found in s, by argument number
// (nil when none is found).
func (f fact) find(s string) map[int]string {
	for i, re := range f.forms {
		if g := re.FindStringSubmatch(s); g != nil {
			out := map[int]string{}
			for j, arg := range f.args[i] {
				out[arg] = g[j+1]
			}
			return out
		}
	}
	return nil
}

// in reports whether some form of f is in s.
func (f fact) in(s string) bool { return f.find(s) != nil }

// The marks of a mail's parts.

// yourMove starts the list of commands in a state mail whose reader is to move.
func (r *reading) yourMove() string { return r.say("What you can send, one command per line:") }

// historyOf is the heading of a history mail of game.
func (r *reading) historyOf(game string) string {
	return strings.SplitN(r.say("The last %d events of game %s:", 0, game), "0", 2)[1]
}

// sentAlready marks the answer to a copy of the bot's previous mail.
func (r *reading) sentAlready() string {
	return strings.SplitN(r.say("You sent this mail already (%s): this copy changed nothing.", "\x00"), "\x00", 2)[0]
}

// canSend starts the list of commands in a refusal.
func (r *reading) canSend() string { return r.say("What you can send now:") }

// legalEnd follows the list of commands of a state mail: the blank line that ends
// the block.
func (r *reading) legalEnd() string { return "\n\n" }

// footer is the signature line of every mail of game.
func (r *reading) footer(game string) string { return r.say("turnmail · game %s", game) }

// over is the line of a finished game's mail.
func (r *reading) over(game string) string { return r.say("The game %s is over.", game) }

// opening marks the first mail of a game.
func (r *reading) opening() string {
	return strings.SplitN(r.say("A new game of %s (%s) has started.", "\x00", "\x00"), "\x00", 2)[0]
}

// swRegions starts the list of the reader's regions in a Small World mail ("Your
// regions: 4* ×2 [fortress], 7 ×1.").
func (r *reading) swRegions() string {
	return strings.SplitN(r.say("Your regions: %s.", "\x00"), "\x00", 2)[0]
}

// emRegions is the title of the table of the regions an Empire mail shows: the
// reader's and those that changed.
func (r *reading) emRegions() string {
	return r.say("Your regions and those that changed since your last mail (* changed):")
}

// winners reads the winners a finished game's mail announces.
func (r *reading) winners(body string) ([]string, bool) {
	for _, key := range []string{"Winners: %s", "Winner: %s"} {
		prefix := strings.SplitN(r.say(key, "\x00"), "\x00", 2)[0]
		for _, l := range strings.Split(body, "\n") {
			if w, ok := strings.CutPrefix(l, prefix); ok {
				return strings.Split(strings.TrimSpace(w), ", "), true
			}
		}
	}
	return nil, false
}

// notApplied reads the line a state mail says was refused, and why.
func (r *reading) notApplied(body string) (line, why string, ok bool) {
	head := strings.SplitN(r.say("Not applied — line %d: %s", 0, "\x00"), "0", 2)[0]
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(head) + `\d+: (.*)\n\s*(.*)$`)
	if g := re.FindStringSubmatch(body); g != nil {
		return g[1], g[2], true
	}
	return "", "", false
}

// opened reads the game a lobby answer to new opened.
func (r *reading) opened(body string) (string, bool) {
	g := r.fact("Game %s (%s) is open. You are its host and play as %s.").find(body)
	if g == nil {
		return "", false
	}
	return g[1], true
}

// joinAsked marks the confirmation a join waits for.
func (r *reading) joinAsked() string {
	return r.sentence("If it was you, reply to this mail with yes and it is done. If not, reply no or\nignore this mail: nothing happens.")
}

// joined marks the answer to a confirmed join of game.
func (r *reading) joined(game string) string {
	return strings.SplitN(r.say("You play in game %s (%s) as %s. The host starts it;\nyou then get the opening mail.", game, "\x00", ""), "\x00", 2)[0]
}

// started marks the answer to start.
func (r *reading) started(game string) string {
	return strings.SplitN(r.say("Game %s (%s) has started; every player has the opening mail.", game, "\x00"), "\x00", 2)[0]
}

// yes is the word that confirms a request.
func (r *reading) yes() string {
	if r.lang == i18n.Italian {
		return "sì"
	}
	return "yes"
}

func (r *reading) String() string { return fmt.Sprintf("reading(%s)", r.lang) }

// TestReading: the bots read the facts of the mails in either language from the
// catalogues — a note's numbers and regions, a plural's both forms, a region row —
// and a bot that plays in Italian is told when it reads English or writes it.
func TestReading(t *testing.T) {
	for _, c := range []struct {
		lang      i18n.Lang
		note      string
		toPlace   string
		regions   []string
		ends      bool
		pointLeft string
	}{
		{i18n.English, "the region ends with that many; regions 3,7; 1 token to place", "1", []string{"3", "7"}, true, ""},
		{i18n.Italian, "la regione resta con quel numero; regioni 4,9; 5 segnalini da schierare", "5", []string{"4", "9"}, true, ""},
		{i18n.Italian, "due regioni diverse tra 13,14,19", "", []string{"13", "14", "19"}, false, ""},
		{i18n.English, "along the path you name: land and crossings 1 point, sea routes 3, 1 point left", "", nil, false, "1"},
	} {
		r := newReading(t, c.lang)
		got, ends := r.listedRegions(c.note)
		if !slices.Equal(got, c.regions) || ends != c.ends {
			t.Errorf("%s listedRegions(%q) = %q, %v; want %q, %v", c.lang, c.note, got, ends, c.regions, c.ends)
		}
		if g := r.fact(noteToPlace).find(c.note); (g == nil) != (c.toPlace == "") || g != nil && g[1] != c.toPlace {
			t.Errorf("%s tokens to place in %q: %v, want %q", c.lang, c.note, g, c.toPlace)
		}
		if g := r.fact(notePoints).find(c.note); c.pointLeft != "" && (g == nil || g[2] != c.pointLeft) {
			t.Errorf("%s points left in %q: %v, want %q", c.lang, c.note, g, c.pointLeft)
		}
	}
	it := newReading(t, i18n.Italian)
	row := "  5  armate ann×4 ben×4 — terra 3, 4; mare 22"
	if g := it.emRegionRe().FindStringSubmatch(row); g == nil || g[1] != "5" || !strings.Contains(g[2], "ann×4") {
		t.Errorf("an Italian Empire row reads as %q", g)
	}
	if got := it.placeholder("smallworld", "region"); got != "<regione>" {
		t.Errorf("placeholder = %q", got)
	}
	b := &bot{name: "ann", kind: "smallworld", rd: it, sentAll: []string{"conquista 3", "conquer 4"},
		mails: []*parse.Message{{Subject: "[sw-1] Small World", Body: "Your move\n-- \n" + it.footer("sw-1")}}}
	problems := languageProblems(b, "sw-1")
	if len(problems) < 2 || !strings.Contains(problems[0], "read English") || !strings.Contains(problems[len(problems)-1], `"conquer 4"`) {
		t.Errorf("languageProblems = %q, want the English mail and the English command", problems)
	}
}
