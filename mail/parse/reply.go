package parse

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file extracts the text a player wrote from the body of a reply: quoted
// history, attribution lines ("On … wrote:"), forwarded and Outlook header blocks,
// signatures and everything from a line "end" (or "fine") on are removed.
//
// The recognisers are tables of patterns (attributionPatterns, separatorPatterns,
// signaturePatterns, fromKeys/dateKeys/toKeys …); extend the tables, not the
// control flow.

// maxAttributionLines is how many consecutive lines an attribution may span
// ("On Tue, … John Doe" / "<john@example.org>" / "wrote:").
const maxAttributionLines = 3

// maxJoinedAttribution bounds the length of a joined attribution candidate so that
// long paragraphs are never tested as one.
const maxJoinedAttribution = 500

// attributionPattern recognises a reply attribution ("On … wrote:"), tested on one
// to maxAttributionLines lines joined with single spaces.
type attributionPattern struct {
	name string
	// hints: the lower-cased candidate must contain one of them before the
	// regular expression is tried (a cheap filter; every line is a candidate).
	hints []string
	re    *regexp.Regexp
	// needsDigit requires a digit (a date or time) in the candidate, to keep prose
	// that happens to end in "wrote:" from matching.
	needsDigit bool
}

var attributionPatterns = []attributionPattern{
	// English: "On Mon, 6 Jan 2025 at 12:00, Alice <a@example.org> wrote:",
	// Zoho: "---- On Wed, 24 Feb 2021 … john@example.org wrote ----".
	{"en", []string{"wrote"}, regexp.MustCompile(`(?i)^(?:-+\s*)?On\s.{4,}?\s*wrote\s*:?(?:\s*-+)?$`), true},
	// Italian: "Il giorno lun 6 gen 2025 alle ore 12:00 Alice <…> ha scritto:",
	// "Il 06/01/2025 12:00, Alice ha scritto:", "In data … ha scritto:".
	{"it", []string{"ha scritto"}, regexp.MustCompile(`(?i)^(?:Il giorno|Il|In data)\s.{4,}?\bha scritto\s*:?$`), false},
	// German: "Am 06.01.2025 um 12:00 schrieb Alice <…>:", "Am … hat Alice geschrieben:".
	{"de", []string{"schrieb"}, regexp.MustCompile(`(?i)^Am\s.{4,}?\bschrieb\b.*:$`), false},
	{"de2", []string{"geschrieben"}, regexp.MustCompile(`(?i)^Am\s.{4,}?\bgeschrieben\s*:$`), false},
	// French: "Le lun. 6 janv. 2025 à 12:00, Alice <…> a écrit :".
	{"fr", []string{"crit"}, regexp.MustCompile(`(?i)^Le\s.{4,}?\ba [ée]crit\s*:?$`), false},
	// Spanish: "El lun, 6 ene 2025 a las 12:00, Alice (<…>) escribió:".
	{"es", []string{"escrib"}, regexp.MustCompile(`(?i)^El\s.{4,}?\bescribi[óo]\s*:?$`), false},
	// Portuguese: "Em seg., 6 de jan. de 2025 às 12:00, Alice <…> escreveu:".
	{"pt", []string{"escreveu"}, regexp.MustCompile(`(?i)^Em\s.{4,}?\bescreveu\s*:?$`), false},
	// Dutch: "Op ma 6 jan. 2025 om 12:00 schreef Alice <…>:".
	{"nl", []string{"schreef"}, regexp.MustCompile(`(?i)^Op\s.{4,}?\bschreef\b.*:$`), false},
	// Norwegian, Danish, Swedish: "man. 6. jan. 2025 kl. 12:00 skrev Alice <…>:",
	// "Den 6 jan. 2025 kl. 12:00 skrev Alice <…>:".
	{"no-da-sv", []string{"skrev", "skreiv"}, regexp.MustCompile(`(?i)^.{4,}?\bskre(?:v|iv)\b.*:$`), true},
	// Finnish: "ma 6. tammik. 2025 klo 12.00 Alice <…> kirjoitti:".
	{"fi", []string{"kirjoitti"}, regexp.MustCompile(`(?i)^.{4,}?\bkirjoitti\s*:$`), true},
	// Polish: "W dniu 6.01.2025 o 12:00 Alice <…> napisał(a):", "Dnia … napisał:".
	{"pl", []string{"napisa"}, regexp.MustCompile(`(?i)^.{4,}?\bnapisa(?:ł|l)(?:\(a\)|a)?\s*:$`), true},
	// Czech/Slovak: "Dne 6. 1. 2025 12:00 Alice <…> napsal(a):".
	{"cs", []string{"napsal"}, regexp.MustCompile(`(?i)^.{4,}?\bnapsal(?:\(a\)|a)?\s*:$`), true},
	// Russian: "пн, 6 янв. 2025 г. в 12:00, Alice <…>:" is caught by "date+address";
	// the verb forms: "… Alice пишет:", "… Alice написал(а):".
	{"ru", []string{"пишет", "написал"}, regexp.MustCompile(`(?i)^.{4,}?(?:пишет|написал(?:\(а\)|а)?)\s*:$`), true},
	// Turkish: "6 Oca 2025 Pzt, 12:00 tarihinde Alice <…> şunu yazdı:".
	{"tr", []string{"yazdı"}, regexp.MustCompile(`(?i)^.{4,}?\byazdı\s*:$`), true},
	// Chinese and Japanese clients.
	{"zh", []string{"写道"}, regexp.MustCompile(`^.{4,}?写道[:：]$`), false},
	{"ja", []string{"のメッセージ", "が書きました"}, regexp.MustCompile(`^.{4,}?(?:のメッセージ|が書きました)[:：]$`), false},
	// Any language: a date or time, then an address, then a colon at the end:
	// "30.09.2017, 18.30, "John" <john@example.org>:",
	// "2017-11-24 16:32 GMT+01:00 Baptiste <b@example.org>:".
	{"date+address", []string{"@"}, regexp.MustCompile(`^.*?[\w.+'-]+@[\w-]+(?:\.[\w-]+)+\s*>?\s*\)?\s*:$`), true},
}

