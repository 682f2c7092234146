package doc

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// sample is a document with a block of every kind.
func sample() *Doc {
	return &Doc{
		Lang: "en", Title: "[sw-1] Small World <&>", Preheader: "Your move — by Sat 28 Nov 21:00. bob conquered region 4.",
		Blocks: []Block{
			&Para{Role: Turn, Lines: []Line{L("Your move — by Sat 28 Nov 21:00")}},
			&List{Title: L("Since your last mail:"), Items: []Item{
				{Line: L("bob conquered your region 4 with 3 tokens: you lost 1 token, 1 back in hand and a sentence long enough to be broken")},
				{Line: L("bob scored 4 coins"), Sub: []Line{L("regions: 3"), L("Hill: 1")}},
				{Line: L("bob took back <b>"), Mark: true},
			}},
			&Picture{CID: "board@x", Width: 600, Height: 400, Alt: "The board <after> bob's turn"},
			&Table{Title: L("Players:"), Head: []string{"Player", "Coins", "Race"}, Rows: []Row{
				{Cells: []Line{{Inline{Style: Swatch, Colour: "#0072b2"}, T("alice")}, L("26"), L("Humans Pillaging")}},
				{Cells: []Line{{Inline{Style: Swatch, Colour: "red;x:url(y)"}, T("eve")}, L("0"), L("")}},
				{Cells: []Line{L("bob"), L("-"), L("Ghouls Heroic")}, Mark: true, Sub: []Line{L("in decline: Ratmen")}},
			}},
			&Commands{Title: L("Reply with one command per line:"), ReplyTo: "turnmail+sw-1.0.abc@example.org", Subject: "Re: [sw-1] Small World — alice, bob",
				Lines: []Command{{Text: "conquer 4", Note: "3 tokens: 2 + 1 defender"}, {Text: "redeploy <region>=<tokens> …", Pattern: true}, {Text: "done"}}},
			&Defs{Title: L("What these commands do:"), Items: []Def{
				{Term: Line{C("swap N")}, Text: L("your Shadow Mimes take the power of combo N (only before conquering), which is a long explanation")},
				{Term: Line{C("a command far too long for the column of terms")}, Text: L("stands alone")},
			}},
			&Pre{Text: "+--+\n|@1|   \n+--+"},
			&Section{Title: "Details", Blocks: []Block{P(Line{T("Reply "), C("map"), T(" for the whole map.")})}},
		},
		Footer: Line{T("turnmail · game "), C("sw-1")},
	}
}

func TestText(t *testing.T) {
	got := Text(sample())
	want := `Your move — by Sat 28 Nov 21:00

Since your last mail:
  - bob conquered your region 4 with 3 tokens: you lost 1 token, 1 back in
    hand and a sentence long enough to be broken
  - bob scored 4 coins
      regions: 3
      Hill: 1
  ! bob took back <b>

Players:
  Player  Coins  Race
  alice   26     Humans Pillaging
  eve     0
* bob     -      Ghouls Heroic
    in decline: Ratmen

Reply with one command per line:
    conquer 4   # 3 tokens: 2 + 1 defender
    redeploy <region>=<tokens> …
    done

What these commands do:
  swap N  your Shadow Mimes take the power of combo N (only before
          conquering), which is a long explanation
  a command far too long for the column of terms
          stands alone

    +--+
    |@1|
    +--+

Details

Reply map for the whole map.

-- 
turnmail · game sw-1
`
	if got != want {
		t.Errorf("Text:\n%s\nwant:\n%s", got, want)
	}
}

// TestWrap: a paragraph breaks softly at MaxLine, a list item under its text, and a
// word longer than the line stays whole; no line but a command is longer than
// MaxLine.
func TestWrap(t *testing.T) {
	long := strings.Repeat("word ", 40)
	for _, c := range []struct {
		s, head string
		indent  int
		soft    bool
	}{
		{long, "", 0, true},
		{long, "  - ", 4, false},
		{strings.Repeat("x", 100) + " tail", "", 0, true},
	} {
		lines := Wrap(c.s, c.head, c.indent, c.soft)
		if len(lines) < 2 {
			t.Errorf("Wrap(%q) did not break: %q", c.s, lines)
		}
		for i, l := range lines {
			if n := utf8.RuneCountInString(l); n > MaxLine && !strings.Contains(l, strings.Repeat("x", 100)) {
				t.Errorf("line %q is %d long", l, n)
			}
			if i > 0 && !strings.HasPrefix(l, strings.Repeat(" ", c.indent)) {
				t.Errorf("line %q is not indented by %d", l, c.indent)
			}
			if c.soft && i < len(lines)-1 && !strings.HasSuffix(l, " ") {
				t.Errorf("soft break without a trailing space: %q", l)
			}
		}
	}
}

