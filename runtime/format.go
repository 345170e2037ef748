package runtime

import (
	"fmt"
	"net/netip"
	"time"
)

// Format checks, following the RFCs JSON Schema names for each format:
//
//   - "date-time": RFC 3339 section 5.6 date-time. "T" and "Z" may be
//     lowercase, as the RFC allows; the offset is Z or +-hh:mm within
//     +-23:59; fractional seconds of any length; second 60 is accepted
//     only where a leap second can fall, 23:59:60 in UTC (the date is not
//     checked against the table of leap seconds).
//   - "date": RFC 3339 full-date, a real calendar day.
//   - "uri": an RFC 3986 URI: a scheme, then only URI characters (no
//     spaces, no `<`, `>`, `"`, `{`, `}`, `|`, `\`, `^` or backquote, no
//     raw non-ASCII), well-formed percent-encoding, brackets only around
//     an IP literal host, a numeric port. Relative references are not
//     URIs.
//   - "email": an RFC 5321 Mailbox, as JSON Schema defines "email": an
//     ASCII dot-string or quoted local part of at most 64 octets, "@", and
//     a domain of letter-digit-hyphen labels or an address literal
//     ([IPv4], [IPv6:...]), at most 254 octets in all. Non-ASCII
//     addresses are "idn-email", a different format.

// validFormat reports whether v is valid in format ("email", "uri",
// "date" or "date-time"); an unknown format accepts every value.
func validFormat(format, v string) bool { return checkFormat(format, v) == "" }

// checkFormat returns why v is not valid in format, or "".
func checkFormat(format, v string) string {
	switch format {
	case "email":
		if !isEmail(v) {
			return quote(v) + " is not an email address"
		}
	case "uri":
		if !isURI(v) {
			return quote(v) + " is not an absolute URI"
		}
	case "date":
		if !isFullDate(v) {
			return quote(v) + " is not a date (YYYY-MM-DD)"
		}
	case "date-time":
		if !isDateTime(v) {
			return quote(v) + " is not a date-time (RFC 3339)"
		}
	}
	return ""
}

