package service

import "github.com/turnmail/turnmail/store"

// Replays returns how many games s replayed through their engine so far: the
// measure of a scheduler tick's work in the tests.
func Replays(s *Service) int64 { return s.replays.Load() }

// Replayed is the number of events s replayed through an engine.
func Replayed(s *Service) int64 { return s.replayed.Load() }

// TickLooks is the number of games s's ticks looked at.
func TickLooks(s *Service) int64 { return s.tickLooks.Load() }

// DrawGameIDs makes s draw the given game ids, in order, then random ones.
func DrawGameIDs(s *Service, ids ...string) {
	s.newGameID = func(kind string) string {
		if len(ids) == 0 {
			return store.NewGameID(kind)
		}
		id := ids[0]
		ids = ids[1:]
		return id
	}
}

// MailParts returns the decoded text parts of a composed mail by media type.
func MailParts(raw []byte) (map[string]string, error) { return mailParts(raw) }
