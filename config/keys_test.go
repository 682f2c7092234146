package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoad_unknownKeys: a key of the file or a TURNMAIL_* variable that is no
// configuration key fails Load, named with the nearest known key; the test suites'
// variables and every documented key pass.
func TestLoad_unknownKeys(t *testing.T) {
	base := "imap:\n  addr: mail.example.org:993\n  username: u\nsmtp:\n  addr: mail.example.org:587\naddress: games@example.org\n"
	tests := []struct {
		name, file string
		env        map[string]string
		want       []string // each in the error; none: no error
	}{
		{name: "all known", file: base, env: map[string]string{"TURNMAIL_IMAP_PASSWORD": "x", "TURNMAIL_SOAK": "1", "TURNMAIL_REAL_IMAP": "127.0.0.1:1", "TURNMAIL_BROWSER_REQUIRED": "1"}},
		{name: "misspelled top key", file: base + "adress: games@example.org\n", want: []string{"unknown key adress (did you mean address?)"}},
		{name: "misspelled nested key", file: base + "limits:\n  max_mail_byte: 100000\n", want: []string{"unknown key limits.max_mail_byte (did you mean limits.max_mail_bytes?)"}},
		{name: "misspelled in a section", file: strings.Replace(base, "  addr: mail.example.org:993", "  addr: mail.example.org:993\n  adr: mail.example.org:993", 1), want: []string{"unknown key imap.adr (did you mean imap.addr?)"}},
		{name: "far from any key", file: base + "colour: blue\n", want: []string{"unknown key colour (config.example.yaml lists every key)"}},
		{name: "a section as a value", file: base + "embedded: yes\n", want: []string{"embedded is a section"}},
		{name: "unknown variable", file: base, env: map[string]string{"TURNMAIL_IMAP_PASSWROD": "x"}, want: []string{"environment: unknown variable TURNMAIL_IMAP_PASSWROD (did you mean TURNMAIL_IMAP_PASSWORD?)"}},
		{name: "two at once", file: base + "adress: a@example.org\n", env: map[string]string{"TURNMAIL_SMTP_ADR": "x"}, want: []string{"adress (did you mean address?)", "TURNMAIL_SMTP_ADR (did you mean TURNMAIL_SMTP_ADDR?)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, kv := range os.Environ() { // the outer environment (CI sets TURNMAIL_* of its own)
				if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, EnvPrefix) {
					t.Setenv(name, "")
					os.Unsetenv(name)
				}
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			file := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(file, []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(NewViper(), file)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Load accepted it")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestKeys_exampleDocumentsEvery: config.example.yaml names every configuration key.
func TestKeys_exampleDocumentsEvery(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "config.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys() {
		leaf := k[strings.LastIndexByte(k, '.')+1:]
		if !strings.Contains(string(b), leaf+":") {
			t.Errorf("config.example.yaml does not mention %s", k)
		}
	}
}
