package parse

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlRole is what an element means for the reply.
type htmlRole int

const (
	roleNone    htmlRole = iota
	roleSkip             // drop the element and its content (signatures, hidden text)
	roleQuote            // quoted history: rendered with "> " so the reply rules drop it
	roleHistory          // start of history: drop it and everything after it
)

// htmlMarker recognises a client's quote, history or signature container by a
// class token or an id. Outlook prefixes ids and classes of forwarded HTML with
// "x_"; that prefix is ignored.
type htmlMarker struct {
	attr   string // "class" or "id"
	value  string // compared case-insensitively
	prefix bool   // value is a prefix ("yahoo_quoted_1234")
	role   htmlRole
}

var htmlMarkers = []htmlMarker{
	// Outlook (desktop, web, mobile): the reply header block and everything below.
	{"id", "divRplyFwdMsg", false, roleHistory},
	{"id", "appendonsend", false, roleHistory},
	{"id", "mail-editor-reference-message-container", false, roleHistory},
	{"id", "OLK_SRC_BODY_SECTION", false, roleHistory},
	{"class", "OutlookMessageHeader", false, roleHistory},
	// Zimbra.
	{"id", "zwchr", false, roleHistory},
	// Gmail, Yahoo, Proton: the quoted message with its attribution.
	{"class", "gmail_quote", false, roleQuote},
	{"class", "gmail_quote_container", false, roleQuote},
	{"class", "yahoo_quoted", false, roleQuote},
	{"id", "yahoo_quoted_", true, roleQuote},
	{"class", "protonmail_quote", false, roleQuote},
	// Signatures.
	{"class", "gmail_signature", false, roleSkip},
	{"class", "moz-signature", false, roleSkip},
	{"id", "Signature", false, roleSkip},
	{"class", "signature", false, roleSkip},
}

// htmlSkipTags never hold visible reply text.
var htmlSkipTags = map[atom.Atom]bool{
	atom.Head: true, atom.Style: true, atom.Script: true, atom.Title: true,
	atom.Template: true, atom.Noscript: true, atom.Svg: true, atom.Math: true,
	atom.Object: true, atom.Iframe: true, atom.Meta: true, atom.Link: true,
	atom.Select: true, atom.Button: true, atom.Img: true,
}

// htmlBlockTags start and end a line.
var htmlBlockTags = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Ul: true, atom.Ol: true,
	atom.Li: true, atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Table: true,
	atom.Tr: true, atom.Tbody: true, atom.Thead: true, atom.Tfoot: true,
	atom.Caption: true, atom.Section: true, atom.Article: true, atom.Header: true,
	atom.Footer: true, atom.Address: true, atom.Form: true, atom.Fieldset: true,
	atom.Center: true, atom.Figure: true, atom.Figcaption: true, atom.Main: true,
	atom.Nav: true, atom.Aside: true, atom.Hr: true, atom.Body: true, atom.Html: true,
	atom.Details: true, atom.Summary: true, atom.Legend: true,
}

// HTMLToText renders an HTML mail body as plain text for reply extraction: block
// elements and <br> end lines, <head>, <style>, <script> and hidden elements are
// dropped, entities are decoded, white space is collapsed outside <pre>,
// <blockquote> and the quote containers of Gmail, Yahoo and Proton are rendered as
// "> " lines (so a top-posted reply ends there and a bottom-posted one skips them),
// known signature containers are dropped, and Outlook's reply header
// (divRplyFwdMsg and the like) ends the text.
func HTMLToText(src string) string {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return ""
	}
	var b textBuilder
	type frame struct {
		n    *html.Node
		exit bool
	}
	stack := []frame{{n: doc}}
