package e2e

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The bots measure the mails they read (issue 23: a mail carries what changed and
// what the reader needs for the next move). Lengths are counted in lines of the
// plain-text part as a reader sees them in a 78-column client: the received text
// (its soft breaks joined) broken again every 78 characters. docs/mail-length.md
// records the figures.

// textLines is the number of 78-column lines of a plain-text part.
func textLines(body string) int {
	n := 0
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		n += max(1, (utf8.RuneCountInString(l)+77)/78)
	}
	return n
}

// mailLength is what the bots measured of the mails of one game.
type mailLength struct {
	// Mails is the number of mails of the game the bots read, Median and P90 their
	// length in lines, Longest the longest.
	Mails, Median, P90, Longest int
	// Moves is the number of mid-game mails that ask their reader to move, and Before
	// the median of their lines before the first command (the part a reader reads
	// before they can answer).
	Moves, Before int
}

// median returns the median of ns (0 for none), and its 90th percentile.
func median(ns []int) (int, int) {
	if len(ns) == 0 {
		return 0, 0
	}
	s := slices.Sorted(slices.Values(ns))
	return s[len(s)/2], s[len(s)*9/10]
}

// measureMails measures the mails of game the bots read. A mid-game mail is one of
// the middle third of a bot's mails of the game.
func measureMails(bots []*bot, game string) mailLength {
	var all, before []int
	longest := 0
	for _, b := range bots {
		var mails []string
		for _, m := range b.mails {
			if strings.Contains(m.Body, b.reading().footer(game)) {
				mails = append(mails, m.Body)
			}
		}
		for i, body := range mails {
			n := textLines(body)
			all = append(all, n)
			longest = max(longest, n)
			if i < len(mails)/3 || i >= len(mails)*2/3 || len(b.reading().legalEntries(body)) == 0 {
				continue
			}
			if k := firstCommandLine(b.reading(), body); k > 0 {
				before = append(before, textLines(body[:k]))
			}
		}
	}
	var l mailLength
	l.Mails, l.Longest, l.Moves = len(all), longest, len(before)
	l.Median, l.P90 = median(all)
	l.Before, _ = median(before)
	return l
}

// firstCommandLine returns the byte offset of the first command line of a mail that
// lists what its reader may send (0 when it lists none).
func firstCommandLine(r *reading, body string) int {
	at := strings.Index(body, r.yourMove())
	if at < 0 {
		at = strings.Index(body, r.canSend())
	}
	if at < 0 {
		return 0
	}
	for off := at; off < len(body); {
		end := strings.IndexByte(body[off:], '\n')
		if end < 0 {
			return 0
		}
		off += end + 1
		if strings.HasPrefix(body[off:], "    ") {
			return off
		}
	}
	return 0
}

// reportLength logs what the bots measured of a game's mails and, with
// TURNMAIL_E2E_LENGTHS=FILE, appends it to FILE as a row of a Markdown table.
func reportLength(t *testing.T, kind string, options []string, lang string, players int, l mailLength) {
	t.Helper()
	what := strings.TrimSpace(kind + " " + strings.Join(options, " "))
	t.Logf("mail length of %s (%s, %d players): %d mails, median %d lines, 90%% %d, longest %d; mid-game moves: %d, median %d lines before the commands",
		what, lang, players, l.Mails, l.Median, l.P90, l.Longest, l.Moves, l.Before)
	file := os.Getenv("TURNMAIL_E2E_LENGTHS")
	if file == "" {
		return
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "| %s | %s | %d | %d | %d | %d | %d | %d |\n", what, lang, players, l.Mails, l.Median, l.P90, l.Longest, l.Before); err != nil {
		t.Fatal(err)
	}
}
