package templates

import (
	"testing"
	"time"
)

func TestWhenIn(t *testing.T) {
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Skip("no zoneinfo:", err)
	}
	at := time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		lang string
		loc  *time.Location
		want string
	}{
		{"it", rome, "mar 24 nov, 21:00"},
		{"it", nil, "mar 24 nov, 20:00"},
		{"it", time.UTC, "mar 24 nov, 20:00"},
		{"en", rome, "Tue 24 Nov 21:00 CET"},
		{"", time.UTC, "Tue 24 Nov 20:00 UTC"},
	} {
		if got := WhenIn(c.lang, at, c.loc); got != c.want {
			t.Errorf("WhenIn(%q, %v) = %q, want %q", c.lang, c.loc, got, c.want)
		}
	}
	if got := WhenIn("it", time.Date(2027, 1, 3, 9, 5, 0, 0, time.UTC), time.UTC); got != "dom 3 gen, 09:05" {
		t.Errorf("a Sunday in January: %q", got)
	}
}
