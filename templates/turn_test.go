package templates

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/templates/doc"
)

// stateSamples are the state mails of the golden samples and of the real views
// (realSamples), in both languages.
func stateSamples(t *testing.T) []sample {
	t.Helper()
	var out []sample
	for _, s := range append(append(samples, italianSamples()...), realSamples(t)...) {
		if _, ok := s.data.(State); ok {
			out = append(out, s)
		}
	}
	return out
}

// TestRender_turnFirst: every state mail starts with whose move it is and until
// when — the first line of the text part, the first text of the HTML part (its
// hidden preheader, which the inbox list shows) and its first paragraph — then
// what happened since the reader's last mail, before the board and the commands.
func TestRender_turnFirst(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	preheader := regexp.MustCompile(`<body>\n<div style="display:none;[^"]*">([^<]*)</div>\n<p class="turn"><strong>([^<]*)</strong></p>`)
	checked := 0
	for _, s := range stateSamples(t) {
		st := s.data.(State)
		text, page, err := set.Render(s.kind, st)
		if err != nil {
			t.Fatal(err)
		}
		turn := set.words(st.Lang).turn(st.YourTurn, st.ToAct, st.Deadline, st.Finished, st.Winners)
		if first, _, _ := strings.Cut(text, "\n"); first != turn {
			t.Errorf("%s: the text part starts with %q, want %q", s.name, first, turn)
		}
		m := preheader.FindStringSubmatch(page)
		switch {
		case m == nil:
			t.Errorf("%s: the HTML part does not start with the preheader and the turn:\n%s", s.name, page)
		case !strings.HasPrefix(html.UnescapeString(m[1]), turn) || html.UnescapeString(m[2]) != turn:
			t.Errorf("%s: preheader %q, first paragraph %q; want both to start with %q", s.name, m[1], m[2], turn)
		}
		if st.YourTurn && st.Deadline != "" && !strings.Contains(turn, st.Deadline) {
			t.Errorf("%s: the turn %q does not say the deadline %q", s.name, turn, st.Deadline)
		}
		// What happened comes before the board and the commands.
		account := set.words(st.Lang).t("Since your last mail:")
		if len(st.Moves) > 0 && st.MovesCut == 0 {
			at := strings.Index(text, account)
			commands := strings.Index(text, "\n"+doc.CommandIndent)
			if at < 0 || commands >= 0 && commands < at {
				t.Errorf("%s: what happened (at %d) is not before the commands (at %d):\n%s", s.name, at, commands, text)
			}
		}
		checked++
	}
	if checked < 50 {
		t.Errorf("only %d state mails checked", checked)
	}
}

// hrefRe finds the links of an HTML part.
var hrefRe = regexp.MustCompile(`<a href="([^"]*)">([^<]*)</a>`)

// TestRender_commandLinks: in the HTML part of every state mail, refusal and notice
// that lists commands, each command the reader may send is one link, and the links
// parse back (RFC 6068) to exactly the commands listed — Legal and AnyTime, no
// other — each to the reader's reply address with the game's subject; a typo's
// suggestion ("did you mean conquer 4?", "did you mean join ta-k3p2?") is such a
// link too, first.
func TestRender_commandLinks(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	checked, suggested := 0, 0
	for _, s := range slices.Concat(samples, italianSamples(), italianFrame, realSamples(t)) {
		var commands []string
		var replyTo string
		switch d := s.data.(type) {
		case State:
			if d.Finished {
				continue
			}
			commands, replyTo = append(slices.Clone(d.Legal), d.AnyTime...), d.ReplyTo
		case Refusal:
			commands, replyTo = d.Legal, d.ReplyTo
			if d.Error != nil && d.Error.Suggest != "" {
				commands = append([]string{d.Error.Suggest}, commands...) // the refused line's suggestion first
				suggested++
			}
		case Notice:
			switch {
			case d.Kind == Error && d.Suggest != "":
				commands, replyTo = []string{d.Suggest}, d.ReplyTo
				suggested++
			case d.Kind == Legal || d.Kind == Reminder:
				commands, replyTo = d.Legal, d.ReplyTo
			default:
				continue
			}
		case Lobby:
			for _, a := range d.Answers {
				if a.Suggest != "" {
					commands, replyTo = append(commands, a.Suggest), a.ReplyTo
					suggested++
				}
			}
		default:
			continue
		}
		if len(commands) == 0 || replyTo == "" {
			continue
		}
		subject, err := set.Subject(s.kind, s.data)
		if err != nil {
			t.Fatal(err)
		}
		_, page, err := set.Render(s.kind, s.data)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range hrefRe.FindAllStringSubmatch(page, -1) {
			if strings.HasPrefix(l[1], "https://") {
				continue // the reader's page of the game (TestRender_pageLink)
			}
			addr, subj, body, err := doc.ParseMailto(html.UnescapeString(l[1]))
			if err != nil {
				t.Errorf("%s: link %q: %v", s.name, l[1], err)
				continue
			}
			if addr != replyTo || subj != "Re: "+subject {
				t.Errorf("%s: link to %q with subject %q, want %q and %q", s.name, addr, subj, replyTo, "Re: "+subject)
			}
			if body != html.UnescapeString(l[2]) {
				t.Errorf("%s: link %q sends %q", s.name, l[2], body)
			}
			got = append(got, body)
		}
		if !slices.Equal(got, commands) {
			t.Errorf("%s: the links send %q, want the commands %q", s.name, got, commands)
		}
		checked++
	}
	if checked < 30 || suggested < 4 {
		t.Errorf("only %d mails with commands checked, %d with a typo's suggestion", checked, suggested)
	}
}

