package doc

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
)

// style is the HTML part's style sheet: readable on a phone (the page is as wide as
// the window), in light and in dark mode, with every link of the command block a
// tap target of its own.
const style = `:root{color-scheme:light dark}
body{font-family:sans-serif;max-width:46em;margin:0 auto;padding:0 .6em;line-height:1.35;overflow-wrap:break-word;color:#1a1a1a;background:#fff}
pre,code{font-family:monospace;overflow-wrap:anywhere}
pre{white-space:pre-wrap}
table{border-collapse:collapse;margin:.4em 0}
td,th{padding:.15em .5em;text-align:left;vertical-align:top;border-bottom:1px solid #ccc}
small,.note{color:#555}
.turn{font-size:1.15em;margin:.6em 0}
.err{color:#a00}
tr.changed td:first-child{font-weight:bold}
ul.legal{list-style:none;margin:.4em 0;padding:.3em .5em;background:#f2f2f2;color:#1a1a1a;border-left:3px solid #888}
ul.legal li{margin:0;padding:.15em 0}
ul.legal a{font-family:monospace;color:#0b4f9c;display:inline-block;padding:.2em 0}
.details{border-top:1px solid #ccc;margin-top:1.2em}
.details h2{font-size:1em}
@media (prefers-color-scheme:dark){
body{color:#e6e6e6;background:#161616}
td,th{border-bottom-color:#444}
small,.note{color:#aaa}
.err{color:#ff8a80}
ul.legal{background:#262626;color:#e6e6e6}
ul.legal a{color:#8ab4f8}
.details{border-top-color:#444}
}
@media (max-width:600px){
body{padding:0 .3em}
td,th{padding:.15em .25em}
table{font-size:.9em}
h1{font-size:1.3em}
}`

// preheaderStyle hides the preheader from the page; mail clients show it in the
// inbox list as the mail's first words.
const preheaderStyle = "display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all"

