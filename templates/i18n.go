package templates

import (
	"time"

	"github.com/turnmail/turnmail/i18n"
)

// dayKeys and monthKeys are the catalogue keys of the names of the days of the
// week (Sunday first, as time.Weekday counts) and of the months, as a date shows
// them: "Sat 28 Nov".
var (
	dayKeys   = [...]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	monthKeys = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	// monthNameKeys are the months written out, for a date without a time.
	monthNameKeys = [...]string{"January", "February", "March", "April", "May (written out)", "June", "July", "August", "September", "October", "November", "December"}
)

// When formats a time for a reader of lang in the time zone loc (UTC when nil), as
// they write a date: "Sat 28 Nov 21:00 CET", "sab 28 nov 21:00 CET"; the names of
// the day and the month from the catalogues. Every time a player reads goes through
// it.
func (s *Set) When(lang string, t time.Time, loc *time.Location) string {
	return WhenIn(s.tr, lang, t, loc)
}

// WhenIn is Set.When for code that has the catalogues tr and no Set (the web pages).
func WhenIn(tr *i18n.Bundle, lang string, t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	w := words{tr: tr, lang: i18n.Lang(lang).Or(i18n.English)}
	return w.t("%[1]s %[2]d %[3]s %[4]s %[5]s", w.tr.Sprintf(w.lang, dayKeys[t.Weekday()]), t.Day(),
		w.tr.Sprintf(w.lang, monthKeys[t.Month()-1]), t.Format("15:04"), t.Format("MST"))
}

// DayTime is when t happened for a reader of lang in loc (nil: UTC), as a history
// says it: the day with the zone, as the heading of its events ("Fri 27 November
// (UTC)", "ven 27 novembre (CET)", the year when it is not now's), and the time of
// day ("18:55").
func (s *Set) DayTime(lang string, t time.Time, loc *time.Location, now time.Time) (day, clock string) {
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	return s.Day(lang, t, now.In(loc)) + " (" + t.Format("MST") + ")", t.Format("15:04")
}

// Day is a calendar date (a vacation's first or last day) for a reader of lang, as
// they write it: "Thu 24 December", "gio 24 dicembre"; the year is added when it is
// not the year of now. The names of the day and the month from the catalogues.
func (s *Set) Day(lang string, d, now time.Time) string {
	w := s.words(lang)
	day := w.t("%[1]s %[2]d %[3]s", w.tr.Sprintf(w.lang, dayKeys[d.Weekday()]), d.Day(), w.tr.Sprintf(w.lang, monthNameKeys[d.Month()-1]))
	if d.Year() != now.Year() {
		day += " " + d.Format("2006")
	}
	return day
}