// TestRender_pageLink: a state mail with the reader's web page (issue 25) links it
// after the picture and before the commands in HTML, and gives its address at the
// end of the text part's details (where it costs no line at the top), in the
// reader's language; an address that is not a web page is
// never a link; a finished game's mail says the replay file attached.
func TestRender_pageLink(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range stateSamples(t) {
		st := s.data.(State)
		if st.Page == "" || st.Finished {
			continue
		}
		text, page, err := set.Render(s.kind, st)
		if err != nil {
			t.Fatal(err)
		}
		w := set.words(st.Lang)
		label := w.t("See the whole board, and every move, on the web")
		// The text part: the address on the line after "Also: map, rules, …", the
		// last of the details (for an observer, who has no details, after the
		// picture's place).
		also := regexp.QuoteMeta(strings.SplitN(w.t("Also: %s (the whole board), %s, %s, %s.", "", "", "", ""), " ", 2)[0])
		want := also + `[^\n]*\n` + regexp.QuoteMeta(w.t("On the web")) + `:\s+` + regexp.QuoteMeta(st.Page) + "\n"
		if st.Observer {
			want = regexp.QuoteMeta(label) + `:\s+` + regexp.QuoteMeta(st.Page) + "\n"
		}
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("%s: the text part has no page's line %q:\n%s", s.name, want, text)
		}
		// The HTML part: the link after the picture, before the commands.
		link := strings.Index(page, `<a href="`+html.EscapeString(st.Page)+`">`+html.EscapeString(label)+`</a>`)
		commands := strings.Index(page, `href="mailto:`) // the first command's link
		if link < 0 || commands >= 0 && commands < link || strings.Count(page, html.EscapeString(st.Page)) != 1 {
			t.Errorf("%s: the HTML part does not link %s as %q once before the commands (link at %d, commands at %d)", s.name, st.Page, label, link, commands)
		}
		for _, bad := range []string{"javascript:alert(1)", "https://games.example/p/x\" onmouseover=\"x", "data:text/html,x"} {
			st.Page = bad
			_, page, err := set.Render(s.kind, st)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(page, `href="`+html.EscapeString(bad)) || strings.Contains(page, "onmouseover=") {
				t.Errorf("%s: %q is linked", s.name, bad)
			}
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d mails with a page checked", checked)
	}
	for _, lang := range []string{"en", "it"} {
		st := State{Game: Game{ID: "sw-abcd", Kind: "smallworld", Title: "Small World"}, Lang: lang, Finished: true, Winners: []string{"ann"}, Replay: &Attachment{Name: "sw-abcd.html"}}
		text, page, err := set.Render("state", st)
		if err != nil {
			t.Fatal(err)
		}
		want := set.words(lang).t("The whole game, move by move, is attached as %s: open it in any browser.", "sw-abcd.html")
		flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		if !strings.Contains(flat(text), want) || !strings.Contains(flat(page), html.EscapeString(want)) {
			t.Errorf("%s: the finished game's mail does not say %q:\n%s", lang, want, text)
		}
	}
}