// quoteIntroPatterns recognise a one-line introduction of quoted text that is not
// specific enough to be an attribution on its own ("turnmail wrote:", mutt's
// "* turnmail <…> [2025-01-06 11:00]:"); it counts only directly above a quote.
var quoteIntroPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(?:\bwrote|\bwrites|\bha scritto|\bscrive|\bschrieb|\ba [ée]crit|\bescribi[óo]|\bescreveu|\bschreef|\bskrev|\bkirjoitti|\bnapisa[łl](?:\(a\))?|пишет|написал(?:\(а\))?)(?:\s.{0,80})?\s*:$`),
	regexp.MustCompile(`^\*\s.{1,200}\[[^\]]*\d[^\]]*\]\s*:$`),
}

// maxQuoteIntro bounds the length of a quote introduction.
const maxQuoteIntro = 300

// separatorPatterns are lines that start forwarded or quoted history in clients that
// do not prefix it with ">": "-----Original Message-----" and its translations,
// forwarded-message markers.
var separatorPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^[\s\-_=*]*(?:original message|ursprüngliche nachricht|oprindelig besked|message d'origine|messaggio originale|mensaje original|mensagem original|oorspronkelijk bericht|origineel bericht|opprinnelig melding|ursprungligt meddelande|alkuperäinen viesti|исходное сообщение|wiadomość oryginalna|původní zpráva|eredeti üzenet|reply message|原始邮件|元のメッセージ)[\s\-_=*]*$`),
	regexp.MustCompile(`(?i)^[\s\-_=*]*(?:forwarded message|weitergeleitete nachricht|message transféré|messaggio inoltrato|mensaje reenviado|mensagem encaminhada|mensagem reencaminhada|doorgestuurd bericht|videresendt (?:besked|meddelelse|melding)|vidarebefordrat meddelande|välitetty viesti|пересылаемое сообщение|przekazana wiadomość|转发的邮件|転送されたメッセージ)[\s\-_=*]*:?$`),
	regexp.MustCompile(`(?i)^(?:begin forwarded message|inizio messaggio inoltrato|anfang der weitergeleiteten (?:nachricht|e-mail)|début du message (?:réexpédié|transféré)|comienzo del mensaje reenviado|início da mensagem (?:reencaminhada|encaminhada)|begin doorgestuurd bericht|början av vidarebefordrat meddelande|start på videresendt (?:besked|melding))\s*:$`),
	// A line of underscores: Outlook's "________________________________" above a
	// From:/Sent: block, and mailing-list footers ("__" / "_______").
	regexp.MustCompile(`^\s*_{2,}\s*$`),
}

