package service

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // deadlines in named time zones work without system zoneinfo

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
)

// Settings are the service's settings of one game, beside the engine's options:
// deadlines, reminders, what happens when a deadline passes, absences, the mailing
// list and the number of seats. They are stored as JSON on the game.
type Settings struct {
	// Deadline is "24h" (any duration; "2d" counts days), "weekdays 20:00 Europe/Rome",
	// "daily 20:00 UTC", or "none". Empty means DefaultDeadline.
	Deadline string `json:"deadline,omitempty"`
	// Remind lists how long before the deadline the player who must act is reminded
	// ("12h", "1h"); nil means DefaultRemind, ["none"] none.
	Remind []string `json:"remind,omitempty"`
	// Expiry is what happens when a deadline passes: ExpirySkip, ExpiryPause or
	// ExpiryReplace. Empty means ExpirySkip.
	Expiry string `json:"expiry,omitempty"`
	// VacationDays caps the days of vacation per player (0 means DefaultVacationDays).
	VacationDays int `json:"vacation_days,omitempty"`
	// MaxPlayers caps the seats of a game opened in the lobby (0: no cap but the
	// engine's).
	MaxPlayers int `json:"players,omitempty"`
	// List is the mailing-list address of a list game.
	List string `json:"list,omitempty"`
	// Private: the game is not listed by games, takes players only by invitation,
	// and observers only with the host's approval.
	Private bool `json:"private,omitempty"`
	// StartedAt is when the game began (the first deadline counts from it).
	StartedAt *time.Time `json:"started_at,omitempty"`
	// TZ is the IANA time zone the game's times are shown in ("" for the zone of a
	// daily or weekday deadline, else UTC).
	TZ string `json:"tz,omitempty"`
	// Lang is the language of the game's mails (lang=it); a player may choose their
	// own. Empty means the service's default.
	Lang i18n.Lang `json:"lang,omitempty"`
	// Response is how long a player asked to respond out of turn has
	// (engine.Responder): a duration ("4h"), or "none" for the turn's deadline.
	// Empty means DefaultResponse.
	Response string `json:"response,omitempty"`
	// Prefs are the players' own settings, from the log (see withPref).
	Prefs map[string]Prefs `json:"-"`
}

// Defaults of Settings.
const (
	DefaultDeadline     = "24h"
	DefaultResponse     = "2h"
	DefaultVacationDays = 14
	ExpirySkip          = "skip"
	ExpiryPause         = "pause"
	ExpiryReplace       = "replace"
)

// DefaultRemind are the default reminders before a deadline.
var DefaultRemind = []string{"12h", "1h"}

// settingKeys are the option names that are service settings, not engine options.
var settingKeys = map[string]bool{"deadline": true, "remind": true, "expiry": true, "vacation": true, "players": true, "list": true, "private": true, "tz": true, "lang": true, "response": true}

// IsSetting reports whether an option key of a `new` command is a service setting
// (deadline, lang, list …), not an engine option.
func IsSetting(key string) bool { return settingKeys[strings.ToLower(strings.TrimSpace(key))] }

// SplitOptions parses "key=value …" words of a `new` command: a word without "="
// continues the previous value (so "deadline=weekdays 20:00 Europe/Rome" is one
// option). It returns the service settings and the engine options.
func SplitOptions(words []string) (Settings, map[string]json.RawMessage, error) {
	var st Settings
	opts, err := optionWords(words)
	if err != nil {
		return st, nil, err
	}
	engineOpts := map[string]json.RawMessage{}
	for _, o := range opts {
		if !settingKeys[o.k] {
			engineOpts[o.k] = optionJSON(o.v)
			continue
		}
		if err := st.set(o.k, o.v); err != nil {
			return st, nil, err
		}
	}
	return st, engineOpts, nil
}

// option is one option=value of a command.
type option struct{ k, v string }

// optionWords reads "key=value …" words; a word without "=" continues the previous
// value. Keys are lowercased, values trimmed.
func optionWords(words []string) ([]option, error) {
	var opts []option
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			if len(opts) == 0 {
				return nil, failf("%q is not an option=value", w)
			}
			opts[len(opts)-1].v += " " + w
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if k == "" {
			return nil, failf("%q has no option name", w)
		}
		opts = append(opts, option{k, v})
	}
	for i := range opts {
		opts[i].v = strings.TrimSpace(opts[i].v)
	}
	return opts, nil
}

// changeableKeys are the settings the host may change after a game was created (set).
var changeableKeys = []string{"deadline", "remind", "expiry", "vacation", "tz", "response", "lang"}

