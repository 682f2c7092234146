package empire

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

var registry = engine.Registry{"empire": Game{}}

// placeAny is the Legal entry of a placement in several regions at once.
const placeAny = "place <region>=<n> <region>=<n> …"

// rangeRe matches the number patterns of Legal entries: "<a…b>" and " [a…b]".
var rangeRe = regexp.MustCompile(`( \[|<)(\d+)…(\d+)(\]|>)`)

// choiceRe matches the choices of Legal entries: "<4,5,9>" stands for one of 4, 5, 9.
var choiceRe = regexp.MustCompile(`<(\d+(?:,\d+)+)>`)

// generic reports whether a Legal entry is a pattern with free placeholders
// ("<region>", "<n>") rather than number ranges.
func generic(entry string) bool {
	return strings.Contains(entry, "<region>") || strings.Contains(entry, "<n>")
}

// instantiate turns a Legal entry into a concrete command, choosing numbers at random;
// generic patterns give "".
func instantiate(entry string, r *rand.Rand) string {
	cmd := engine.Normalize(entry)
	if generic(cmd) {
		return ""
	}
	cmd = choiceRe.ReplaceAllStringFunc(cmd, func(m string) string {
		alts := strings.Split(m[1:len(m)-1], ",")
		return alts[r.IntN(len(alts))]
	})
	return rangeRe.ReplaceAllStringFunc(cmd, func(m string) string {
		g := rangeRe.FindStringSubmatch(m)
		lo, _ := strconv.Atoi(g[2])
		hi, _ := strconv.Atoi(g[3])
		v := lo + r.IntN(hi-lo+1)
		if g[1] == " [" {
			if r.IntN(3) == 0 {
				return ""
			}
			return " " + strconv.Itoa(v)
		}
		return strconv.Itoa(v)
	})
}

// covers reports whether a concrete command is one of the Legal entries (patterns
// matched with their number ranges). A multi-region place is covered when every part is
// covered by a single-region entry and the generic place pattern's note allows the
// total.
func covers(legal []string, notes map[string]engine.Text, cmd string) bool {
	cmd = engine.Normalize(cmd)
	for _, e := range legal {
		if matchEntry(engine.Normalize(e), cmd) {
			return true
		}
	}
	f := strings.Fields(cmd)
	if len(f) == 3 && f[0] == "move" && f[2] == "1" {
		// The number of armies defaults to 1.
		return covers(legal, notes, "move "+f[1])
	}
	if len(f) > 2 && f[0] == "place" {
		total := 0
		for _, part := range f[1:] {
			if !covers(legal, notes, "place "+part) {
				return false
			}
			_, n, _ := strings.Cut(part, "=")
			v, _ := strconv.Atoi(n)
			total += v
		}
		// "up to %d armies in all, in %s"
		if note, ok := notes[placeAny]; ok && slices.Contains(legal, placeAny) {
			most, _ := note.Args[0].(int)
			regions := map[string]bool{}
			for _, part := range f[1:] {
				r, _, _ := strings.Cut(part, "=")
				regions[r] = true
			}
			return total <= most && len(regions) == len(f)-1
		}
	}
	return false
}

func matchEntry(entry, cmd string) bool {
	if generic(entry) {
		return false
	}
	var ranges [][2]int
	var optional []bool
	pat := "^"
	last := 0
	var choices []string
	for _, m := range choiceRe.FindAllStringSubmatchIndex(entry, -1) {
		choices = append(choices, regexp.QuoteMeta(entry[last:m[0]])+"(?:"+strings.ReplaceAll(entry[m[2]:m[3]], ",", "|")+")")
		last = m[1]
	}
	if choices != nil {
		// Choices come before the number ranges in every entry that has both.
		pat += strings.Join(choices, "")
		entry, last = entry[last:], 0
	}
	for _, m := range rangeRe.FindAllStringSubmatchIndex(entry, -1) {
		pat += regexp.QuoteMeta(entry[last:m[0]])
		lo, _ := strconv.Atoi(entry[m[4]:m[5]])
		hi, _ := strconv.Atoi(entry[m[6]:m[7]])
		ranges = append(ranges, [2]int{lo, hi})
		if entry[m[2]:m[3]] == " [" {
			pat += `(?: (\d+))?`
			optional = append(optional, true)
		} else {
			pat += `(\d+)`
			optional = append(optional, false)
		}
		last = m[1]
	}
	pat += regexp.QuoteMeta(entry[last:]) + "$"
	g := regexp.MustCompile(pat).FindStringSubmatch(cmd)
	if g == nil {
		return false
	}
	for i, rg := range ranges {
		if g[i+1] == "" {
			if optional[i] {
				continue
			}
			return false
		}
		v, err := strconv.Atoi(g[i+1])
		if err != nil || v < rg[0] || v > rg[1] || strconv.Itoa(v) != g[i+1] {
			return false
		}
	}
	return true
}

// viewOf returns the view of s for viewer as a generic JSON object.
func viewOf(t testing.TB, s engine.State, viewer string) map[string]any {
	t.Helper()
	b, err := json.Marshal(s.View(viewer))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
