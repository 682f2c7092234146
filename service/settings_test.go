package service

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/store"
)

func TestDeadlineAfter(t *testing.T) {
	mon9 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC) // Monday
	fri21 := time.Date(2026, 11, 27, 21, 0, 0, 0, time.UTC)
	tests := []struct {
		spec  string
		start time.Time
		want  time.Time
	}{
		{"24h", mon9, mon9.Add(24 * time.Hour)},
		{"2d", mon9, mon9.Add(48 * time.Hour)},
		{"90m", mon9, mon9.Add(90 * time.Minute)},
		// 20:00 Rome is 19:00 UTC in November; Monday 19:00 is only 10h away.
		{"weekdays 20:00 Europe/Rome", mon9, time.Date(2026, 11, 24, 19, 0, 0, 0, time.UTC)},
		// Friday evening: the weekend is skipped.
		{"weekdays 20:00 Europe/Rome", fri21, time.Date(2026, 11, 30, 19, 0, 0, 0, time.UTC)},
		{"daily 20:00 UTC", fri21, time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		spec, err := parseDeadline(tt.spec)
		if err != nil {
			t.Fatalf("%s: %v", tt.spec, err)
		}
		if got := spec.after(tt.start); !got.Equal(tt.want) {
			t.Errorf("%s after %v = %v, want %v", tt.spec, tt.start, got, tt.want)
		}
	}
}

func TestSplitOptions(t *testing.T) {
	tests := []struct {
		words   []string
		wantErr bool
		check   func(Settings, map[string]string) bool
	}{
		{[]string{"deadline=weekdays", "20:00", "Europe/Rome", "map=smallworld-3p"}, false, func(s Settings, o map[string]string) bool {
			return s.Deadline == "weekdays 20:00 Europe/Rome" && o["map"] == `"smallworld-3p"`
		}},
		{[]string{"target=10", "turns=true", "expiry=pause", "remind=6h,30m", "players=3"}, false, func(s Settings, o map[string]string) bool {
			return o["target"] == "10" && o["turns"] == "true" && s.Expiry == "pause" && len(s.Remind) == 2 && s.MaxPlayers == 3
		}},
		{[]string{"list=Club@Example.org", "vacation=7"}, false, func(s Settings, _ map[string]string) bool {
			return s.List == "club@example.org" && s.vacationDays() == 7
		}},
		{[]string{"deadline=sometimes"}, true, nil},
		{[]string{"expiry=explode"}, true, nil},
		{[]string{"remind=soon"}, true, nil},
		{[]string{"list=not an address"}, true, nil},
		{[]string{"loose"}, true, nil},
		{[]string{"deadline=weekdays", "20:00", "Mars/Olympus"}, true, nil},
	}
	for _, tt := range tests {
		s, o, err := SplitOptions(tt.words)
		if (err != nil) != tt.wantErr {
			t.Errorf("%v: err %v", tt.words, err)
			continue
		}
		if err != nil {
			continue
		}
		m := map[string]string{}
		for k, v := range o {
			m[k] = string(v)
		}
		if !tt.check(s, m) {
			t.Errorf("%v: settings %+v, options %v", tt.words, s, m)
		}
	}
}

// TestSettingsChange: what set accepts, its canonical form (as the log records it),
// and what it refuses.
func TestSettingsChange(t *testing.T) {
	base := Settings{Deadline: "24h", Expiry: ExpirySkip, MaxPlayers: 3}
	tests := []struct {
		words     string
		wantCanon string
		wantErr   string
		check     func(Settings) bool
	}{
		{"deadline=48h", "deadline=48h", "", func(s Settings) bool { return s.Deadline == "48h" && s.MaxPlayers == 3 }},
		{"deadline=weekdays 20:00 europe/rome expiry=pause", "deadline=weekdays 20:00 Europe/Rome expiry=pause", "",
			func(s Settings) bool { return s.Deadline == "weekdays 20:00 Europe/Rome" && s.expiry() == ExpiryPause }},
		{"remind=6h,30m vacation=0", "remind=6h,30m vacation=0", "", func(s Settings) bool {
			return len(s.reminders()) == 2 && s.vacationDays() == 0
		}},
		{"deadline=daily 7:05 america/new_york", "deadline=daily 07:05 America/New_York", "", nil},
		{"remind=none", "remind=none", "", func(s Settings) bool { return len(s.reminders()) == 0 }},
		{"players=4", "", "players= cannot change once the game is created; set changes deadline=, remind=, expiry=, vacation=", nil},
		{"map=smallworld-3p", "", "map= cannot change", nil},
		{"list=club@example.org", "", "list= cannot change", nil},
		{"deadline=soon", "", "deadline=soon: use a duration", nil},
		{"expiry=explode", "", "expiry=explode: use expiry=skip", nil},
		{"48h", "", `"48h" is not an option=value`, nil},
		{"", "", "no setting to change", nil},
	}
	for _, tt := range tests {
		t.Run(tt.words, func(t *testing.T) {
			got, canon, err := base.change(strings.Fields(tt.words))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if canon != tt.wantCanon {
				t.Errorf("canonical %q, want %q", canon, tt.wantCanon)
			}
			if tt.check != nil && !tt.check(got) {
				t.Errorf("settings %+v", got)
			}
			// The canonical form reads back to the same settings.
			again, canon2, err := base.change(strings.Fields(canon))
			if err != nil || canon2 != canon || !reflect.DeepEqual(again, got) {
				t.Errorf("canonical form %q reads back as %+v %q %v", canon, again, canon2, err)
			}
		})
	}
}

// TestSettingsWithChanges: the settings of a game are the stored ones changed by the
// set events of its log, in order; other events change nothing.
func TestSettingsWithChanges(t *testing.T) {
	events := []store.Event{
		{Kind: engine.KindAdmin, Command: "set deadline=48h expiry=pause"},
		{Kind: engine.KindMove, Command: "set deadline=1h"}, // a move, not a setting
		{Kind: engine.KindAdmin, Command: "pause"},
		{Kind: engine.KindAdmin, Command: "set deadline=2d remind=none"},
	}
	got := Settings{Deadline: "24h", VacationDays: 5}.withChanges(events)
	want := Settings{Deadline: "2d", Expiry: ExpiryPause, Remind: []string{"none"}, VacationDays: 5}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("settings %+v, want %+v", got, want)
	}
}
