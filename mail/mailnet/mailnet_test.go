package mailnet

import (
	"strings"
	"testing"
	"time"
)

func TestCheckSecurity(t *testing.T) {
	tests := []struct {
		security, addr string
		insecure       bool
		wantErr        string
	}{
		{"tls", "mail.example.org:993", false, ""},
		{"starttls", "mail.example.org:587", false, ""},
		{"plain", "127.0.0.1:1143", false, ""},
		{"plain", "localhost:25", false, ""},
		{"plain", "[::1]:25", false, ""},
		{"plain", "mail.example.org:25", false, "needs AllowInsecure"},
		{"plain", "mail.example.org:25", true, ""},
		{"ssl", "mail.example.org:465", false, "unknown security"},
		{"tls", "mail.example.org", false, "server address"},
	}
	for _, tt := range tests {
		err := CheckSecurity(tt.security, tt.addr, tt.insecure)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("CheckSecurity(%q, %q, %v) = %v, want %q", tt.security, tt.addr, tt.insecure, err, tt.wantErr)
		}
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		attempts int
		want     time.Duration
	}{
		{1, 30 * time.Second}, {2, time.Minute}, {3, 2 * time.Minute}, {7, 32 * time.Minute}, {8, time.Hour}, {50, time.Hour},
	}
	for _, tt := range tests {
		if got := Backoff(tt.attempts, 30*time.Second, time.Hour); got != tt.want {
			t.Errorf("Backoff(%d) = %v, want %v", tt.attempts, got, tt.want)
		}
	}
	if got := Backoff(1, 2*time.Hour, time.Hour); got != time.Hour {
		t.Errorf("a base above the cap gives %v", got)
	}
}
