package service

import "net/url"

// unsubscribe returns the List-Unsubscribe value (RFC 2369) of a game's public
// mail, to observers and to a mailing list: a mailto URI whose mail, sent as it is
// by the client's one-click unsubscribe, is the lobby command "unobserve GAME-ID" to
// the service address.
func (s *Service) unsubscribe(gameID string) string {
	cmd := url.PathEscape("unobserve " + gameID)
	return "<mailto:" + url.PathEscape(s.address()) + "?subject=" + cmd + "&body=" + cmd + ">"
}
