package templates

import (
	"time"
)

// dayKeys and monthKeys are the catalogue keys of the names of the days of the
// week (Sunday first, as time.Weekday counts) and of the months, as a date shows
// them: "Sat 28 Nov".
var (
	dayKeys   = [...]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	monthKeys = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// When formats a time for a reader of lang in the time zone loc (UTC when nil), as
// they write a date: "Sat 28 Nov 21:00 CET", "sab 28 nov 21:00 CET"; the names of
// the day and the month from the catalogues. Every time a player reads goes through
// it.
func (s *Set) When(lang string, t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	w := s.words(lang)
	return w.t("%[1]s %[2]d %[3]s %[4]s %[5]s", w.tr.Sprintf(w.lang, dayKeys[t.Weekday()]), t.Day(),
		w.tr.Sprintf(w.lang, monthKeys[t.Month()-1]), t.Format("15:04"), t.Format("MST"))
}
