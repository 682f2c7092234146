package parse

import "testing"

func TestHTMLToText(t *testing.T) {
	cases := []struct{ name, html, want string }{
		{"gmail divs", `<div dir="ltr"><div>conquer 1</div><div>conquer 2</div><div><br></div><div>done</div></div>`, "conquer 1\nconquer 2\n\ndone"},
		{"br lines", `conquer 1<br>conquer 2<br/><br>done`, "conquer 1\nconquer 2\n\ndone"},
		{"paragraphs", `<p class="MsoNormal">conquer 1<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p><p class="MsoNormal">done</p>`, "conquer 1\n\ndone"},
		{"whitespace collapsed", "<div>\n  conquer\n   12  </div>", "conquer 12"},
		{"entities", `<div>a &amp; b &lt;c&gt; &quot;d&quot; &eacute; &#8364; &#x41;</div>`, `a & b <c> "d" é € A`},
		{"nbsp kept as space", `conquer&nbsp;&nbsp;1`, "conquer  1"},
		{"head style script dropped", `<html><head><title>t</title><style>.a{}</style></head><body><script>x()</script>conquer 1</body></html>`, "conquer 1"},
		{"hidden dropped", `<div style="display: none">preheader</div><span style="mso-hide:all">x</span><div hidden>y</div>conquer 1`, "conquer 1"},
		{"pre kept", "<pre>ally  bob\n  done</pre>", "ally  bob\n  done"},
		{"list items", `<ul><li>conquer 1</li><li>conquer 2</li></ul>`, "conquer 1\nconquer 2"},
		{"table cells", `<table><tr><td>camp</td><td>4=2</td></tr><tr><td>done</td></tr></table>`, "camp 4=2\ndone"},
		{"blockquote quoted", `conquer 1<blockquote type="cite">your turn<br>legal: x</blockquote>`, "conquer 1\n> your turn\n> legal: x"},
		{"nested blockquote", `a<blockquote>b<blockquote>c</blockquote>d</blockquote>e`, "a\n> b\n>> c\n> d\ne"},
		{"gmail quote div", `<div>conquer 1</div><div class="gmail_quote"><div class="gmail_attr">On Mon wrote:</div><blockquote class="gmail_quote">x</blockquote></div>`, "conquer 1\n> On Mon wrote:\n>> x"},
		{"outlook stop", `<div>conquer 1</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> x</div><div>old</div>`, "conquer 1"},
		{"outlook x_ prefix", `<div>conquer 1</div><div id="x_divRplyFwdMsg">From: x</div>`, "conquer 1"},
		{"signature dropped", `<div>conquer 1</div><div class="gmail_signature" data-smartmail="gmail_signature">Alice<br>CEO</div>`, "conquer 1"},
		{"thunderbird signature", `conquer 1<br><pre class="moz-signature" cols="72">-- \nAlice</pre>`, "conquer 1"},
		{"comment dropped", `conquer 1<!-- conquer 2 -->`, "conquer 1"},
		{"zero width", "con\u200bquer 1", "conquer 1"},
		{"malformed", `<div><p>conquer 1<div>conquer 2</b></i><br>done`, "conquer 1\nconquer 2\ndone"},
		{"empty", ``, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := HTMLToText(c.html); got != c.want {
				t.Errorf("HTMLToText(%q) =\n%q\nwant\n%q", c.html, got, c.want)
			}
		})
	}
}

// TestHTMLReplies runs reply extraction over the HTML that clients send.
func TestHTMLReplies(t *testing.T) {
	cases := []struct{ name, html, want string }{
		{"gmail", `<div dir="ltr">conquer 12<div>done</div></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, Jan 6, 2025 at 11:00 AM turnmail &lt;game@t.example&gt; wrote:<br></div><blockquote class="gmail_quote"><div>your turn</div></blockquote></div>`, "conquer 12\ndone"},
		{"apple", `<html><body dir="auto">conquer 12<div>done</div><div><br><blockquote type="cite">On 6 Jan 2025, at 11:00, turnmail &lt;game@t.example&gt; wrote:<br><br></blockquote></div><blockquote type="cite"><div>your turn</div></blockquote></body></html>`, "conquer 12\ndone"},
		{"apple attribution outside", `conquer 12<div>done</div><div><br></div><div>On 6 Jan 2025, at 11:00, turnmail &lt;game@t.example&gt; wrote:</div><blockquote type="cite"><div>your turn</div></blockquote>`, "conquer 12\ndone"},
		{"thunderbird", `<p>conquer 12<br>done</p><div class="moz-cite-prefix">On 06/01/2025 11:00, turnmail wrote:<br></div><blockquote type="cite" cite="mid:x@t.example">your turn</blockquote><pre class="moz-signature">-- Alice</pre>`, "conquer 12\ndone"},
		{"thunderbird bottom", `<div class="moz-cite-prefix">On 06/01/2025 11:00, turnmail wrote:<br></div><blockquote type="cite">your turn</blockquote><p>conquer 12<br>done</p>`, "conquer 12\ndone"},
		{"outlook desktop", `<div class="WordSection1"><p class="MsoNormal">conquer 12<o:p></o:p></p><p class="MsoNormal">done<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b>Da:</b> turnmail &lt;game@t.example&gt; <br><b>Inviato:</b> lunedì 6 gennaio 2025 11:00<br><b>A:</b> Mario<br><b>Oggetto:</b> partita 7<o:p></o:p></p></div></div><p class="MsoNormal">tocca a te</p></div>`, "conquer 12\ndone"},
		{"outlook web", `<div>conquer 12</div><div>done</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg"><b>From:</b> turnmail</div>`, "conquer 12\ndone"},
		{"yahoo", `<div class="yahoo-style-wrap"><div>conquer 12</div><div>done</div></div><div id="yahoo_quoted_123" class="yahoo_quoted"><div>On Monday, January 6, 2025, 11:00 AM, turnmail wrote:</div><div>your turn</div></div>`, "conquer 12\ndone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ExtractReply(HTMLToText(c.html)); got != c.want {
				t.Errorf("reply of %q =\n%q\nwant\n%q\n(text:\n%s)", c.html, got, c.want, HTMLToText(c.html))
			}
		})
	}
}