// change applies "key=value …" words of a set command to a copy of st. Only
// changeableKeys may change: the engine's options, the seats and the mailing list
// are part of the game's setup. It returns the new settings and the change in its
// canonical form ("deadline=48h remind=6h"), as the game's log records it.
func (st Settings) change(words []string) (Settings, string, error) {
	opts, err := optionWords(words)
	if err != nil {
		return st, "", err
	}
	if len(opts) == 0 {
		return st, "", failf("no setting to change")
	}
	var canon []string
	for _, o := range opts {
		if !slices.Contains(changeableKeys, o.k) {
			return st, "", failf("%s= cannot change once the game is created; set changes %s", o.k, strings.Join(withEquals(changeableKeys), ", "))
		}
		if err := st.set(o.k, o.v); err != nil {
			return st, "", err
		}
		canon = append(canon, o.k+"="+st.value(o.k))
	}
	return st, strings.Join(canon, " "), nil
}

// withChanges returns st with the changes recorded in the log (admin events
// adminSet "key=value …", and the players' own settings) applied in order.
func (st Settings) withChanges(events []store.Event) Settings {
	for _, e := range events {
		if next, ok := st.withPref(e); ok {
			st = next
			continue
		}
		if words, ok := settingChange(e); ok {
			if next, _, err := st.change(words); err == nil {
				st = next // validated when recorded; an invalid one changes nothing
			}
		}
	}
	return st
}

// settingChange returns the option words of a recorded set command.
func settingChange(e store.Event) ([]string, bool) {
	a, ok := adminOf(e)
	if !ok || a.Act != adminSet {
		return nil, false
	}
	return strings.Fields(a.Value), true
}

// value is the canonical text of one setting, as set accepts it.
func (st Settings) value(k string) string {
	switch k {
	case "deadline":
		return st.Deadline
	case "remind":
		return strings.Join(st.Remind, ",")
	case "expiry":
		return st.expiry()
	case "vacation":
		return strconv.Itoa(st.vacationDays())
	case "tz":
		return st.TZ
	case "response":
		return st.response().setting
	case "lang":
		return string(st.Lang)
	}
	return ""
}

func withEquals(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "="
	}
	return out
}

// optionJSON encodes an option value: a number or a boolean as such, else a string.
func optionJSON(v string) json.RawMessage {
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return json.RawMessage(v)
	}
	if v == "true" || v == "false" {
		return json.RawMessage(v)
	}
	b, _ := json.Marshal(v)
	return b
}

// set validates and sets one setting.
func (st *Settings) set(k, v string) error {
	switch k {
	case "deadline":
		spec, err := parseDeadline(v)
		if err != nil {
			return err
		}
		st.Deadline = spec.setting
	case "response":
		spec, err := parseResponse(v)
		if err != nil {
			return err
		}
		st.Response = spec.setting
	case "remind":
		st.Remind = nil
		for _, r := range strings.Split(v, ",") {
			r = strings.TrimSpace(r)
			if r == "none" || r == "" {
				st.Remind = []string{"none"}
				break
			}
			if _, err := parseDuration(r); err != nil {
				return failf("remind=%s: give durations before the deadline, e.g. remind=12h,1h, or remind=none", v)
			}
			st.Remind = append(st.Remind, r)
		}
	case "expiry":
		switch v {
		case ExpirySkip, ExpiryPause, ExpiryReplace:
			st.Expiry = v
		default:
			return failf("expiry=%s: use expiry=skip, expiry=pause or expiry=replace", v)
		}
	case "vacation":
		n, err := strconv.Atoi(strings.TrimSuffix(v, "d"))
		if err != nil || n < 0 || n > 365 {
			return failf("vacation=%s: give the most days of vacation per player, e.g. vacation=14", v)
		}
		st.VacationDays = n
		if n == 0 {
			st.VacationDays = -1 // explicitly none
		}
	case "lang":
		lang, ok := i18n.ParseLang(v)
		if !ok {
			return failf("lang=%s: use lang=it or lang=en", v)
		}
		st.Lang = lang
	case "tz":
		loc, err := zoneNamed(v)
		if err != nil {
			return failf("tz=%s: write a time zone like tz=Europe/Rome or tz=UTC", boundText(v, 64))
		}
		st.TZ = loc.String()
	case "players":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 20 {
			return failf("players=%s: give the number of seats, e.g. players=3", v)
		}
		st.MaxPlayers = n
	case "private":
		switch strings.ToLower(v) {
		case "true", "yes":
			st.Private = true
		case "false", "no":
			st.Private = false
		default:
			return failf("private=%s: use private=true or private=false", v)
		}
	case "list":
		addr, err := recipient(v)
		if err != nil {
			return failf("list=%s", textOf(err))
		}
		st.List = addr
	}
	return nil
}

// settingsOf decodes a game's settings; a game without any has the defaults.
func settingsOf(raw json.RawMessage) Settings {
	var st Settings
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &st) // written by this package
	}
	return st
}

