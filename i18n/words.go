package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// gameWords are the Italian words of one domain (a game, or "service" for the
// commands the service understands): verbs, and keywords that follow a verb.
type gameWords struct {
	// verbs map a lower-case Italian phrase (one or more words) to its canonical
	// verb; phrases are tried longest first.
	verbs   map[string]string
	phrases []string
	// args map an Italian keyword to its canonical word.
	args map[string]string
	// out map a canonical verb or keyword to its Italian word (the first listed).
	out map[string]string
	// holes map the word of a pattern's placeholder ("region" of <region>) to its
	// Italian word.
	holes map[string]string
	// options map the Italian name of an option (lingua of lingua=it) to its
	// canonical name.
	options map[string]string
}

// wordsFile is catalog/it/words.json: per domain, canonical word → Italian words
// (the first one is the one mails show; all are accepted).
type wordsFile map[string]struct {
	// SameAs names the domain whose words this one shares (a game of the same
	// family, such as Small World Underground with Small World).
	SameAs string              `json:"same_as"`
	Verbs  map[string][]string `json:"verbs"`
	Args   map[string][]string `json:"args"`
	// Placeholders are the words in a Legal pattern's angle brackets
	// (<region>=<tokens>), which the reader replaces: English → Italian.
	Placeholders map[string]string `json:"placeholders"`
	// Options are the Italian names of options written name=value (new smallworld
	// lingua=it): canonical name → Italian names, all accepted.
	Options map[string][]string `json:"options"`
}

// ServiceDomain is the domain of the service's own commands (help, status, undo …).
const ServiceDomain = "service"

func loadWords() (map[string]*gameWords, error) {
	raw, err := fs.ReadFile(files, "catalog/it/words.json")
	if err != nil {
		return nil, fmt.Errorf("read command words: %w", err)
	}
	var wf wordsFile
	if err := json.Unmarshal(raw, &wf); err != nil {
		return nil, fmt.Errorf("command words: %w", err)
	}
	out := map[string]*gameWords{}
	for domain, d := range wf {
		w := &gameWords{verbs: map[string]string{}, args: map[string]string{}, out: map[string]string{}, holes: d.Placeholders, options: map[string]string{}}
		for canon, its := range d.Options {
			for _, it := range its {
				w.options[strings.ToLower(it)] = canon
			}
		}
		for canon, its := range d.Verbs {
			if len(its) == 0 {
				return nil, fmt.Errorf("command words %s: %q has no Italian word", domain, canon)
			}
			w.out[canon] = its[0]
			for _, it := range its {
				it = strings.Join(strings.Fields(strings.ToLower(it)), " ")
				if prev, dup := w.verbs[it]; dup && prev != canon {
					return nil, fmt.Errorf("command words %s: %q means both %s and %s", domain, it, prev, canon)
				}
				w.verbs[it] = canon
				w.phrases = append(w.phrases, it)
			}
		}
		for canon, its := range d.Args {
			if len(its) == 0 {
				return nil, fmt.Errorf("command words %s: %q has no Italian word", domain, canon)
			}
			if _, clash := w.out[canon]; !clash {
				w.out[canon] = its[0]
			}
			for _, it := range its {
				w.args[strings.ToLower(it)] = canon
			}
		}
		sort.Slice(w.phrases, func(i, j int) bool {
			if a, b := strings.Count(w.phrases[i], " "), strings.Count(w.phrases[j], " "); a != b {
				return a > b
			}
			return w.phrases[i] < w.phrases[j]
		})
		out[domain] = w
	}
	for domain, d := range wf {
		if d.SameAs == "" {
			continue
		}
		base, ok := out[d.SameAs]
		if !ok || wf[d.SameAs].SameAs != "" || len(d.Verbs)+len(d.Args)+len(d.Placeholders)+len(d.Options) > 0 {
			return nil, fmt.Errorf("command words %s: same_as %q must name a domain with its own words, and stand alone", domain, d.SameAs)
		}
		out[domain] = base
	}
	if _, ok := out[ServiceDomain]; !ok {
		return nil, fmt.Errorf("command words: no %s domain", ServiceDomain)
	}
	return out, nil
}

