package parse

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset" // registers every charset with go-message
	"github.com/emersion/go-message/textproto"
	"golang.org/x/text/encoding/charmap"
)

// Limits of the MIME walk: a mail is at most Options.MaxSize bytes, but nesting and
// part counts are bounded too so that a hostile structure costs little.
const (
	maxDepth = 16
	maxParts = 500
)

func messageHeader(h textproto.Header) message.Header { return message.Header{Header: h} }

// readHeader splits raw into its header and body. A header the strict reader
// rejects is read leniently: malformed lines are skipped; without any header line
// the whole input is the body.
func readHeader(raw []byte) (textproto.Header, []byte) {
	br := bufio.NewReader(bytes.NewReader(raw))
	h, err := textproto.ReadHeader(br)
	if err == nil {
		body, _ := io.ReadAll(br)
		return h, body
	}
	return lenientHeader(raw)
}

// isFieldName reports whether s is made of the characters RFC 5322 allows in a
// field name.
func isFieldName(s string) bool {
	if s == "" || len(s) > 76 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 33 || c > 126 || c == ':' {
			return false
		}
	}
	return true
}

func lenientHeader(raw []byte) (textproto.Header, []byte) {
	var h textproto.Header
	type field struct{ k, v string }
	var fields []field
	rest := raw
lines:
	for len(rest) > 0 {
		line := rest
		next := []byte(nil)
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, next = rest[:i], rest[i+1:]
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(bytes.TrimSpace(line)) == 0:
			rest = next
			break lines
		case (line[0] == ' ' || line[0] == '\t') && len(fields) > 0:
			fields[len(fields)-1].v += " " + strings.TrimSpace(string(line))
		default:
			k, v, ok := strings.Cut(string(line), ":")
			k = strings.TrimSpace(k)
			if ok && isFieldName(k) {
				fields = append(fields, field{k, strings.TrimSpace(v)})
			} else if len(fields) == 0 && !bytes.HasPrefix(line, []byte("From ")) {
				// Not a mail header at all: everything is body.
				return h, raw
			}
		}
		rest = next
	}
	for i := len(fields) - 1; i >= 0; i-- {
		h.Add(fields[i].k, fields[i].v)
	}
	return h, rest
}

// content is the text found in an entity tree.
type content struct {
	plain []string // decoded text/plain parts, in order
	html  []string // decoded text/html parts, in order
	dsn   bool     // a delivery-status part or report was seen
	mdn   bool     // a disposition-notification report was seen
	dsnParts
}

func (c *content) add(o content) {
	c.plain = append(c.plain, o.plain...)
	c.html = append(c.html, o.html...)
	c.dsn = c.dsn || o.dsn
	c.mdn = c.mdn || o.mdn
	c.reports = append(c.reports, o.reports...)
	c.returned = append(c.returned, o.returned...)
}

type walkState struct{ parts int }

// walk collects the text of the entity with header h and raw (still
// transfer-encoded) body.
func walk(h textproto.Header, body []byte, depth int, st *walkState) content {
	var c content
	st.parts++
	if depth > maxDepth || st.parts > maxParts {
		return c
	}
	mediaType, params := contentType(h)
	disp := dispositionOf(h)

	switch {
	case strings.HasPrefix(mediaType, "multipart/"):
		if mediaType == "multipart/report" {
			switch strings.ToLower(params["report-type"]) {
			case "delivery-status":
				c.dsn = true
			case "disposition-notification":
				c.mdn = true
			}
		}
		parts, ok := multipartParts(body, params["boundary"])
		if !ok {
			// Broken multipart: read the body as text rather than lose it.
			c.plain = append(c.plain, decodeText(h, body, params))
			return c
		}
		if mediaType == "multipart/alternative" {
			var plain, html bool
			for _, p := range parts {
				pc := walk(p.h, p.body, depth+1, st)
				if !plain && strings.TrimSpace(strings.Join(pc.plain, "")) != "" {
					c.plain, plain = pc.plain, true
				}
				if !html && len(pc.html) > 0 {
					c.html, html = pc.html, true
				}
				c.dsn, c.mdn = c.dsn || pc.dsn, c.mdn || pc.mdn
				c.reports = append(c.reports, pc.reports...)
				c.returned = append(c.returned, pc.returned...)
			}
			return c
		}
		for _, p := range parts {
			c.add(walk(p.h, p.body, depth+1, st))
		}
	case mediaType == "message/delivery-status" || mediaType == "message/global-delivery-status":
		c.dsn = true
		c.reports = append(c.reports, decodeTransfer(h.Get("Content-Transfer-Encoding"), body))
	case mediaType == "message/rfc822" || mediaType == "message/global" || mediaType == "text/rfc822-headers" || mediaType == "message/global-headers":
		// A returned message (in a report) or a forward: only its header is read.
		rh, _ := readHeader(decodeTransfer(h.Get("Content-Transfer-Encoding"), body))
		c.returned = append(c.returned, rh)
	case mediaType == "message/disposition-notification":
		c.mdn = true
	case disp == "attachment":
		// An attached file, even a text one, is not the reply.
	case mediaType == "text/plain" || mediaType == "":
		text := decodeText(h, body, params)
		if strings.EqualFold(params["format"], "flowed") {
			text = unflow(text, strings.EqualFold(params["delsp"], "yes"))
		}
		c.plain = append(c.plain, text)
	case mediaType == "text/html":
		b := decodeTransfer(h.Get("Content-Transfer-Encoding"), body)
		cs := params["charset"]
		if cs == "" {
			cs = metaCharset(b)
		}
		c.html = append(c.html, toUTF8(b, cs))
	}
	// Other types (images, message/rfc822 forwards, calendars …) carry no reply.
	return c
}

