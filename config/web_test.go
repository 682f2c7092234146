package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWeb: the pages are on by default on loopback, also when a configuration file
// does not mention them; "off" or an empty address turns them off; a bad address or
// base URL is refused, naming the key.
func TestWeb(t *testing.T) {
	dir := t.TempDir()
	load := func(yaml string) (*Config, error) {
		file := ""
		if yaml != "" {
			file = filepath.Join(dir, "c.yaml")
			if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return Load(NewViper(), file)
	}
	tests := []struct {
		name, yaml string
		on         bool
		err        string
	}{
		{"no file", "", true, ""},
		{"a file without web", "log_level: debug\n", true, ""},
		{"off", "web:\n  addr: \"off\"\n", false, ""},
		{"empty", "web:\n  addr: \"\"\n", false, ""},
		{"elsewhere", "web:\n  addr: 0.0.0.0:80\n  base_url: https://games.example.org/turnmail/\n", true, ""},
		{"no port", "web:\n  addr: localhost\n", false, `web.addr: "localhost" is not host:port or off`},
		{"base URL without scheme", "web:\n  base_url: games.example.org\n", false, "web.base_url:"},
		{"base URL with a query", "web:\n  base_url: https://games.example.org/?x=1\n", false, "web.base_url:"},
		{"base URL of ftp", "web:\n  base_url: ftp://games.example.org/\n", false, "web.base_url:"},
		{"misspelt", "web:\n  adr: 127.0.0.1:1\n", false, "unknown key web.adr (did you mean web.addr?)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := load(tc.yaml)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.WebEnabled() != tc.on {
				t.Errorf("pages on: %v, want %v", c.WebEnabled(), tc.on)
			}
		})
	}
}

// TestPageBaseURL: the mails link web.base_url (with one trailing slash); without it,
// the embedded mode's pages where they listen, a real mail server's none.
func TestPageBaseURL(t *testing.T) {
	c, err := Load(NewViper(), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.PageBaseURL("127.0.0.1:41234"); got != "http://127.0.0.1:41234/" {
		t.Errorf("embedded: %q", got)
	}
	c.Web.BaseURL = "https://games.example.org/tm//"
	if got := c.PageBaseURL("127.0.0.1:41234"); got != "https://games.example.org/tm/" {
		t.Errorf("with a base URL: %q", got)
	}
	c.Web.BaseURL = ""
	withRealServer(c)
	if got := c.PageBaseURL("127.0.0.1:8025"); got != "" {
		t.Errorf("a real mail server without a base URL: %q", got)
	}
	c.Web.BaseURL, c.Web.Addr = "https://games.example.org/", WebOff
	if got := c.PageBaseURL("127.0.0.1:8025"); got != "" {
		t.Errorf("pages off: %q", got)
	}
}
