package compose

import (
	"fmt"
	"net/mail"
	"strings"
)

// Limits of what turnmail sends mail to and echoes in threading headers.
const (
	// MaxAddressLen is the longest usable address (RFC 5321's 256-octet path less
	// the angle brackets).
	MaxAddressLen = 254
	// MaxLocalLen is the longest usable local part (RFC 5321).
	MaxLocalLen = 64
	// MaxMessageIDLen is the longest message id echoed in In-Reply-To or
	// References, without its angle brackets.
	MaxMessageIDLen = 250
)

// AddressError says why an address cannot receive turnmail's mail. It wraps
// ErrInvalid.
type AddressError struct {
	Address string // the address as given
	Reason  string // what is wrong with it, for a person: "it contains a space"
	// Format and Args are Reason as an English fmt format and its arguments, for a
	// message catalogue to say it in another language.
	Format string
	Args   []any
}

// problem is what is wrong with an address: a format and its arguments.
type problem struct {
	format string
	args   []any
}

// why returns the problem of a format and its arguments.
func why(format string, args ...any) *problem { return &problem{format, args} }

// errorFor returns the AddressError of address s with problem p.
func (p *problem) errorFor(s string) *AddressError {
	return &AddressError{Address: s, Reason: fmt.Sprintf(p.format, p.args...), Format: p.format, Args: p.args}
}

func (e *AddressError) Error() string {
	return fmt.Sprintf("address %q cannot be used: %s", e.Address, e.Reason)
}

// Unwrap returns ErrInvalid.
func (e *AddressError) Unwrap() error { return ErrInvalid }

// atext are the characters of an RFC 5322 atom besides letters and digits.
const atext = "!#$%&'*+-/=?^_`{|}~"

// CheckAddress reports whether addr (an addr-spec, no display name or angle
// brackets) is usable as a recipient: a dot-atom local part of ASCII letters,
// digits and !#$%&'*+-/=?^_`{|}~ (no quoted local parts, spaces or control
// characters; dots only between characters), "@", and a host name of ASCII
// letter, digit and hyphen labels; at most MaxLocalLen octets before the "@"
// and MaxAddressLen in all. Build refuses any other address, so an address that
// passes never makes Build fail. The error is an *AddressError.
func CheckAddress(addr string) error {
	if p := addressProblem(addr); p != nil {
		return p.errorFor(addr)
	}
	return nil
}

// addressProblem says what makes addr unusable (nil when nothing does).
func addressProblem(addr string) *problem {
	for _, r := range addr {
		switch {
		case r == ' ' || r == '\t':
			return why("it contains a space")
		case r < ' ' || r == 0x7f:
			return why("it contains a control character")
		case r > '~':
			return why("it contains %q (only ASCII letters, digits and punctuation are accepted)", r)
		}
	}
	if len(addr) > MaxAddressLen {
		return why("it is longer than %d characters", MaxAddressLen)
	}
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return why("it has no @")
	}
	local, domain := addr[:at], addr[at+1:]
	switch {
	case local == "":
		return why("nothing comes before the @")
	case len(local) > MaxLocalLen:
		return why("the part before the @ is longer than %d characters", MaxLocalLen)
	case strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, ".."):
		return why("the part before the @ starts or ends with a dot, or has two in a row")
	}
	for _, c := range []byte(local) {
		if !isLetterDigit(c) && c != '.' && !strings.ContainsRune(atext, rune(c)) {
			return why("the part before the @ contains %q (quoted or unusual local parts are not accepted)", c)
		}
	}
	if domain == "" {
		return why("nothing comes after the @")
	}
	for _, label := range strings.Split(domain, ".") {
		if !hostLabel(label) {
			return why("%q is not a host name", domain)
		}
	}
	return nil
}

// hostLabel reports whether l is a DNS label: 1 to 63 letters, digits and
// hyphens, not starting or ending with a hyphen.
func hostLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for _, c := range []byte(l) {
		if !isLetterDigit(c) && c != '-' {
			return false
		}
	}
	return true
}

func isLetterDigit(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// ParseRecipient reads an address a person wrote ("carol@example.org" or
// "Carol <carol@example.org>") and returns it lower-cased, as turnmail stores
// addresses, when CheckAddress accepts it. The display name is dropped. The
// error is an *AddressError.
func ParseRecipient(s string) (string, error) {
	a, err := mail.ParseAddress(s)
	if err != nil {
		return "", why("it is not a mail address").errorFor(s)
	}
	if strings.Contains(s, `"@`) {
		return "", why("quoted local parts (\"…\"@) are not accepted").errorFor(s)
	}
	addr := strings.ToLower(a.Address)
	if p := addressProblem(addr); p != nil {
		return "", p.errorFor(s)
	}
	return addr, nil
}

// ValidMessageID reports whether id (with or without its angle brackets) is a
// message id turnmail may echo in In-Reply-To and References: id-left@id-right,
// each side of printable ASCII without white space, angle brackets, quotes,
// parentheses, commas, semicolons, colons, backslashes or square brackets, at
// most MaxMessageIDLen characters. Build refuses any other id.
func ValidMessageID(id string) bool {
	id = trimID(id)
	if id == "" || len(id) > MaxMessageIDLen {
		return false
	}
	left, right, ok := strings.Cut(id, "@")
	if !ok || left == "" || right == "" || strings.Contains(right, "@") {
		return false
	}
	for _, c := range []byte(id) {
		if c != '@' && c != '.' && !isLetterDigit(c) && !strings.ContainsRune(atext, rune(c)) {
			return false
		}
	}
	return true
}
