package service

import (
	"bytes"
	"net/mail"
	"strings"
)

// headerMessageID reads the Message-ID of a raw mail without interpreting its body;
// it returns "" when there is none (the store then deduplicates by content hash).
func headerMessageID(raw []byte) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	id := strings.TrimSpace(m.Header.Get("Message-Id"))
	return strings.Trim(id, "<>")
}
