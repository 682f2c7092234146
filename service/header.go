package service

import (
	"bytes"

	"github.com/turnmail/turnmail/store"
)

// headerMessageID reads the Message-ID of a raw mail without interpreting its body;
// it returns "" when there is none (the store then deduplicates by content hash).
func headerMessageID(raw []byte) string { return store.HeaderMessageID(raw) }

// headerOf returns the header block of a raw mail (up to and including the blank line
// that ends it), or the whole mail when it has no body.
func headerOf(raw []byte) []byte {
	for _, sep := range [][]byte{[]byte("\r\n\r\n"), []byte("\n\n")} {
		if i := bytes.Index(raw, sep); i >= 0 {
			return raw[:i+len(sep)]
		}
	}
	return raw
}