// HTML writes d as the HTML part: a complete page whose first text is the hidden
// preheader, then the heading and the blocks, then the footer. Every text is
// escaped; commands are mailto: links (see Mailto).
func HTML(d *Doc) string {
	var b strings.Builder
	esc := html.EscapeString
	lang := d.Lang
	if lang == "" {
		lang = "en"
	}
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="%s"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>%s</title>
<style>
%s
</style>
</head><body>`, esc(lang), esc(d.Title), style)
	if d.Preheader != "" {
		fmt.Fprintf(&b, "\n<div style=\"%s\">%s</div>", preheaderStyle, esc(d.Preheader))
	}
	if d.Heading != "" {
		fmt.Fprintf(&b, "\n<h1>%s</h1>", esc(d.Heading))
	}
	htmlBlocks(&b, d.Blocks)
	if len(d.Footer) > 0 {
		b.WriteString("\n<hr><p><small>")
		inlines(&b, d.Footer)
		b.WriteString("</small></p>")
	}
	b.WriteString("\n</body></html>\n")
	return b.String()
}

func htmlBlocks(b *strings.Builder, bs []Block) {
	for _, bl := range bs {
		b.WriteString("\n")
		htmlBlock(b, bl)
	}
}

// roleClass is the class of a paragraph of each role.
var roleClass = map[Role]string{Turn: "turn", Error: "err", Note: "note"}

func htmlBlock(b *strings.Builder, bl Block) {
	switch x := bl.(type) {
	case *Para:
		if x.Only == TextPart {
			return
		}
		if c := roleClass[x.Role]; c != "" {
			fmt.Fprintf(b, `<p class="%s">`, c)
		} else {
			b.WriteString("<p>")
		}
		if x.Role == Turn {
			b.WriteString("<strong>")
		}
		brLines(b, x.Lines)
		if x.Role == Turn {
			b.WriteString("</strong>")
		}
		b.WriteString("</p>")
	case *List:
		title(b, x.Title)
		switch {
		case x.Numbered && x.Start > 1:
			fmt.Fprintf(b, `<ol start="%d">`, x.Start)
		case x.Numbered:
			b.WriteString("<ol>")
		default:
			b.WriteString("<ul>")
		}
		for _, it := range x.Items {
			b.WriteString("<li>")
			if it.Mark {
				b.WriteString("<strong>")
			}
			inlines(b, it.Line)
			if it.Mark {
				b.WriteString("</strong>")
			}
			for i, s := range it.Sub {
				if i == 0 {
					b.WriteString("<br><small>")
				} else {
					b.WriteString("; ")
				}
				inlines(b, s)
				if i == len(it.Sub)-1 {
					b.WriteString("</small>")
				}
			}
			b.WriteString("</li>")
		}
		if x.Numbered {
			b.WriteString("</ol>")
		} else {
			b.WriteString("</ul>")
		}
	case *Table:
		title(b, x.Title)
		cols := len(x.Head)
		b.WriteString("<table>")
		if len(x.Head) > 0 {
			b.WriteString("<tr>")
			for _, h := range x.Head {
				fmt.Fprintf(b, "<th>%s</th>", html.EscapeString(h))
			}
			b.WriteString("</tr>")
		}
		for _, r := range x.Rows {
			cols = max(cols, len(r.Cells))
		}
		for _, r := range x.Rows {
			if r.Mark {
				b.WriteString(`<tr class="changed">`)
			} else {
				b.WriteString("<tr>")
			}
			for i, c := range r.Cells {
				b.WriteString("<td>")
				inlines(b, c)
				if i == 0 && r.Mark {
					b.WriteString(" *")
				}
				b.WriteString("</td>")
			}
			b.WriteString("</tr>")
			if len(r.Sub) > 0 {
				fmt.Fprintf(b, `<tr><td colspan="%d"><small>`, cols)
				brLines(b, r.Sub)
				b.WriteString("</small></td></tr>")
			}
		}
		b.WriteString("</table>")
		if len(x.Note) > 0 {
			b.WriteString(`<p class="note">`)
			inlines(b, x.Note)
			b.WriteString("</p>")
		}
	case *Defs:
		title(b, x.Title)
		b.WriteString("<table>")
		for _, it := range x.Items {
			b.WriteString("<tr><td>")
			inlines(b, it.Term)
			b.WriteString("</td><td>")
			inlines(b, it.Text)
			b.WriteString("</td></tr>")
		}
		b.WriteString("</table>")
	case *Commands:
		title(b, x.Title)
		b.WriteString(`<ul class="legal">`)
		for _, c := range x.Lines {
			b.WriteString("<li>")
			if x.ReplyTo != "" {
				fmt.Fprintf(b, `<a href="%s">%s</a>`, html.EscapeString(Mailto(x.ReplyTo, x.Subject, c.Text)), html.EscapeString(c.Text))
			} else {
				fmt.Fprintf(b, "<code>%s</code>", html.EscapeString(c.Text))
			}
			if c.Note != "" {
				fmt.Fprintf(b, " <small>%s</small>", html.EscapeString(c.Note))
			}
			b.WriteString("</li>")
		}
		b.WriteString("</ul>")
	case *Pre:
		title(b, x.Title)
		fmt.Fprintf(b, "<pre>%s</pre>", html.EscapeString(strings.TrimRight(x.Text, "\n")))
	case *Figure:
		if x.TextOnly {
			return
		}
		if len(x.Grids) == 0 {
			title(b, x.Title)
			fmt.Fprintf(b, "<pre>%s</pre>", html.EscapeString(strings.TrimRight(x.Text, "\n")))
			return
		}
		for _, g := range x.Grids {
			grid(b, g)
		}
		if len(x.Note) > 0 {
			b.WriteString(`<p class="note">`)
			inlines(b, x.Note)
			b.WriteString("</p>")
		}
	case *Picture:
		// Styled inline, which every mail client keeps: as wide as the window allows
		// up to its own width, on an opaque background with a dark border that stays
		// when a client darkens the mail.
		fmt.Fprintf(b, `<p style="margin:12px 0"><img src="%s" width="%d" height="%d" alt="%s" style="display:block;box-sizing:border-box;width:100%%;max-width:%dpx;height:auto;border:1px solid #222222;background:#fbf8f0"></p>`,
			html.EscapeString("cid:"+url.PathEscape(x.CID)), x.Width, x.Height, html.EscapeString(x.Alt), x.Width)
	case *Section:
		b.WriteString(`<div class="details">`)
		if x.Title != "" {
			fmt.Fprintf(b, "<h2>%s</h2>", html.EscapeString(x.Title))
		}
		htmlBlocks(b, x.Blocks)
		b.WriteString("\n</div>")
	}
}

// edgeStyles are the borders of each kind of a cell's edge.
var edgeStyles = [...]string{NoEdge: "", Wall: "3px solid", Opening: "1px dotted", Door: "3px double"}

// edgeSides are the sides of a cell, in the order of Cell.Edges.
var edgeSides = [4]string{"top", "right", "bottom", "left"}

// grid writes a Grid as a table whose cells' borders draw their edges.
func grid(b *strings.Builder, g Grid) {
	fmt.Fprintf(b, `<table class="grid"><tr><th>%s</th>`, html.EscapeString(g.Corner))
	for _, c := range g.Cols {
		fmt.Fprintf(b, "<th>%s</th>", html.EscapeString(c))
	}
	b.WriteString("</tr>")
	for _, r := range g.Rows {
		fmt.Fprintf(b, "<tr><th>%s</th>", html.EscapeString(r.Head))
		for _, c := range r.Cells {
			if len(c.Lines) == 0 {
				b.WriteString("<td></td>")
				continue
			}
			var style []string
			for i, e := range c.Edges {
				if int(e) < len(edgeStyles) && edgeStyles[e] != "" {
					style = append(style, "border-"+edgeSides[i]+":"+edgeStyles[e])
				}
			}
			fmt.Fprintf(b, `<td style="%s">`, strings.Join(style, ";"))
			brLines(b, c.Lines)
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
}

// brLines writes lines, a line break between each two.
func brLines(b *strings.Builder, ls []Line) {
	for i, l := range ls {
		if i > 0 {
			b.WriteString("<br>")
		}
		inlines(b, l)
	}
}

// title writes a block's title as a paragraph.
func title(b *strings.Builder, l Line) {
	if len(l) > 0 {
		b.WriteString("<p>")
		inlines(b, l)
		b.WriteString("</p>")
	}
}

// colourRe matches the colours a run may have.
var colourRe = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// inlines writes runs, escaped, each in its style and colour.
func inlines(b *strings.Builder, l Line) {
	for _, r := range l {
		t := html.EscapeString(r.Text)
		switch r.Style {
		case Swatch:
			if colourRe.MatchString(r.Colour) {
				// A square of colour with no text in it: a mark, not a word.
				fmt.Fprintf(b, `<span aria-hidden="true" style="display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em;background:%s;border:1px solid #222222"></span>`, r.Colour)
			}
		case Strong:
			fmt.Fprintf(b, "<strong>%s</strong>", t)
		case Code:
			fmt.Fprintf(b, "<code>%s</code>", t)
		case Small:
			fmt.Fprintf(b, "<small>%s</small>", t)
		case Link:
			if webAddress(r.Href) {
				fmt.Fprintf(b, `<a href="%s">%s</a>`, html.EscapeString(r.Href), t)
			} else {
				b.WriteString(t)
			}
		case Send:
			if strings.HasPrefix(r.Href, "mailto:") {
				fmt.Fprintf(b, `<a href="%s">%s</a>`, html.EscapeString(r.Href), t)
			} else {
				fmt.Fprintf(b, "<code>%s</code>", t)
			}
		default:
			b.WriteString(t)
		}
	}
}

// Mailto returns the mailto: URI (RFC 6068) of a reply to addr with subject and
// body: the address with the characters a mailto address may not hold
// percent-encoded, the subject and the body with everything but the unreserved
// characters percent-encoded as UTF-8 (a space as %20, never "+").
func Mailto(addr, subject, body string) string {
	var b strings.Builder
	b.WriteString("mailto:")
	escape(&b, addr, addrSafe)
	sep := "?"
	if subject != "" {
		b.WriteString(sep + "subject=")
		escape(&b, subject, unreserved)
		sep = "&"
	}
	if body != "" {
		b.WriteString(sep + "body=")
		escape(&b, body, unreserved)
	}
	return b.String()
}

// unreserved reports whether c is an unreserved character of RFC 3986.
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0
}

// addrSafe reports whether c may stand as it is in a mailto address (RFC 6068
// some-delims and unreserved, and the "@").
func addrSafe(c byte) bool { return unreserved(c) || strings.IndexByte("!$'()*+;:@", c) >= 0 }

// escape writes s with every byte that is not safe percent-encoded.
func escape(b *strings.Builder, s string, safe func(byte) bool) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if safe(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
}

// ParseMailto reads a mailto: URI back (RFC 6068): its one address, its subject
// and its body, percent-decoded.
func ParseMailto(href string) (addr, subject, body string, err error) {
	u, err := url.Parse(href)
	if err != nil {
		return "", "", "", fmt.Errorf("mailto: %w", err)
	}
	if u.Scheme != "mailto" {
		return "", "", "", fmt.Errorf("mailto: %q is no mailto: URI", href)
	}
	if addr, err = url.PathUnescape(u.Opaque); err != nil {
		return "", "", "", fmt.Errorf("mailto address: %w", err)
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return "", "", "", fmt.Errorf("mailto fields: %w", err)
	}
	return addr, q.Get("subject"), q.Get("body"), nil
}