walk:
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		if f.exit {
			b.close(n)
			continue
		}
		switch n.Type {
		case html.TextNode:
			b.text(n.Data)
			continue
		case html.ElementNode:
			switch elementRole(n) {
			case roleSkip:
				continue
			case roleHistory:
				break walk
			case roleQuote:
				b.boundary()
				b.quote++
				stack = append(stack, frame{n: n, exit: true})
				pushChildren(&stack, n, func(c *html.Node) frame { return frame{n: c} })
				continue
			}
			b.open(n)
		case html.DocumentNode:
		default:
			continue // comments, doctypes
		}
		stack = append(stack, frame{n: n, exit: true})
		pushChildren(&stack, n, func(c *html.Node) frame { return frame{n: c} })
	}
	b.boundary()
	out := make([]string, len(b.lines))
	for i, l := range b.lines {
		out[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(out, "\n")
}

// pushChildren pushes n's children so that the first child is popped first.
func pushChildren[F any](stack *[]F, n *html.Node, mk func(*html.Node) F) {
	start := len(*stack)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		*stack = append(*stack, mk(c))
	}
	s := *stack
	for i, j := start, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// elementRole looks an element up in the marker tables and hides invisible ones.
func elementRole(n *html.Node) htmlRole {
	if htmlSkipTags[n.DataAtom] {
		return roleSkip
	}
	if n.DataAtom == atom.Blockquote {
		return roleQuote
	}
	for _, a := range n.Attr {
		key := strings.ToLower(a.Key)
		switch key {
		case "hidden":
			return roleSkip
		case "style":
			s := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
			if strings.Contains(s, "display:none") || strings.Contains(s, "mso-hide:all") {
				return roleSkip
			}
		case "class", "id":
			values := []string{a.Val}
			if key == "class" {
				values = strings.Fields(a.Val)
			}
			for _, v := range values {
				v = strings.TrimPrefix(v, "x_")
				for _, m := range htmlMarkers {
					if m.attr != key {
						continue
					}
					if strings.EqualFold(v, m.value) ||
						(m.prefix && len(v) >= len(m.value) && strings.EqualFold(v[:len(m.value)], m.value)) {
						return m.role
					}
				}
			}
		}
	}
	return roleNone
}

// textBuilder accumulates rendered lines.
type textBuilder struct {
	lines   []string
	cur     strings.Builder
	prefix  string // quote prefix of the current line
	started bool   // the current line has content
	space   bool   // a collapsed space is pending
	quote   int    // blockquote depth
	pre     int    // <pre> depth
}

func (b *textBuilder) open(n *html.Node) {
	switch {
	case n.DataAtom == atom.Br:
		b.newline()
	case n.DataAtom == atom.Pre:
		b.boundary()
		b.pre++
	case n.DataAtom == atom.Td || n.DataAtom == atom.Th:
		if b.started {
			b.space = true
		}
	case htmlBlockTags[n.DataAtom]:
		b.boundary()
	}
}

func (b *textBuilder) close(n *html.Node) {
	switch {
	case n.Type != html.ElementNode:
	case n.DataAtom == atom.Blockquote || elementRole(n) == roleQuote:
		b.boundary()
		if b.quote > 0 {
			b.quote--
		}
	case n.DataAtom == atom.Pre:
		b.boundary()
		if b.pre > 0 {
			b.pre--
		}
	case htmlBlockTags[n.DataAtom]:
		b.boundary()
	}
}

func (b *textBuilder) startLine() {
	if !b.started {
		b.prefix = quotePrefix(b.quote)
		b.started = true
		b.space = false
	}
}

func (b *textBuilder) text(s string) {
	if b.pre > 0 {
		for i, part := range strings.Split(normalizeNewlines(s), "\n") {
			if i > 0 {
				b.newline()
			}
			if part != "" {
				b.startLine()
				b.cur.WriteString(strings.ReplaceAll(part, "\u00a0", " "))
			}
		}
		return
	}
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\r', '\f':
			if b.started {
				b.space = true
			}
		case '\u200b', '\u200c', '\u200d', '\ufeff', '\u00ad':
			// invisible
		default:
			if r == '\u00a0' {
				r = ' '
			}
			b.startLine()
			if b.space {
				b.cur.WriteByte(' ')
				b.space = false
			}
			b.cur.WriteRune(r)
		}
	}
}

// newline ends the current line, even an empty one.
func (b *textBuilder) newline() {
	if b.started {
		b.lines = append(b.lines, b.prefix+b.cur.String())
	} else {
		b.lines = append(b.lines, strings.TrimSpace(quotePrefix(b.quote)))
	}
	b.cur.Reset()
	b.started, b.space = false, false
}

// boundary ends the current line if it has content.
func (b *textBuilder) boundary() {
	if b.started {
		b.newline()
	}
}