// TestRender_refusalBoard: a refusal shows the board as a state mail with the same
// view does (the reader's regions, the players, the heroes), so that the reader can
// retry without the previous mail, then what they may send; without a view it has
// no board; it starts with the refusal and why.
func TestRender_refusalBoard(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind string
		view map[string]any
		want string
	}{
		{"smallworld", loadView("smallworld.view.json"), "Your regions: "},
		{"underground", loadView("underground.view.json"), "Your regions: "},
		{"dungeoneer", loadView("dungeoneer.view.json"), "Heroes:"},
		{"tally", map[string]any{"turn": 2.0, "players": []any{map[string]any{"name": "ann", "score": 3.0}}}, "  - ann: 3"},
		{"smallworld", nil, ""},
	} {
		r := Refusal{Game: Game{ID: "xx-1", Kind: c.kind, Title: GameTitle(c.kind), Players: []string{"ann", "ben"}}, Player: "ann",
			Error: &LineError{Line: Line{N: 1, Text: "conquer 99"}, Reason: "there is no region 99"}, Legal: []string{"done"}, View: c.view,
			ReplyTo: "turnmail+xx-1.0.x@example.org"}
		text, _, err := set.Render("refusal", r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(text, "Your move was not applied\n\nNot applied — line 1: conquer 99\nthere is no region 99\n") {
			t.Errorf("%s: the refusal does not start with what was refused and why:\n%s", c.kind, text)
		}
		board, commands := strings.Index(text, c.want), strings.Index(text, "What you can send now:")
		switch {
		case c.want == "" && (strings.Contains(text, "Your regions") || strings.Contains(text, "Game turn")):
			t.Errorf("a refusal without a view shows a board:\n%s", text)
		case c.want != "" && (board < 0 || board > commands):
			t.Errorf("%s: no board (%q) before the commands:\n%s", c.kind, c.want, text)
		case commands < 0:
			t.Errorf("%s: no commands:\n%s", c.kind, text)
		}
	}
}

// TestRender_asked: the paragraph that asks the reader out of turn is sentences in
// both languages: why, with a capital (but a name as its player wrote it) and a full
// stop, then what is done by the deadline without an answer, after a comma.
func TestRender_asked(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang, deadline string
		asked          Asked
		want           []string
	}{
		{"en", "Fri 27 Nov 18:53 UTC", Asked{Why: "every player bids coins in secret for the first turn: the highest bid pays and chooses who plays first", Otherwise: "you bid 0 coins", Order: "respond auto"},
			[]string{"Every player bids coins in secret for the first turn: the highest bid pays and chooses who plays first.", "Your move — by Fri 27 Nov 18:53 UTC\n", "If you do not answer in time, you bid 0 coins.", "To have it done so every time, send: respond auto"}},
		{"it", "ven 27 nov 18:53 UTC", Asked{Why: "le carte di bob possono colpirti: rispondi, o passa", Otherwise: "passi"},
			[]string{"Le carte di bob possono colpirti: rispondi, o passa.", "Tocca a te — entro ven 27 nov 18:53 UTC\n", "Se non rispondi in tempo, passi."}},
		{"it", "", Asked{Why: "bob ha conquistato la tua regione 14: rischiera i segnalini che hai in mano (1 segnalino) sulle regioni che ti restano (18, 19, 20)", Otherwise: "vengono piazzati automaticamente: +1 nella regione 18 (ora 2)"},
			[]string{"bob ha conquistato la tua regione 14: rischiera i segnalini che hai in mano (1 segnalino) sulle regioni che ti restano (18, 19, 20).", "Se non rispondi, vengono piazzati automaticamente: +1 nella regione 18 (ora 2)."}},
		{"en", "", Asked{Why: "Éric's cards may strike you: respond, or pass!", Otherwise: "you pass"},
			[]string{"Éric's cards may strike you: respond, or pass!\n", "If you do not answer, you pass."}},
	}
	for _, tt := range tests {
		st := State{Game: Game{ID: "sw-ab12", Kind: "tally", Title: "tally", Players: []string{"alice", "bob", "Éric"}}, Player: "alice",
			ToAct: []string{"alice"}, YourTurn: true, Deadline: tt.deadline, Asked: &tt.asked, Lang: tt.lang, Legal: []string{"pass"},
			View: map[string]any{"turn": 1.0}}
		text, _, err := set.Render("state", st)
		if err != nil {
			t.Fatal(err)
		}
		oneLine := strings.Join(strings.Fields(text), " ")
		for _, w := range tt.want {
			if !strings.Contains(text, w) && !strings.Contains(oneLine, strings.Join(strings.Fields(w), " ")) {
				t.Errorf("%s: no %q in:\n%s", tt.lang, w, text)
			}
		}
	}
}

