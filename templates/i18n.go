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
