package service

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// glossaryEntry finds the piece of game g named name: its English name or its name in
// any language, in any case, with surrounding blanks and quotes ignored.
func (s *Service) glossaryEntry(g engine.Game, name string) (engine.Entry, bool) {
	gl, ok := g.(engine.Glossary)
	if !ok {
		return engine.Entry{}, false
	}
	name = strings.Trim(strings.Join(strings.Fields(name), " "), `"“”`)
	term, _ := s.tr.TermOf(name)
	for _, e := range gl.Glossary() {
		if strings.EqualFold(string(e.Name), name) || term != "" && strings.EqualFold(string(e.Name), term) {
			return e, true
		}
	}
	return engine.Entry{}, false
}
