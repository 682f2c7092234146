package i18n

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// verb matches a format verb: its explicit argument index, if any, and its letter.
var verb = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0-9.]*([a-zA-Z%])`)

// agreeing are words that agree with the number next to them ("ne restano 2"):
// beside a number the entry does not choose its form by, they are wrong for some
// count ("ne restano 1").
var agreeing = regexp.MustCompile(`(?i)\b(?:ne )?(?:resta|restano|rimane|rimangono|rimasto|rimasti|rimasta|rimaste)\s*$`)

// TestPlural_otherNumbersAgreeNot: a plural entry chooses its form by one of its
// numbers (arg); no word of it agrees with another of its numbers, which the form
// does not follow ("1 punto usato, ne restano 1").
func TestPlural_otherNumbersAgreeNot(t *testing.T) {
	checked := 0
	err := fs.WalkDir(files, "catalog", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		raw, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		var entries map[string]json.RawMessage
		if err := json.Unmarshal(raw, &entries); err != nil {
			return err
		}
		for key, r := range entries {
			var e entry
			if json.Unmarshal(r, &e) != nil || e.Arg == 0 {
				continue
			}
			for _, form := range []string{e.One, e.Other} {
				n := 0
				for _, m := range verb.FindAllStringSubmatchIndex(form, -1) {
					if form[m[4]:m[5]] == "%" {
						continue
					}
					n++
					arg := n
					if m[2] >= 0 {
						arg, _ = strconv.Atoi(form[m[2]:m[3]])
						n = arg
					}
					if arg != e.Arg && agreeing.MatchString(form[:m[0]]) {
						t.Errorf("%s: %q: %q agrees with argument %d, but the form follows argument %d", path, key, form, arg, e.Arg)
					}
				}
				checked++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("only %d plural forms checked", checked)
	}
}