// Header-block keys (Outlook, Apple Mail, webmail "From:/Sent:/To:/Subject:"
// blocks), lower case, by role. A block starts with a from key and has, within
// headerBlockSpan lines, a date key, or an address in the from line and a to or
// subject key (so that "From: region 3" / "To: region 5" in prose is no block).
var (
	fromKeys = keySet("from", "de", "von", "da", "van", "fra", "från", "od", "от", "от кого",
		"lähettäjä", "feladó", "remetente", "expéditeur", "mittente", "afzender", "avsändare",
		"afsender", "nadawca", "发件人", "寄件者", "差出人")
	dateKeys = keySet("sent", "date", "envoyé", "envoyé le", "gesendet", "datum", "inviato",
		"data", "verzonden", "sendt", "skickat", "enviado", "enviada", "enviado el",
		"enviada em", "fecha", "отправлено", "дата", "dato", "lähetetty", "päivämäärä",
		"wysłano", "wysłane", "odesláno", "发送时间", "日期", "送信日時", "message du",
		"date d'envoi")
	toKeys = keySet("to", "à", "a", "an", "aan", "til", "till", "para", "кому",
		"vastaanottaja", "do", "komu", "收件人", "宛先", "destinataire", "destinatario", "cc",
		"copie", "copie à", "kopie", "kopio", "копия", "抄送",
		"subject", "objet", "betreff", "oggetto", "onderwerp", "emne", "ämne", "asunto",
		"assunto", "тема", "aihe", "temat", "předmět", "主题", "件名", "sujet", "tárgy")
)

// headerBlockSpan is how many lines after a from line may hold the rest of a block.
const headerBlockSpan = 8

// separatorLine is a decoration-only line ("------", "====", " ____ ") that belongs to
// the history block below it.
var separatorLine = regexp.MustCompile(`^[\s\-_=*~]{2,}$`)

// signaturePattern recognises a line that starts a signature: it and everything after
// it are dropped.
type signaturePattern struct {
	re *regexp.Regexp
	// tail, when set, must accept the text after the match (a device or app name).
	tail func(string) bool
}

