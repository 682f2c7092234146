package service

// ArchiveFile returns the archive file viewer would receive with a finished game's
// mail (nil when it would not fit).
func ArchiveFile(s *Service, l *Loaded, viewer string) []byte {
	f, _, ok := s.archiveFile(l, viewer)
	if !ok {
		return nil
	}
	return f.Data
}
