package templates

import (
	"time"
)

// Italian day and month abbreviations, as Italian calendars print them.
var (
	itDays   = [...]string{"dom", "lun", "mar", "mer", "gio", "ven", "sab"}
	itMonths = [...]string{"gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"}
)

// WhenIn is When for a reader of lang ("it" or "en"): Italian readers get
// "mar 24 nov, 21:00" in the time zone loc.
func WhenIn(lang string, t time.Time, loc *time.Location) string {
	if lang != "it" {
		return When(t, loc)
	}
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	return itDays[t.Weekday()] + " " + t.Format("2") + " " + itMonths[t.Month()-1] + ", " + t.Format("15:04")
}

// itMonthNames are the Italian months written out, for dates without a time.
var itMonthNames = [...]string{"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"}

// DayIn is a calendar date (a vacation's first or last day) for a reader of lang:
// "Thu 24 December", Italian "gio 24 dicembre"; the year is added when it is not
// the year of now.
func DayIn(lang string, d, now time.Time) string {
	year := ""
	if d.Year() != now.Year() {
		year = " " + d.Format("2006")
	}
	if lang != "it" {
		return d.Format("Mon 2 January") + year
	}
	return itDays[d.Weekday()] + " " + d.Format("2") + " " + itMonthNames[d.Month()-1] + year
}