// contentType returns the lower-cased media type and its parameters. A missing
// header means text/plain; an unparseable one is read as text/plain too (its
// parameters recovered when possible).
func contentType(h textproto.Header) (string, map[string]string) {
	v := h.Get("Content-Type")
	if strings.TrimSpace(v) == "" {
		return "text/plain", map[string]string{}
	}
	t, params, err := mime.ParseMediaType(v)
	if err != nil {
		// mime.ParseMediaType gives up on a bad parameter (and drops all of them);
		// recover the type and the parameters that matter here.
		lt, lp := looseMediaType(v)
		if t == "" {
			t = lt
		}
		params = lp
	}
	if params == nil {
		params = map[string]string{}
	}
	return strings.ToLower(t), params
}

var looseParam = regexp.MustCompile(`(?i)(charset|boundary|format|delsp|report-type)\s*=\s*(?:"([^"]*)"|([^;\s]+))`)

func looseMediaType(v string) (string, map[string]string) {
	t, rest, _ := strings.Cut(v, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	if !strings.Contains(t, "/") || strings.ContainsAny(t, " \t\"") {
		t = "text/plain"
	}
	params := map[string]string{}
	for _, m := range looseParam.FindAllStringSubmatch(rest, -1) {
		val := m[2]
		if val == "" {
			val = m[3]
		}
		params[strings.ToLower(m[1])] = val
	}
	return t, params
}

func dispositionOf(h textproto.Header) string {
	v := h.Get("Content-Disposition")
	if v == "" {
		return ""
	}
	d, _, err := mime.ParseMediaType(v)
	if err != nil {
		d, _, _ = strings.Cut(v, ";")
	}
	return strings.ToLower(strings.TrimSpace(d))
}

type rawPart struct {
	h    textproto.Header
	body []byte
}

// multipartParts splits a multipart body. ok is false when no part could be read
// even after guessing the boundary from the body.
func multipartParts(body []byte, boundary string) ([]rawPart, bool) {
	if boundary != "" {
		if parts := readParts(body, boundary); len(parts) > 0 {
			return parts, true
		}
	}
	if guess := guessBoundary(body); guess != "" && guess != boundary {
		if parts := readParts(body, guess); len(parts) > 0 {
			return parts, true
		}
	}
	return nil, false
}

// readParts reads the parts of body up to the first error.
func readParts(body []byte, boundary string) []rawPart {
	var parts []rawPart
	mr := textproto.NewMultipartReader(bytes.NewReader(body), boundary)
	for len(parts) < maxParts {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		b, err := io.ReadAll(p)
		parts = append(parts, rawPart{h: p.Header, body: b})
		if err != nil {
			break
		}
	}
	return parts
}

var boundaryLine = regexp.MustCompile(`(?m)^--([0-9A-Za-z'()+_,./:=?-]{1,70}?)(?:--)?\r?$`)

// guessBoundary returns the boundary of the first delimiter-looking line in body.
func guessBoundary(body []byte) string {
	m := boundaryLine.FindSubmatch(body)
	if m == nil {
		return ""
	}
	return string(m[1])
}

var metaCharsetRe = regexp.MustCompile(`(?i)<meta[^>]{0,200}?charset\s*=\s*["']?\s*([\w.:-]{1,40})`)

// metaCharset returns the charset an HTML document declares in a <meta> tag near
// its start, or "".
func metaCharset(body []byte) string {
	if len(body) > 4096 {
		body = body[:4096]
	}
	if m := metaCharsetRe.FindSubmatch(body); m != nil {
		return string(m[1])
	}
	return ""
}

// decodeText undoes the transfer encoding and converts the charset to UTF-8. Every
// step is lenient: an unknown encoding leaves the bytes as they are, an unknown
// charset or invalid UTF-8 is read as windows-1252.
func decodeText(h textproto.Header, body []byte, params map[string]string) string {
	b := decodeTransfer(h.Get("Content-Transfer-Encoding"), body)
	return toUTF8(b, params["charset"])
}

// decodeTransfer undoes a Content-Transfer-Encoding leniently.
func decodeTransfer(enc string, b []byte) []byte {
	switch strings.ToLower(strings.TrimSpace(enc)) {
	case "quoted-printable":
		return decodeQP(b)
	case "base64":
		return decodeBase64(b)
	}
	return b
}

// decodeQP decodes quoted-printable, passing malformed escapes through.
func decodeQP(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '=' {
			out = append(out, c)
			continue
		}
		// Soft line break: "=" then optional white space then a line end.
		j := i + 1
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j < len(b) && (b[j] == '\n' || b[j] == '\r') {
			if b[j] == '\r' && j+1 < len(b) && b[j+1] == '\n' {
				j++
			}
			i = j
			continue
		}
		if j == len(b) {
			i = j
			continue
		}
		if i+2 < len(b) {
			hi, ok1 := unhex(b[i+1])
			lo, ok2 := unhex(b[i+2])
			if ok1 && ok2 {
				out = append(out, hi<<4|lo)
				i += 2
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// decodeBase64 decodes base64, ignoring characters outside the alphabet and a
// truncated final group.
func decodeBase64(b []byte) []byte {
	clean := make([]byte, 0, len(b))
	for _, c := range b {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '-':
			clean = append(clean, '+') // URL-safe alphabet, seen in the wild
		case c == '_':
			clean = append(clean, '/')
		}
	}
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
	}
	out, err := base64.RawStdEncoding.DecodeString(string(clean))
	if err != nil {
		return b
	}
	return out
}

// toUTF8 converts b from the named charset. Without a charset, or for us-ascii and
// utf-8, valid UTF-8 is kept; anything that still is not valid UTF-8 after
// conversion is read as windows-1252, the usual mislabelling.
func toUTF8(b []byte, cs string) string {
	cs = strings.ToLower(strings.Trim(strings.TrimSpace(cs), `"'`))
	switch cs {
	case "", "us-ascii", "ascii", "utf-8", "utf8":
	default:
		if r, err := charset.Reader(cs, bytes.NewReader(b)); err == nil {
			if out, err := io.ReadAll(r); err == nil {
				b = out
			}
		}
	}
	if utf8.Valid(b) {
		return string(b)
	}
	if out, err := charmap.Windows1252.NewDecoder().Bytes(b); err == nil && utf8.Valid(out) {
		return string(out)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// unflow decodes format=flowed text (RFC 3676): soft line breaks (a trailing
// space) are joined, space-stuffing is removed, and quote depth is kept.
func unflow(text string, delsp bool) string {
	lines := strings.Split(normalizeNewlines(text), "\n")
	var out []string
	var cur strings.Builder
	curDepth, open := 0, false
	flush := func() {
		if open {
			out = append(out, quotePrefix(curDepth)+cur.String())
			cur.Reset()
			open = false
		}
	}
	for _, l := range lines {
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		l = l[depth:]
		l = strings.TrimPrefix(l, " ") // space-stuffing
		if open && depth != curDepth {
			flush()
		}
		flowed := strings.HasSuffix(l, " ") && l != "-- "
		if flowed && delsp {
			l = l[:len(l)-1]
		}
		cur.WriteString(l)
		curDepth, open = depth, true
		if !flowed {
			flush()
		}
	}
	flush()
	return strings.Join(out, "\n")
}

func quotePrefix(depth int) string {
	if depth == 0 {
		return ""
	}
	return strings.Repeat(">", depth) + " "
}
