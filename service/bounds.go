package service

import (
	"errors"
	"fmt"
	"strings"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/templates"
)

// The bounds on the work one mail causes. A mail is read up to MaxCommandLines
// command lines; service commands that only inform (status, legal, history, help,
// games, rules) are answered once per mail; the answers to one mail go to its
// sender in one mail; and no mail turnmail sends is larger than MaxMailBytes.
const (
	// DefaultMaxCommandLines is Options.MaxCommandLines when not set.
	DefaultMaxCommandLines = 100
	// DefaultMaxMailBytes is Options.MaxMailBytes when not set: well under the 10 MB
	// or more that SMTP servers commonly accept.
	DefaultMaxMailBytes = 512 << 10
	// maxLineBytes is the longest command line read; no command is that long, and
	// the answer echoes the line.
	maxLineBytes = 1000
	// echoBytes is how much of a line too long is echoed in the answer.
	echoBytes = 80
	// stateMoves is how many of the events since a player's last mail, and of the
	// lines applied from their mail, a state mail lists (the latest); the rest of
	// the events are a history command away.
	stateMoves = 50
	// maxHistory is the most events a history answer lists.
	maxHistory = 500
)

// ErrMailTooLarge is returned (wrapped) when a mail cannot be made to fit
// Options.MaxMailBytes.
var ErrMailTooLarge = errors.New("mail larger than the outgoing size limit")

// readLines returns the command lines that are read, at most limit, and the note
// saying where reading stopped (nil when every line is read).
func readLines(lines []parse.Line, limit int) ([]parse.Line, *templates.Notice) {
	if len(lines) <= limit {
		return lines, nil
	}
	lines = lines[:limit]
	return lines, &templates.Notice{Kind: "unread", Count: lines[len(lines)-1].N, Limit: limit}
}

// lineTooLong says why a command line is not read ("" when it is short enough).
func lineTooLong(text string) string {
	if len(text) <= maxLineBytes {
		return ""
	}
	return fmt.Sprintf("This line is longer than %d characters; no command is that long.", maxLineBytes)
}

// maxWordBytes bounds a single word an answer repeats (the first word of a mail that
// is no command).
const maxWordBytes = 40

// echo is a command line as an answer repeats it: cut to echoBytes when too long.
func echo(text string) string {
	if len(text) <= maxLineBytes {
		return text
	}
	return cut(text, echoBytes)
}

// lastOf keeps the last stateMoves of a state mail's list (events, applied lines)
// and says how many it left out.
func lastOf[T any](list []T) ([]T, int) {
	if len(list) <= stateMoves {
		return list, 0
	}
	return list[len(list)-stateMoves:], len(list) - stateMoves
}

// build composes m within Options.MaxMailBytes. A mail that would be larger (state
// and history mails are cut before they get there; this is the safety net) loses
// its HTML part and the end of its text, which then says so (template "cut") in
// the reader's language lang.
func (s *Service) build(m compose.Mail, lang i18n.Lang) ([]byte, error) {
	raw, err := compose.Build(m)
	if err != nil || int64(len(raw)) <= s.opts.MaxMailBytes {
		return raw, err
	}
	note, err := s.tmpl.Text("cut", templates.Cut{KB: s.opts.MaxMailBytes / 1024, Lang: string(lang)})
	if err != nil {
		return nil, err
	}
	text := m.Text
	m.HTML = ""
	for budget := int(s.opts.MaxMailBytes) / 2; budget >= 1024; budget /= 2 {
		keep := text
		if len(keep) > budget {
			keep = keep[:strings.LastIndexByte(keep[:budget], '\n')+1]
		}
		m.Text = keep + "\n" + note
		if raw, err = compose.Build(m); err != nil || int64(len(raw)) <= s.opts.MaxMailBytes {
			return raw, err
		}
	}
	return nil, fmt.Errorf("%w (%d bytes)", ErrMailTooLarge, s.opts.MaxMailBytes)
}
