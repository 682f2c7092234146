package templates

import (
	"testing"
	"time"
)

// TestWhen: a time reads as its reader writes a date, in their time zone.
func TestWhen(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Skip("no zoneinfo:", err)
	}
	at := time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		lang string
		at   time.Time
		loc  *time.Location
		want string
	}{
		{"it", at, rome, "mar 24 nov 21:00 CET"},
		{"it", at, nil, "mar 24 nov 20:00 UTC"},
		{"en", at, rome, "Tue 24 Nov 21:00 CET"},
		{"", at, time.UTC, "Tue 24 Nov 20:00 UTC"},
		{"it", time.Date(2027, 1, 3, 9, 5, 0, 0, time.UTC), time.UTC, "dom 3 gen 09:05 UTC"},
		{"it", time.Date(2027, 3, 2, 9, 5, 0, 0, time.UTC), rome, "mar 2 mar 10:05 CET"},
		{"it", time.Date(2027, 5, 15, 9, 5, 0, 0, time.UTC), rome, "sab 15 mag 11:05 CEST"},
		{"en", time.Date(2027, 5, 15, 9, 5, 0, 0, time.UTC), rome, "Sat 15 May 11:05 CEST"},
	} {
		if got := set.When(c.lang, c.at, c.loc); got != c.want {
			t.Errorf("When(%q, %v, %v) = %q, want %q", c.lang, c.at, c.loc, got, c.want)
		}
	}
}