func TestHTML(t *testing.T) {
	page := HTML(sample())
	root, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	_ = root
	for _, want := range []string{
		`<html lang="en">`,
		`<title>[sw-1] Small World &lt;&amp;&gt;</title>`,
		`<p class="turn"><strong>Your move — by Sat 28 Nov 21:00</strong></p>`,
		`<li><strong>bob took back &lt;b&gt;</strong></li>`,
		`<br><small>regions: 3; Hill: 1</small>`,
		`<img src="cid:board@x" width="600" height="400" alt="The board &lt;after&gt; bob&#39;s turn" style="display:block;`,
		`<tr class="changed"><td>bob *</td>`,
		`<tr><td><span aria-hidden="true" style="display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em;background:#0072b2;border:1px solid #222222"></span>alice</td>`,
		`<tr><td>eve</td>`, // a colour that is not one is left out
		`<tr><td colspan="3"><small>in decline: Ratmen</small></td></tr>`,
		`<td><code>swap N</code></td>`,
		`<pre>+--+`,
		`<div class="details"><h2>Details</h2>`,
		`<hr><p><small>turnmail · game <code>sw-1</code></small></p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q in\n%s", want, page)
		}
	}
	// The preheader is the first text of the body, hidden.
	body := page[strings.Index(page, "<body>"):]
	if !strings.HasPrefix(body, "<body>\n<div style=\"display:none;") || !strings.Contains(body, "Your move — by Sat 28 Nov 21:00. bob conquered region 4.</div>") {
		t.Errorf("no hidden preheader first:\n%s", body)
	}
}

// hrefRe finds the links of an HTML part.
var hrefRe = regexp.MustCompile(`<a href="([^"]*)">([^<]*)</a>`)

// TestHTML_commandLinks: every command of the block, and every command a sentence
// names to send (Reply: "did you mean conquer 4?"), is a mailto: link whose address,
// subject and body parse back (RFC 6068) to exactly the reply address, the subject
// and the command, whatever they hold; the text part writes the sentence's command
// as it is.
func TestHTML_commandLinks(t *testing.T) {
	commands := []string{"conquer 4", "redeploy <region>=<tokens> …", "say a+b & c? #1 100% ok", "schiera 3=2 4=1", "dì ciao\r\nrighe", `"quoted" 'x' =?utf-8?`}
	addr := "turnmail+sw-1.0.a-b_c@example.org"
	subject := "Re: [sw-1] Small World — alice, bob & «ann»"
	c := &Commands{ReplyTo: addr, Subject: subject}
	var said []Block
	for _, s := range commands {
		c.Lines = append(c.Lines, Command{Text: s})
		said = append(said, P(Line{T("did you mean "), Reply(s, addr, subject), T("?")}))
	}
	d := &Doc{Blocks: append([]Block{c}, said...)}
	page := HTML(d)
	links := hrefRe.FindAllStringSubmatch(page, -1)
	if len(links) != 2*len(commands) {
		t.Fatalf("%d links for %d commands, each in the block and in a sentence:\n%s", len(links), len(commands), page)
	}
	if text := Text(d); !strings.Contains(text, "did you mean conquer 4?") || strings.Contains(text, "mailto:") {
		t.Errorf("the text part writes a command to send as:\n%s", text)
	}
	for i, l := range links {
		i %= len(commands)
		href := html.UnescapeString(l[1])
		gotAddr, gotSubject, gotBody, err := ParseMailto(href)
		if err != nil {
			t.Fatalf("%s: %v", href, err)
		}
		if gotAddr != addr || gotSubject != subject || gotBody != commands[i] {
			t.Errorf("link %q parses to %q %q %q, want %q %q %q", href, gotAddr, gotSubject, gotBody, addr, subject, commands[i])
		}
		if html.UnescapeString(l[2]) != commands[i] {
			t.Errorf("link text %q, want %q", l[2], commands[i])
		}
		if strings.ContainsAny(href[len("mailto:"):], " <>\"\r\n&#") && !strings.Contains(href, "&body=") {
			t.Errorf("unescaped characters in %q", href)
		}
	}
}

// TestPara_onlyOnePart: a paragraph for one part is in that part alone, and leaves
// no blank line where it is not.
func TestPara_onlyOnePart(t *testing.T) {
	d := &Doc{Blocks: []Block{
		P(L("first")),
		&Para{Only: HTMLPart, Lines: []Line{{A("the page", "https://example.org/p/x")}}},
		&Para{Only: TextPart, Lines: []Line{L("also"), {A("On the web", "https://example.org/p/x")}}},
		P(L("last")),
	}}
	if got, want := Text(d), "first\n\nalso\nOn the web: https://example.org/p/x\n\nlast\n"; got != want {
		t.Errorf("text part:\n%s\nwant:\n%s", got, want)
	}
	h := HTML(d)
	if strings.Count(h, `href="https://example.org/p/x"`) != 1 || !strings.Contains(h, ">the page</a>") || strings.Contains(h, "also") || strings.Contains(h, "On the web") {
		t.Errorf("HTML part shows the text part's paragraph or misses its own:\n%s", h)
	}
}