func (st Settings) deadline() deadlineSpec {
	d := st.Deadline
	if d == "" {
		d = DefaultDeadline
	}
	spec, err := parseDeadline(d)
	if err != nil {
		return deadlineSpec{} // validated when set; an old value now invalid means none
	}
	return spec
}

func (st Settings) expiry() string {
	if st.Expiry == "" {
		return ExpirySkip
	}
	return st.Expiry
}

func (st Settings) vacationDays() int {
	switch {
	case st.VacationDays < 0:
		return 0
	case st.VacationDays == 0:
		return DefaultVacationDays
	}
	return st.VacationDays
}

// reminders returns the reminder offsets, longest first.
func (st Settings) reminders() []time.Duration {
	rs := st.Remind
	if rs == nil {
		rs = DefaultRemind
	}
	var out []time.Duration
	for _, r := range rs {
		if d, err := parseDuration(r); err == nil && d > 0 {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] > out[j] })
	return out
}

// Describe lists the settings in words, one per line, for mails (in the reader's
// language) and the host view.
func (st Settings) Describe(tr *i18n.Bundle, lang i18n.Lang) []string {
	t := func(format string, args ...any) string { return tr.Sprintf(lang, format, args...) }
	dl := st.deadline()
	if dl.none() {
		return []string{t("deadline: none"), t("no deadline, so no reminders")}
	}
	out := []string{t("deadline: %s", dl.describe(tr, lang))}
	var rs []string
	for _, r := range st.reminders() {
		rs = append(rs, durationIn(tr, lang, r))
	}
	if len(rs) == 0 {
		out = append(out, t("reminders: none"))
	} else {
		out = append(out, t("reminders: %s before the deadline", strings.Join(rs, ", ")))
	}
	switch st.expiry() {
	case ExpiryPause:
		out = append(out, t("when a deadline passes: pause"))
	case ExpiryReplace:
		out = append(out, t("when a deadline passes: replace"))
	default:
		out = append(out, t("when a deadline passes: skip"))
	}
	out = append(out, t("vacation: up to %d days per player", st.vacationDays()))
	if st.MaxPlayers > 0 {
		out = append(out, t("seats: %d", st.MaxPlayers))
	}
	if st.List != "" {
		out = append(out, t("mailing list: %s", st.List))
	}
	if st.TZ != "" {
		out = append(out, t("times shown in: %s", st.TZ))
	}
	switch st.Lang {
	case i18n.English:
		out = append(out, t("language: English"))
	case i18n.Italian:
		out = append(out, t("language: Italian"))
	}
	if st.Private {
		out = append(out, t("private: by invitation only"))
	}
	return out
}

// durationIn writes a duration for a reader of lang: in English as the settings are
// typed ("2d", "12h", "1h30m"), in Italian in words ("2 giorni", "1 ora e 30 minuti").
func durationIn(tr *i18n.Bundle, lang i18n.Lang, d time.Duration) string {
	if lang.Or(i18n.English) == i18n.English {
		return fmtDuration(d)
	}
	t := func(format string, args ...any) string { return tr.Sprintf(lang, format, args...) }
	if d >= 24*time.Hour && d%(24*time.Hour) == 0 {
		return t("%d days", int(d/(24*time.Hour)))
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h > 0 && m > 0:
		return t("%s and %s", t("%d hours", h), t("%d minutes", m))
	case h > 0:
		return t("%d hours", h)
	}
	return t("%d minutes", m)
}

// deadlineSpec is a parsed deadline setting.
type deadlineSpec struct {
	every    time.Duration // a fixed time after the turn began
	at       int           // minutes after midnight, for daily/weekdays
	loc      *time.Location
	weekdays bool
	daily    bool
	// setting is the canonical text of the setting ("48h", "weekdays 20:00 Europe/Rome").
	setting string
}

func (d deadlineSpec) none() bool { return d.every == 0 && !d.daily && !d.weekdays }

// describe says when the deadline falls, for a reader of lang.
func (d deadlineSpec) describe(tr *i18n.Bundle, lang i18n.Lang) string {
	t := func(format string, args ...any) string { return tr.Sprintf(lang, format, args...) }
	least := durationIn(tr, lang, minDaily)
	switch {
	case d.weekdays:
		return t("weekdays %02d:%02d %s (at least %s after the turn begins)", d.at/60, d.at%60, d.loc.String(), least)
	case d.daily:
		return t("daily %02d:%02d %s (at least %s after the turn begins)", d.at/60, d.at%60, d.loc.String(), least)
	}
	return t("%s after the turn begins", durationIn(tr, lang, d.every))
}

// minDaily is the least time a daily or weekdays deadline leaves a player.
const minDaily = 12 * time.Hour