// TestRender_refusalTurnFirst: a refusal starts, as a state mail does, with whose
// move it is and until when — the text's first line, the preheader and the first
// paragraph — then the line refused; a game where nobody is to move says the move
// was not applied.
func TestRender_refusalTurnFirst(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	preheader := regexp.MustCompile(`<body>\n<div style="display:none;[^"]*">([^<]*)</div>\n<p class="turn"><strong>([^<]*)</strong></p>`)
	game := Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World", Players: []string{"alice", "bob"}}
	refused := &LineError{Line: Line{N: 1, Text: "conqure 5"}, Reason: "unknown command"}
	tests := []struct {
		name string
		r    Refusal
		turn string
	}{
		{"yours", Refusal{Game: game, Player: "bob", Error: refused, ToAct: []string{"bob"}, YourTurn: true, Deadline: "Sat 28 Nov 17:11 UTC", Legal: []string{"pick 1"}},
			"Your move — by Sat 28 Nov 17:11 UTC"},
		{"yours, Italian", Refusal{Game: game, Player: "bob", Error: refused, ToAct: []string{"bob"}, YourTurn: true, Deadline: "sab 28 nov 17:11 UTC", Legal: []string{"prendi 1"}, Lang: "it"},
			"Tocca a te — entro sab 28 nov 17:11 UTC"},
		{"another's", Refusal{Game: game, Player: "bob", Reason: "It is not your move.", ToAct: []string{"alice"}, Lang: "it"}, "Tocca ad alice"},
		{"nobody's", Refusal{Game: game, Player: "bob", Reason: "The game is over."}, "Your move was not applied"},
	}
	for _, tt := range tests {
		text, page, err := set.Render("refusal", tt.r)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(text, "\n"); first != tt.turn {
			t.Errorf("%s: the text starts with %q, want %q", tt.name, first, tt.turn)
		}
		m := preheader.FindStringSubmatch(page)
		if m == nil || !strings.HasPrefix(html.UnescapeString(m[1]), tt.turn) || html.UnescapeString(m[2]) != tt.turn {
			t.Errorf("%s: the HTML does not start with %q:\n%s", tt.name, tt.turn, page)
		}
		why := tt.r.Reason
		if tt.r.Error != nil {
			why = tt.r.Error.Reason
		}
		if at, turn := strings.Index(text, why), strings.Index(text, tt.turn); at < turn {
			t.Errorf("%s: why (%q) is not after the turn:\n%s", tt.name, why, text)
		}
	}
}

// TestRender_accountRepeats: what a player did several times in a row without
// changing anything is one line of the account with how many times, in both
// languages; the same words after something else, or with lines under them, stay
// lines of their own.
func TestRender_accountRepeats(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	same := func(text string) Move {
		return Move{Player: "bob", Command: "redeploy", Happened: []Happening{{Text: text}}}
	}
	scored := Move{Player: "bob", Command: "done", Happened: []Happening{{Text: "bob scored 3 coins", Details: []string{"regions: 3"}}}}
	moves := []Move{same("bob redeployed"), same("bob redeployed"), same("bob redeployed"), same("bob took region 4"), same("bob redeployed"), scored, scored}
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"  - bob redeployed (3 times)\n  - bob took region 4\n  - bob redeployed\n  - bob scored 3 coins\n      regions: 3\n  - bob scored 3 coins\n      regions: 3\n"}},
		{"it", []string{"  - bob redeployed (3 volte)\n"}},
	} {
		st := State{Game: Game{ID: "sw-ab12", Kind: "tally", Title: "tally", Players: []string{"alice", "bob"}}, Player: "alice",
			ToAct: []string{"alice"}, YourTurn: true, Lang: tt.lang, Legal: []string{"pass"}, Moves: moves, View: map[string]any{"turn": 1.0}}
		text, page, err := set.Render("state", st)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q in:\n%s", tt.lang, w, text)
			}
		}
		if tt.lang == "en" && !strings.Contains(page, "<li>bob redeployed (3 times)</li>") {
			t.Errorf("the HTML part does not count the repeats:\n%s", page)
		}
	}
}
