package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readPNG decodes a PNG file and returns its width.
func readPNG(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return cfg.Width
}

// TestReplay_png: replay --png writes the board's picture after the last event or
// after event N, and nothing else.
func TestReplay_png(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{}, {"--at", "12"}} {
		file := filepath.Join(dir, "board"+strings.Join(args, "")+".png")
		out, err := run(t, "", append([]string{"replay", game5p, "--png", file}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		if out != "" {
			t.Errorf("replay --png printed %q", out)
		}
		if w := readPNG(t, file); w != 1200 {
			t.Errorf("picture %d pixels wide, want 1200 (600 CSS pixels at 2x)", w)
		}
	}
	if _, err := run(t, "", "replay", game5p, "--png", filepath.Join(dir, "no", "such", "dir.png")); err == nil {
		t.Error("replay --png into a missing folder: no error")
	}
}

// TestShow_png: show --png draws a started game as observers or as --player sees it;
// it refuses an unknown player.
func TestShow_png(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	out, err := run(t, "", "new", "smallworld", "--database", db, "--player", "ann=ann@example.org", "--player", "ben=ben@example.org", "--seed", "9")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(out, "created game "))[0], ";")
	for _, args := range [][]string{{}, {"--player", "ann"}} {
		file := filepath.Join(dir, "show"+strings.Join(args, "")+".png")
		if _, err := run(t, "", append([]string{"show", id, "--database", db, "--png", file}, args...)...); err != nil {
			t.Fatal(err)
		}
		readPNG(t, file)
	}
	if _, err := run(t, "", "show", id, "--database", db, "--png", filepath.Join(dir, "x.png"), "--player", "zed"); err == nil || !strings.Contains(err.Error(), "zed") {
		t.Errorf("show --player zed: %v, want an error naming zed", err)
	}
}

// TestReplay_html: replay --html writes the whole game as one self-contained page,
// as observers or --player sees it, in English or Italian, every move told in the
// game's sentences (no command as sent); it refuses an unknown
// player, an unknown language and --at beside --html.
func TestReplay_html(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{`<html lang="en">`, "The public view", `id="s0"`, "Move 159 of 159", ") conquered region "}},
		{[]string{"--player", "ALICE", "--lang", "it"}, []string{`<html lang="it">`, "La partita come l&#39;ha vista alice", "Mossa 159 di 159", ") ha conquistato la regione "}},
	} {
		file := filepath.Join(dir, "game"+strings.Join(tc.args, "")+".html")
		out, err := run(t, "", append([]string{"replay", game5p, "--html", file}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "159 moves") {
			t.Errorf("replay --html printed %q", out)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%v: the file lacks %q", tc.args, w)
			}
		}
		if raw := regexp.MustCompile(`\b(alice|bob|carol|dave|erin): (conquer|conquista) `).FindString(string(b)); raw != "" {
			t.Errorf("%v: the file shows a command as sent: %q", tc.args, raw)
		}
		if strings.Contains(string(b), "https://") || strings.Contains(string(b), " src=") {
			t.Errorf("%v: the file refers outside itself", tc.args)
		}
	}
	for _, args := range [][]string{{"--player", "zed"}, {"--lang", "fr"}, {"--at", "3"}} {
		if _, err := run(t, "", append([]string{"replay", game5p, "--html", filepath.Join(dir, "x.html")}, args...)...); err == nil {
			t.Errorf("replay --html %v: no error", args)
		}
	}
}