// after returns the deadline of a turn that began at start.
func (d deadlineSpec) after(start time.Time) time.Time {
	if d.every > 0 {
		return start.Add(d.every)
	}
	local := start.In(d.loc)
	for day := 0; day < 14; day++ {
		t := time.Date(local.Year(), local.Month(), local.Day()+day, d.at/60, d.at%60, 0, 0, d.loc)
		if t.Sub(start) < minDaily {
			continue
		}
		if d.weekdays && (t.Weekday() == time.Saturday || t.Weekday() == time.Sunday) {
			continue
		}
		return t.UTC()
	}
	return start.Add(7 * 24 * time.Hour) // unreachable: a week always has a weekday
}

// parseDeadline reads "48h", "2d", "none", "weekdays 20:00 Europe/Rome", "daily 20:00".
func parseDeadline(v string) (deadlineSpec, error) {
	f := strings.Fields(strings.TrimSpace(v))
	bad := failf("deadline=%s: use a duration (deadline=48h, deadline=2d), deadline=weekdays 20:00 Europe/Rome, deadline=daily 20:00 UTC or deadline=none", v)
	switch {
	case len(f) == 1 && (f[0] == "none" || f[0] == "off"):
		return deadlineSpec{setting: "none"}, nil
	case len(f) == 1:
		d, err := parseDuration(f[0])
		if err != nil || d < time.Minute {
			return deadlineSpec{}, bad
		}
		return deadlineSpec{every: d, setting: f[0]}, nil
	case len(f) == 2 || len(f) == 3:
		spec := deadlineSpec{loc: time.UTC}
		switch strings.ToLower(f[0]) {
		case "weekdays":
			spec.weekdays = true
		case "daily":
			spec.daily = true
		default:
			return deadlineSpec{}, bad
		}
		var h, m int
		if _, err := fmt.Sscanf(f[1], "%d:%d", &h, &m); err != nil || h < 0 || h > 23 || m < 0 || m > 59 {
			return deadlineSpec{}, bad
		}
		spec.at = h*60 + m
		if len(f) == 3 {
			loc, err := loadZone(f[2])
			if err != nil {
				return deadlineSpec{}, failf("deadline=%s: unknown time zone %q (use a name like Europe/Rome)", v, f[2])
			}
			spec.loc = loc
		}
		spec.setting = fmt.Sprintf("%s %02d:%02d", strings.ToLower(f[0]), h, m)
		if len(f) == 3 {
			spec.setting += " " + spec.loc.String()
		}
		return spec, nil
	}
	return deadlineSpec{}, bad
}

// loadZone loads a time zone by name, whatever its case: commands reach the service
// lowercased ("europe/rome" is Europe/Rome, "america/new_york" America/New_York).
func loadZone(name string) (*time.Location, error) {
	loc, err := time.LoadLocation(name)
	if err == nil {
		return loc, nil
	}
	for _, try := range []string{strings.ToUpper(name), zoneCase(name)} {
		if l, e := time.LoadLocation(try); e == nil {
			return l, nil
		}
	}
	return nil, err
}

// zoneCase capitalises the first letter of each part of a zone name.
func zoneCase(name string) string {
	b := []byte(strings.ToLower(name))
	for i := range b {
		if i == 0 || strings.IndexByte("/_-", b[i-1]) >= 0 {
			if b[i] >= 'a' && b[i] <= 'z' {
				b[i] -= 'a' - 'A'
			}
		}
	}
	return string(b)
}

// parseDuration reads a Go duration or a number of days ("2d").
func parseDuration(v string) (time.Duration, error) {
	if strings.HasSuffix(v, "d") {
		n, err := strconv.Atoi(strings.TrimSuffix(v, "d"))
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%q is not a number of days", v)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration like 12h or 90m", v)
	}
	return d, nil
}

// fmtDuration writes 36h as "36h", 90m as "1h30m", 48h as "2d".
func fmtDuration(d time.Duration) string {
	if d >= 24*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	s := strings.TrimSuffix(d.String(), "0s") // "1h30m", "2h0m", "45m"
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	if s == "" {
		return "0"
	}
	return s
}

// failf returns an error its reader can act on (a setting, a time zone or an address
// that cannot be used), as an engine.RuleError: its English format is a key of the
// service catalogue, so that Service.reasonIn shows it in the reader's language.
func failf(format string, args ...any) error { return engine.Illegal(format, args...) }

// textOf is an error as a text to render in a reader's language: a rule error's text
// (see failf), else the error's words as they are.
func textOf(err error) engine.Text {
	var re *engine.RuleError
	if errors.As(err, &re) && re.Text.Key != "" {
		return re.Text
	}
	return engine.Textf("%s", err.Error())
}