func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// isFullDate: date-fullyear "-" date-month "-" date-mday (RFC 3339).
func isFullDate(v string) bool {
	if len(v) != 10 || v[4] != '-' || v[7] != '-' {
		return false
	}
	y, ok1 := digits(v[0:4])
	m, ok2 := digits(v[5:7])
	d, ok3 := digits(v[8:10])
	return ok1 && ok2 && ok3 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// isDateTime: full-date ("T"/"t") partial-time time-offset (RFC 3339
// section 5.6; lowercase allowed by its section 5.6 note).
func isDateTime(v string) bool {
	if len(v) < 20 || !isFullDate(v[:10]) || (v[10] != 'T' && v[10] != 't') {
		return false
	}
	t := v[11:]
	if t[2] != ':' || t[5] != ':' {
		return false
	}
	h, ok1 := digits(t[0:2])
	mi, ok2 := digits(t[3:5])
	s, ok3 := digits(t[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || s > 60 {
		return false
	}
	t = t[8:]
	if t != "" && t[0] == '.' {
		i := 1
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		t = t[i:]
	}
	offset := 0 // minutes east of UTC
	switch {
	case t == "Z" || t == "z":
	case len(t) == 6 && (t[0] == '+' || t[0] == '-') && t[3] == ':':
		oh, ok1 := digits(t[1:3])
		om, ok2 := digits(t[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		offset = oh*60 + om
		if t[0] == '-' {
			offset = -offset
		}
	default:
		return false
	}
	if s == 60 { // a leap second is 23:59:60 UTC
		utc := ((h*60+mi-offset)%1440 + 1440) % 1440
		return utc == 23*60+59
	}
	return true
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

// uriChar reports whether c may appear unescaped in a URI component:
// unreserved, sub-delims, ":" and "@" (pchar without pct-encoded).
func uriChar(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	switch c {
	case '-', '.', '_', '~', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':', '@':
		return true
	}
	return false
}

// uriPart reports whether s consists of uriChar, percent-encodings and
// the bytes of extra.
func uriPart(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case uriChar(c):
		case indexByte(extra, c):
		default:
			return false
		}
	}
	return true
}

func indexByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// isURI: scheme ":" hier-part [ "?" query ] [ "#" fragment ] (RFC 3986
// section 3).
func isURI(v string) bool {
	colon := -1
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == ':' {
			colon = i
			break
		}
		if !(isAlpha(c) || i > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	if colon <= 0 {
		return false
	}
	rest := v[colon+1:]
	if i := firstOf(rest, '#'); i >= 0 {
		if !uriPart(rest[i+1:], "/?") {
			return false
		}
		rest = rest[:i]
	}
	if i := firstOf(rest, '?'); i >= 0 {
		if !uriPart(rest[i+1:], "/?") {
			return false
		}
		rest = rest[:i]
	}
	if len(rest) >= 2 && rest[0] == '/' && rest[1] == '/' {
		rest = rest[2:]
		end := firstOf(rest, '/')
		if end < 0 {
			end = len(rest)
		}
		if !isAuthority(rest[:end]) {
			return false
		}
		rest = rest[end:]
	}
	return uriPart(rest, "/")
}

func firstOf(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// isAuthority: [ userinfo "@" ] host [ ":" port ].
func isAuthority(a string) bool {
	if at := lastOf(a, '@'); at >= 0 {
		if !uriPart(a[:at], "") || firstOf(a[:at], '@') >= 0 {
			return false
		}
		a = a[at+1:]
	}
	host := a
	if len(a) > 0 && a[0] == '[' {
		end := firstOf(a, ']')
		if end < 0 || !isIPLiteral(a[1:end]) {
			return false
		}
		host, a = "", a[end+1:]
		if a != "" && a[0] != ':' {
			return false
		}
	} else if c := lastOf(a, ':'); c >= 0 {
		host, a = a[:c], a[c:]
	} else {
		a = ""
	}
	if a != "" { // ":" port
		for i := 1; i < len(a); i++ {
			if !isDigit(a[i]) {
				return false
			}
		}
	}
	// reg-name or IPv4address: unreserved, pct-encoded, sub-delims.
	for i := 0; i < len(host); i++ {
		if host[i] == ':' || host[i] == '@' {
			return false
		}
	}
	return uriPart(host, "")
}

func lastOf(s string, c byte) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// isIPLiteral: IPv6address / IPvFuture (RFC 3986 section 3.2.2), without
// a zone.
func isIPLiteral(s string) bool {
	if len(s) > 1 && (s[0] == 'v' || s[0] == 'V') {
		dot := firstOf(s, '.')
		if dot < 2 || dot == len(s)-1 {
			return false
		}
		for i := 1; i < dot; i++ {
			if !isHex(s[i]) {
				return false
			}
		}
		for i := dot + 1; i < len(s); i++ {
			if !uriChar(s[i]) || s[i] == '@' {
				return false
			}
		}
		return true
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && a.Zone() == ""
}

// isEmail: Mailbox = Local-part "@" ( Domain / address-literal ) (RFC
// 5321 section 4.1.2), at most 254 octets (a path is at most 256,
// including "<" and ">").
func isEmail(v string) bool {
	if len(v) > 254 {
		return false
	}
	at := lastOf(v, '@')
	if at <= 0 || at > 64 && v[0] != '"' {
		return false
	}
	local, domain := v[:at], v[at+1:]
	if len(local) > 64 || !(isDotString(local) || isQuotedString(local)) {
		return false
	}
	if len(domain) > 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		return isAddressLiteral(domain[1 : len(domain)-1])
	}
	return isDomain(domain)
}

func atext(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '/', '=', '?', '^', '_', '`', '{', '|', '}', '~':
		return true
	}
	return false
}

// isDotString: Atom *("." Atom).
func isDotString(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			if s[i-1] == '.' {
				return false
			}
		} else if !atext(s[i]) {
			return false
		}
	}
	return true
}

// isQuotedString: DQUOTE *( qtextSMTP / quoted-pairSMTP ) DQUOTE.
func isQuotedString(s string) bool {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
			if i >= len(s)-1 || s[i] < 32 || s[i] > 126 {
				return false
			}
		case c == '"' || c < 32 || c > 126:
			return false
		}
	}
	return true
}

// isDomain: sub-domain *("." sub-domain), each Let-dig [Ldh-str] of at
// most 63 octets, at most 255 in all.
func isDomain(d string) bool {
	if d == "" || len(d) > 255 {
		return false
	}
	start := 0
	for i := 0; i <= len(d); i++ {
		if i < len(d) && d[i] != '.' {
			c := d[i]
			if !(isAlpha(c) || isDigit(c) || c == '-') {
				return false
			}
			continue
		}
		label := d[start:i]
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		start = i + 1
	}
	return true
}

// isAddressLiteral: IPv4-address-literal / IPv6-address-literal /
// General-address-literal, between the brackets.
func isAddressLiteral(s string) bool {
	if len(s) > 5 && (s[:5] == "IPv6:" || s[:5] == "ipv6:") {
		a, err := netip.ParseAddr(s[5:])
		return err == nil && a.Is6() && a.Zone() == ""
	}
	if c := firstOf(s, ':'); c > 0 {
		// General-address-literal: Standardized-tag ":" 1*dcontent.
		tag, content := s[:c], s[c+1:]
		if !isDomain(tag) || content == "" || tag[len(tag)-1] == '-' {
			return false
		}
		for i := 0; i < len(content); i++ {
			if ch := content[i]; ch < 33 || ch > 126 || ch == '[' || ch == '\\' || ch == ']' {
				return false
			}
		}
		return true
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

// parseFormatTime parses s, valid in format ("date" or else
// "date-time") by validFormat, as a time: a date at 00:00 UTC; a
// date-time with lowercase "t"/"z" as uppercase, and a leap second
// (23:59:60 UTC) as the first instant of the next day, since time.Time
// has no leap seconds.
func parseFormatTime(format, s string) (time.Time, error) {
	if format == "date" {
		if !isFullDate(s) {
			return time.Time{}, fmt.Errorf("%s is not a date (YYYY-MM-DD)", quote(s))
		}
		return time.Parse(time.DateOnly, s)
	}
	if !isDateTime(s) {
		return time.Time{}, fmt.Errorf("%s is not a date-time (RFC 3339)", quote(s))
	}
	b := []byte(s)
	b[10] = 'T'
	if last := len(b) - 1; b[last] == 'z' {
		b[last] = 'Z'
	}
	leap := b[17] == '6' && b[18] == '0'
	if leap {
		b[17] = '5'
		b[18] = '9'
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if leap {
		t = t.Add(time.Second)
	}
	return t, err
}