var signaturePatterns = []signaturePattern{
	// The "-- " delimiter (also without the space, mangled by many clients).
	{re: regexp.MustCompile(`^--$`)},
	// The signature block of an inline PGP-signed ("clearsigned") mail.
	{re: regexp.MustCompile(`^-----BEGIN PGP SIGNATURE-----$`)},
	// "-Name" sign-off directly under the text (github/email_reply_parser).
	{re: regexp.MustCompile(`^-\p{L}[\p{L}\p{M}.' ]{0,40}$`)},
	// Mobile and webmail footers: "Sent from my iPhone", "Sent from Yahoo Mail on
	// Android", "Get Outlook for iOS", and their translations.
	{re: regexp.MustCompile(`^(?i:sent from) `), tail: englishDevice},
	{re: regexp.MustCompile(`^(?i:sent (?:with|using|via)) `), tail: englishDevice},
	{re: regexp.MustCompile(`(?i)^get outlook for (?:ios|android)\b`), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^(?:inviato|spedito) (?:da|dal|dalla|con|tramite) `), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^(?:gesendet|versendet|verschickt) (?:von|vom|mit|über) `), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^von meinem .{1,60} gesendet\.?$`), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^envoy[ée] (?:de|depuis|à partir de|a partir de|avec|par|du) `), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^enviad[oa] (?:desde|con|do|de|pelo|por|a partir do|a partir de|via) `), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^(?:verzonden|verstuurd) (?:vanaf|met|van|vanuit|via) `), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^(?:sendt fra|skickat från|skickades från|lähetetty) `), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^отправлено (?:с|из|со) `), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^(?:wysłane|wysłano) (?:z|ze|przez) `), tail: anyDevice},
	{re: regexp.MustCompile(`(?i)^odesláno z `), tail: anyDevice},
	{re: regexp.MustCompile(`^(?:发自我的|從我的|来自我的)`), tail: anyDevice},
	// Sign-offs that start a signature block ("Regards," then a name and a title).
	{re: regexp.MustCompile(`(?i)^(?:(?:best|kind|warm|warmest|with kind|many) )?regards[,.!]?$`)},
	{re: regexp.MustCompile(`(?i)^(?:cordiali|distinti|tanti|un) saluti?[,.!]?$`)},
	{re: regexp.MustCompile(`(?i)^mit (?:freundlichen|besten|herzlichen) gr(?:ü|ue)(?:ß|ss)en[,.!]?$`)},
	{re: regexp.MustCompile(`(?i)^(?:viele|beste|liebe|herzliche) gr(?:ü|ue)(?:ß|ss)e[,.!]?$`)},
	{re: regexp.MustCompile(`(?i)^(?:cordialement|bien cordialement|bien à vous|salutations distinguées)[,.!]?$`)},
	{re: regexp.MustCompile(`(?i)^(?:saludos(?: cordiales)?|un saludo|atentamente|atenciosamente|cumprimentos)[,.!]?$`)},
	{re: regexp.MustCompile(`(?i)^(?:met )?vriendelijke groet(?:en)?[,.!]?$`)},
	{re: regexp.MustCompile(`(?i)^(?:med vänliga hälsningar|vänliga hälsningar|(?:med )?venlig hilsen|med vennlig hilsen|ystävällisin terveisin|с уважением)[,.!]?$`)},
}

// urlInAngles strips "<https://…>" link targets that plain-text parts of HTML mails
// append to link text ("Sent from TypeApp<http://…>").
var urlInAngles = regexp.MustCompile(`<[^<>]*>`)

// englishDevice accepts "my …" or a capitalised app or device name
// ("Sent from Yahoo Mail on Android"), but not prose ("Sent from a magnificent
// torch of pixels", "Sent from my desk, is much easier …").
func englishDevice(tail string) bool {
	t := strings.TrimSpace(urlInAngles.ReplaceAllString(tail, ""))
	if strings.HasPrefix(strings.ToLower(t), "my ") {
		return anyDevice(t)
	}
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.IsUpper(r) && anyDevice(t)
}

// anyDevice accepts a short name without sentence punctuation inside it.
func anyDevice(tail string) bool {
	t := strings.TrimSpace(urlInAngles.ReplaceAllString(tail, ""))
	t = strings.TrimSuffix(t, ".")
	if strings.ContainsAny(t, ",;!?") || strings.Contains(t, ". ") {
		return false
	}
	return len(strings.Fields(t)) <= 10
}

func keySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// lineKind is what a line of the body is, for the extractor.
type lineKind int

const (
	kindText lineKind = iota
	kindBlank
	kindQuote   // "> …"
	kindEnd     // "end" (Italian "fine"): stop reading
	kindHistory // separator or header block: history from here on
	kindSig     // signature from here on
)

// extractor holds the body's lines and caches what it learns about them, so that
// every rule runs once per line however often the scan looks back or ahead.
type extractor struct {
	lines []string
	kinds []lineKind // kinds[i]-1 is the kind of line i; 0: not yet known
	keys  []*string  // header keys, nil: not yet known
	attrs []int      // attrs[i]-1 is attribution(i); 0: not yet known
}

func newExtractor(body string) *extractor {
	lines := stripClearsign(splitLines(body))
	return &extractor{
		lines: lines,
		kinds: make([]lineKind, len(lines)),
		keys:  make([]*string, len(lines)),
		attrs: make([]int, len(lines)),
	}
}

// ExtractReply returns the text the sender wrote in a plain-text body: quoted
// history, attributions, forwarded and Outlook header blocks, signatures and
// everything from a line "end" on are removed; interior blank lines and comments
// are kept, trailing whitespace is trimmed from each line and blank lines from both
// ends.
//
// A top-posted reply (text first) ends at the first quote, attribution, header
// block or signature. A bottom-posted or interleaved reply (the body starts with
// quoted text) keeps the unquoted lines between quotes.
func ExtractReply(body string) string {
	e := newExtractor(body)
	kept := e.extract()
	return joinTrimmed(kept)
}

// splitLines normalises line ends and trims trailing white space from every line.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimPrefix(s, "\ufeff")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	return lines
}

// stripClearsign removes the armor header of an inline PGP-signed body
// ("-----BEGIN PGP SIGNED MESSAGE-----", "Hash: …", a blank line) and undoes its
// dash-escaping ("- -- " → "-- "); the signature block is cut as a signature.
func stripClearsign(lines []string) []string {
	first := 0
	for first < len(lines) && lines[first] == "" {
		first++
	}
	if first == len(lines) || lines[first] != "-----BEGIN PGP SIGNED MESSAGE-----" {
		return lines
	}
	i := first + 1
	for i < len(lines) && strings.HasPrefix(lines[i], "Hash:") {
		i++
	}
	if i < len(lines) && lines[i] == "" {
		i++
	}
	out := lines[i:]
	for j, l := range out {
		if l == "-----BEGIN PGP SIGNATURE-----" {
			break
		}
		if strings.HasPrefix(l, "- ") {
			out[j] = l[2:]
		}
	}
	return out
}

// joinTrimmed joins lines, dropping leading and trailing blank lines.
func joinTrimmed(lines []string) string {
	start, end := 0, len(lines)
	for start < end && lines[start] == "" {
		start++
	}
	for end > start && lines[end-1] == "" {
		end--
	}
	return strings.Join(lines[start:end], "\n")
}

func (e *extractor) extract() []string {
	// Decide between top posting and bottom posting from the first non-blank line.
	first := 0
	for first < len(e.lines) && e.lines[first] == "" {
		first++
	}
	if first == len(e.lines) {
		return nil
	}
	bottom := e.kind(first) == kindQuote
	if !bottom {
		if n := e.attribution(first); n > 0 && e.quoteFollows(first+n) {
			bottom = true
		}
	}
	if !bottom {
		return e.topPosted()
	}
	return e.bottomPosted()
}

// topPosted keeps the lines before the first sign of history or signature.
func (e *extractor) topPosted() []string {
	for i := range e.lines {
		k := e.kind(i)
		if k == kindHistory {
			i = e.historyStart(i)
		}
		if k == kindQuote || k == kindEnd || k == kindHistory || k == kindSig || e.attribution(i) > 0 {
			return e.lines[:e.backUp(i, k)]
		}
	}
	return e.lines
}

// bottomPosted drops quoted blocks (with their attributions) and keeps what is
// between them, until an end, a signature or unquoted history.
func (e *extractor) bottomPosted() []string {
	var kept []string
	var from []int // from[j] is the index in e.lines of kept[j]
	cut := func(i int, k lineKind) []string {
		j := len(kept)
		for j > 0 && from[j-1] >= i {
			j--
		}
		return kept[:e.backUpIn(kept[:j], k)]
	}
	for i := 0; i < len(e.lines); {
		switch k := e.kind(i); k {
		case kindQuote:
			// Skip the quoted block, blank lines inside it, and blank lines after it.
			for i < len(e.lines) && (e.lines[i] == "" || e.kind(i) == kindQuote) {
				i++
			}
			continue
		case kindHistory:
			return cut(e.historyStart(i), k)
		case kindEnd, kindSig:
			return cut(i, k)
		}
		if n := e.attribution(i); n > 0 {
			if !e.quoteFollows(i + n) {
				return cut(i, kindHistory)
			}
			i += n
			continue
		}
		kept = append(kept, e.lines[i])
		from = append(from, i)
		i++
	}
	return kept
}

// quoteFollows reports whether the first non-blank line from i on is quoted.
func (e *extractor) quoteFollows(i int) bool {
	for ; i < len(e.lines); i++ {
		if e.lines[i] != "" {
			return e.kind(i) == kindQuote
		}
	}
	return false
}

// backUp moves a cut at line i of e.lines up over the blank and decoration lines
// that belong to the history below ("_____" above an Outlook block).
func (e *extractor) backUp(i int, k lineKind) int {
	return e.backUpIn(e.lines[:i], k)
}

// backUpIn returns where kept lines end once the decoration lines above a cut of
// kind k are removed.
func (e *extractor) backUpIn(lines []string, k lineKind) int {
	i := len(lines)
	if k == kindEnd || k == kindSig {
		return i
	}
	for i > 0 && (lines[i-1] == "" || separatorLine.MatchString(lines[i-1])) {
		i--
	}
	return i
}

// kind classifies line i on its own (attributions span lines and are tested
// separately).
func (e *extractor) kind(i int) lineKind {
	if e.kinds[i] == 0 {
		e.kinds[i] = e.classify(i) + 1
	}
	return e.kinds[i] - 1
}

func (e *extractor) classify(i int) lineKind {
	line := e.lines[i]
	t := strings.TrimSpace(line)
	switch {
	case t == "":
		return kindBlank
	case strings.HasPrefix(t, ">"):
		return kindQuote
	case strings.EqualFold(t, "end") || strings.EqualFold(t, "fine"): // "fine" is Italian
		return kindEnd
	case e.isHistory(i, t):
		return kindHistory
	case isSignature(t):
		return kindSig
	}
	return kindText
}

func (e *extractor) isHistory(i int, t string) bool {
	return isSeparator(t) || e.headerBlockAt(i) >= 0
}

func isSeparator(t string) bool {
	for _, re := range separatorPatterns {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}

// historyStart returns the first line of the history that starts at line i: the top
// of its header block when the block has keys above its from line.
func (e *extractor) historyStart(i int) int {
	if start := e.headerBlockAt(i); start >= 0 && !isSeparator(strings.TrimSpace(e.lines[i])) {
		return start
	}
	return i
}

// headerBlockAt reports where a header block containing line i starts, or -1. Line
// i must be the block's from line; the block may start above it with other known
// keys ("Message du : …" / "De : …").
func (e *extractor) headerBlockAt(i int) int {
	if !fromKeys[e.key(i)] {
		return -1
	}
	hasAddress := strings.Contains(e.lines[i], "@")
	found := false
	for j := i + 1; j < len(e.lines) && j <= i+headerBlockSpan; j++ {
		if e.lines[j] == "" {
			break
		}
		key := e.key(j)
		if key == "" && !found {
			// A continuation of the from line (a long address wrapped).
			hasAddress = hasAddress || strings.Contains(e.lines[j], "@")
			continue
		}
		if dateKeys[key] || (toKeys[key] && hasAddress) {
			found = true
			break
		}
	}
	if !found {
		return -1
	}
	start := i
	for start > 0 && start > i-headerBlockSpan && dateKeys[e.key(start-1)] {
		start--
	}
	return start
}

// key returns the header key of line i (see headerKey).
func (e *extractor) key(i int) string {
	if e.keys[i] == nil {
		k := headerKey(e.lines[i])
		e.keys[i] = &k
	}
	return *e.keys[i]
}

// headerKey returns the lower-cased key of a "Key: value" line as Outlook and
// webmail write them — also indented or in bold ("*From:*") — or "" if the line
// is not one. A key is one to three words of letters.
func headerKey(line string) string {
	i := strings.IndexAny(line, ":：")
	if i < 0 || i > 64 {
		return ""
	}
	k := strings.TrimSpace(line[:i])
	k = strings.TrimSpace(strings.Trim(k, "*"))
	if k == "" || utf8.RuneCountInString(k) > 25 {
		return ""
	}
	for j, r := range k {
		switch {
		case unicode.IsLetter(r), unicode.Is(unicode.M, r):
		case j > 0 && strings.ContainsRune(" .'’-", r):
		default:
			return ""
		}
	}
	return strings.ToLower(strings.Join(strings.Fields(k), " "))
}

func isSignature(t string) bool {
	for _, p := range signaturePatterns {
		loc := p.re.FindStringIndex(t)
		if loc == nil {
			continue
		}
		if p.tail == nil || p.tail(t[loc[1]:]) {
			return true
		}
	}
	return false
}

// attribution returns how many lines starting at i form an attribution
// ("On … wrote:"), or 0.
func (e *extractor) attribution(i int) int {
	if e.attrs[i] == 0 {
		e.attrs[i] = e.findAttribution(i) + 1
	}
	return e.attrs[i] - 1
}

func (e *extractor) findAttribution(i int) int {
	if e.lines[i] == "" || strings.HasPrefix(strings.TrimSpace(e.lines[i]), ">") {
		return 0
	}
	if t := strings.TrimSpace(e.lines[i]); len(t) <= maxQuoteIntro && e.quoteFollows(i+1) {
		for _, re := range quoteIntroPatterns {
			if re.MatchString(t) {
				return 1
			}
		}
	}
	var b strings.Builder
	for n := 1; n <= maxAttributionLines && i+n-1 < len(e.lines); n++ {
		l := strings.TrimSpace(e.lines[i+n-1])
		// A later line may not be quoted, except for the ">:" that ends an
		// address wrapped by the client ("… <alice@example.org" / ">:").
		if l == "" || (n > 1 && strings.HasPrefix(l, ">") && !attributionTail.MatchString(l)) {
			break
		}
		if n > 1 {
			b.WriteByte(' ')
		}
		b.WriteString(l)
		if b.Len() > maxJoinedAttribution {
			break
		}
		if isAttribution(strings.Join(strings.Fields(b.String()), " ")) {
			return n
		}
	}
	return 0
}

// attributionTail is the end of an address wrapped onto its own line.
var attributionTail = regexp.MustCompile(`^>\s*\)?\s*:$`)

func isAttribution(s string) bool {
	// Every attribution ends in a colon, "wrote" (no colon) or dashes (Zoho).
	lower := strings.ToLower(s)
	if !strings.HasSuffix(lower, ":") && !strings.HasSuffix(lower, "：") &&
		!strings.HasSuffix(lower, "wrote") && !strings.HasSuffix(lower, "-") {
		return false
	}
	digit := strings.IndexFunc(s, unicode.IsDigit) >= 0
	for _, p := range attributionPatterns {
		if p.needsDigit && !digit {
			continue
		}
		hinted := false
		for _, h := range p.hints {
			if strings.Contains(lower, h) {
				hinted = true
				break
			}
		}
		if hinted && p.re.MatchString(s) {
			return true
		}
	}
	return false
}