// Canonical returns a command line with its Italian words replaced by the canonical
// (English) ones: the verb (a phrase of one or more words, of game's domain or the
// service's) and the keywords after it. Other words keep their case (addresses, time
// zones). It reports whether an Italian word was replaced. A line in English comes
// back unchanged.
func (b *Bundle) Canonical(game, line string) (string, bool) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return line, false
	}
	lower := strings.ToLower(strings.Join(f, " "))
	var w *gameWords
	best := ""
	for _, domain := range []string{game, ServiceDomain} { // the longest phrase wins
		d := b.words[domain]
		if d == nil {
			continue
		}
		for _, ph := range d.phrases {
			if len(ph) > len(best) && (lower == ph || strings.HasPrefix(lower, ph+" ")) {
				w, best = d, ph
			}
		}
	}
	if w != nil {
		n := strings.Count(best, " ") + 1
		out := []string{w.verbs[best]}
		for _, a := range f[n:] {
			if c, ok := w.args[strings.ToLower(a)]; ok {
				a = c
			} else if k, v, ok := strings.Cut(a, "="); ok {
				if c, ok := b.option(game, k); ok {
					a = c + "=" + v
				}
			}
			out = append(out, a)
		}
		return strings.Join(out, " "), true
	}
	return strings.Join(f, " "), false
}

// option returns the canonical name of an option's Italian name, of game's domain or
// the service's.
func (b *Bundle) option(game, name string) (string, bool) {
	for _, domain := range []string{game, ServiceDomain} {
		if d := b.words[domain]; d != nil {
			if c, ok := d.options[strings.ToLower(name)]; ok {
				return c, true
			}
		}
	}
	return "", false
}

// Word returns the word lang uses for a canonical verb or keyword of domain (the
// canonical word itself in English or when there is none).
func (b *Bundle) Word(domain string, lang Lang, canonical string) string {
	if lang == English {
		return canonical
	}
	if w := b.words[domain]; w != nil {
		if it, ok := w.out[canonical]; ok {
			return it
		}
	}
	return canonical
}

// Command returns a canonical command, or a Legal entry (a pattern, with a "# note"),
// in lang, ready to copy: its verb and keywords in lang's words, the note translated
// when a catalogue has it.
func (b *Bundle) Command(game string, lang Lang, cmd string) string {
	if lang == English {
		return cmd
	}
	body, note, hasNote := strings.Cut(cmd, "#")
	f := strings.Fields(body)
	if len(f) > 0 {
		domain := game
		if w := b.words[game]; w == nil || !w.isVerb(f[0]) {
			domain = ServiceDomain
		}
		w := b.words[domain]
		if w != nil && w.isVerb(f[0]) {
			f[0] = w.out[f[0]]
			for i := 1; i < len(f); i++ {
				if it, ok := w.out[f[i]]; ok && w.isArg(f[i]) {
					f[i] = it
				}
			}
		}
	}
	out := b.placeholders(game, strings.Join(f, " "))
	if hasNote {
		out += " # " + b.Note(game, lang, strings.TrimSpace(note))
	}
	return out
}

// placeholder matches a pattern's placeholder: <region>, <cancelled card>.
var placeholder = regexp.MustCompile(`<([a-zA-Z][a-zA-Z _-]*)>`)

// placeholders puts the placeholders of a pattern in Italian words, those of game's
// domain or the service's ("<region>=<tokens>" → "<regione>=<segnalini>").
func (b *Bundle) placeholders(game, cmd string) string {
	return placeholder.ReplaceAllStringFunc(cmd, func(m string) string {
		word := m[1 : len(m)-1]
		for _, d := range []string{game, ServiceDomain} {
			if w := b.words[d]; w != nil {
				if it, ok := w.holes[word]; ok {
					return "<" + it + ">"
				}
			}
		}
		return m
	})
}

// Note translates a Legal entry's note when a catalogue has it word for word.
func (b *Bundle) Note(game string, lang Lang, note string) string {
	for _, d := range []string{game, ServiceDomain} {
		if b.Has(lang, d, note) {
			return b.Sprintf(lang, note)
		}
	}
	return note
}

// Verbs lists the canonical verbs that domain has Italian words for, sorted.
func (b *Bundle) Verbs(domain string) []string {
	w := b.words[domain]
	if w == nil {
		return nil
	}
	var out []string
	for _, c := range w.verbs {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

func (w *gameWords) isVerb(canon string) bool {
	for _, c := range w.verbs {
		if c == canon {
			return true
		}
	}
	return false
}

func (w *gameWords) isArg(canon string) bool {
	for _, c := range w.args {
		if c == canon {
			return true
		}
	}
	return false
}

// Words lists domain's canonical verbs with their Italian words, sorted by verb, for
// documentation.
func (b *Bundle) Words(domain string) [][2]string {
	w := b.words[domain]
	if w == nil {
		return nil
	}
	var out [][2]string
	for canon, it := range w.out {
		out = append(out, [2]string{canon, it})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
