package service

import (
	"testing"
	"time"
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

func TestBounceInfo(t *testing.T) {
	tests := []struct {
		raw, want, reason string
	}{
		{"Final-Recipient: rfc822; Bob@Example.org\nAction: failed\nStatus: 5.1.1\n", "bob@example.org", "5.1.1"},
		{"Final-Recipient: rfc822; bob@example.org\nAction: delayed\nStatus: 4.4.1\n", "", ""},
		{"Original-Recipient: rfc822;<a@x.org>\nAction: failed\nDiagnostic-Code: smtp; 550 no\n", "a@x.org", "smtp; 550 no"},
	}
	for _, tt := range tests {
		addrs, reason := bounceInfo([]byte(tt.raw))
		got := ""
		if len(addrs) > 0 {
			got = addrs[0]
		}
		if got != tt.want || reason != tt.reason {
			t.Errorf("%q: %q %q, want %q %q", tt.raw, got, reason, tt.want, tt.reason)
		}
	}
}
