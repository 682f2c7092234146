package service

// Replays returns how many games s replayed through their engine so far: the
// measure of a scheduler tick's work in the tests.
func Replays(s *Service) int64 { return s.replays.Load() }
