package runtime_test

import (
	"net/mail"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// Examples from RFC 3339 section 5.8, RFC 3986 sections 1.1.2 and 3, RFC
// 5321 section 4.1.2 and RFC 3696 section 3, the JSON Schema test suite's
// format tests, and the hostile answers of the security review.
var formatCases = []struct {
	format string
	valid  []string
	bad    []string
}{
	{"date-time", []string{
		"1985-04-12T23:20:50.52Z",         // RFC 3339 5.8
		"1996-12-19T16:39:57-08:00",       // RFC 3339 5.8
		"1990-12-31T23:59:60Z",            // RFC 3339 5.8, leap second
		"1990-12-31T15:59:60-08:00",       // RFC 3339 5.8, leap second west of UTC
		"1937-01-01T12:00:27.87+00:20",    // RFC 3339 5.8, Netherlands time
		"1985-04-12t23:20:50.52z",         // lowercase t and z (RFC 3339 5.6 note)
		"2026-02-28T00:00:00+23:59",       // largest offset
		"2024-02-29T00:00:00-23:59",       // leap day
		"2026-01-01T00:00:00.123456789Z",  // any fraction length
		"2026-01-01T00:00:00.1234567891Z", // longer than time.Parse keeps
	}, []string{
		"2026-01-01T00:00:00+24:00", // offset hour 24
		"2026-01-01T00:00:00+01:60", // offset minute 60
		"2026-01-01T24:00:00Z",
		"2026-01-01T23:60:00Z",
		"2026-01-01T23:59:61Z",
		"1998-12-31T22:59:60Z",     // leap second at the wrong hour
		"1998-12-31T23:58:60Z",     // leap second at the wrong minute
		"2026-02-29T00:00:00Z",     // not a leap year
		"2026-01-01 00:00:00Z",     // space instead of T
		"2026-01-01T00:00:00",      // no offset
		"2026-01-01T00:00:00.Z",    // empty fraction
		"2026-01-01T00:00:00+0100", // offset without colon
		"2026-01-01T00:00Z",        // no seconds
		"٢٠٢٦-01-01T00:00:00Z",     // non-ASCII digits
		"2026-1-01T00:00:00Z",
		"",
	}},
	{"date", []string{"1985-04-12", "2000-02-29", "2026-12-31", "0000-01-01"}, []string{
		"2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00",
		"2026-1-1", "20260101", "2026-01-01T00:00:00Z", " 2026-01-01", "",
	}},
	{"uri", []string{
		"ftp://ftp.is.co.za/rfc/rfc1808.txt", // RFC 3986 1.1.2
		"http://www.ietf.org/rfc/rfc2396.txt",
		"ldap://[2001:db8::7]/c=GB?objectClass?one",
		"mailto:John.Doe@example.com",
		"news:comp.infosystems.www.servers.unix",
		"tel:+1-816-555-1212",
		"telnet://192.0.2.16:80/",
		"urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
		"foo://example.com:8042/over/there?name=ferret#nose", // RFC 3986 3
		"http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]:80/",
		"http://[v1.fe80::a+en1]/",
		"http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
		"https://example.com/%E2%82%AC?q=%20#frag/?",
		"file:///etc/hosts",
		"x:",
	}, []string{
		"//example.com/path", // relative reference
		"/abs/path",
		"abc",
		"",
		":no-scheme",
		"1http://example.com",
		"bar,baz:foo",
		"http://exa mple.com/",
		"http://example.com/<script>",
		`http://example.com/"quoted"`,
		"http://example.com/a\tb",
		"http://例子.测试/",
		"https://example.com/ä",
		"http://example.com/%zz",
		"http://example.com/%4",
		"http://example.com/{x}",
		"http://example.com/a|b",
		`http://example.com\path`,
		"http://example.com/^",
		"http://example.com/`x`",
		"http://example.com/#a#b",
		"http://[::1/",
		"http://[fe80::1%25en0]/",
		"http://[1.2.3.4]/",
		"http://example.com:80a/",
		"http://a[b]/",
		"http://user@name@example.com/",
	}},
	{"email", []string{
		"joe.bloggs@example.com",
		"te~st@example.com",
		"~test@example.com",
		"test~@example.com",
		"user+mailbox@example.com", // RFC 3696 3
		"customer/department=shipping@example.com",
		"$A12345@example.com",
		"!def!xyz%abc@example.com",
		"_somename@example.com",
		`"joe bloggs"@example.com`,
		`"joe..bloggs"@example.com`,
		`"Abc@def"@example.com`,
		`"Fred\ Bloggs"@example.com`,
		"joe.bloggs@[127.0.0.1]",
		"joe.bloggs@[IPv6:::1]",
		"postmaster@localhost",
		strings.Repeat("a", 64) + "@example.com",
	}, []string{
		"ä@b.co", // non-ASCII: idn-email, not email
		"jöe@example.com",
		"joe@exämple.com",
		"2962",
		".test@example.com",
		"test.@example.com",
		"te..st@example.com",
		"joe.bloggs@invalid=domain.com",
		"joe.bloggs@[127.0.0.300]",
		"joe.bloggs@[IPv6:zz]",
		"joe@-example.com",
		"joe@example-.com",
		"joe@example..com",
		"joe@",
		"@example.com",
		"Joe <joe@example.com>",
		"joe@example.com ",
		"a b@example.com",
		`"unterminated@example.com`,
		strings.Repeat("a", 65) + "@example.com",
		"joe@" + strings.Repeat("a", 64) + ".com",
		"a@" + strings.Repeat("b.", 130) + "com",
	}},
}

func TestFormats(t *testing.T) {
	for _, tc := range formatCases {
		for _, v := range tc.valid {
			if !runtime.ValidFormat(tc.format, v) {
				t.Errorf("%s: %q refused, want accepted", tc.format, v)
			}
		}
		for _, v := range tc.bad {
			if runtime.ValidFormat(tc.format, v) {
				t.Errorf("%s: %q accepted, want refused", tc.format, v)
			}
		}
	}
	if !runtime.ValidFormat("hostname", "not checked") {
		t.Error("unknown format refused a value")
	}
}

func TestFormatMessageIsBounded(t *testing.T) {
	p := &runtime.Property{Name: "site", Kind: runtime.KindString, Format: "uri"}
	err := p.Check(strings.Repeat("<", 1<<20))
	if err == nil || len(err.Error()) > 300 {
		t.Fatalf("error for a 1 MiB value: %d bytes", len(err.Error()))
	}
}

// FuzzFormatDateTime compares date-time against time.Parse(RFC3339Nano):
// everything accepted parses once upper-cased and with a leap second
// moved back one second, and everything time.Parse accepts with an
// in-range offset is accepted.
func FuzzFormatDateTime(f *testing.F) {
	for _, tc := range formatCases[:2] {
		for _, v := range append(tc.valid, tc.bad...) {
			f.Add(v)
		}
	}
	f.Fuzz(func(t *testing.T, v string) {
		if runtime.ValidFormat("date-time", v) {
			norm := strings.ToUpper(v)
			if norm[17:19] == "60" {
				norm = norm[:17] + "59" + norm[19:]
			}
			if _, err := time.Parse(time.RFC3339Nano, norm); err != nil {
				t.Fatalf("%q accepted, time.Parse(%q): %v", v, norm, err)
			}
			if runtime.ValidFormat("date", v) {
				t.Fatalf("%q is both a date and a date-time", v)
			}
			return
		}
		// time.Parse also takes one-digit hours and a comma before the
		// fraction; RFC 3339 does not.
		if _, err := time.Parse(time.RFC3339Nano, v); err == nil && offsetInRange(v) && !strings.Contains(v, ",") && len(v) > 16 && v[13] == ':' && v[16] == ':' {
			t.Fatalf("%q refused, but time.Parse accepts it", v)
		}
	})
}

func offsetInRange(v string) bool {
	if strings.HasSuffix(v, "Z") {
		return true
	}
	if len(v) < 6 {
		return false
	}
	o := v[len(v)-6:]
	return (o[0] == '+' || o[0] == '-') && o[1:3] <= "23" && o[3] == ':' && o[4:6] <= "59"
}

// FuzzFormatURI checks uri against net/url: every accepted value parses
// with a scheme, and holds only ASCII printable characters.
func FuzzFormatURI(f *testing.F) {
	for _, v := range append(formatCases[2].valid, formatCases[2].bad...) {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if !runtime.ValidFormat("uri", v) {
			return
		}
		u, err := url.Parse(v)
		// net/url is stricter than RFC 3986 about ports and about
		// percent-encodings in the host.
		if err != nil && !strings.Contains(err.Error(), "invalid port") && !strings.Contains(err.Error(), "invalid host") && !strings.Contains(err.Error(), "invalid URL escape") {
			t.Fatalf("%q accepted, url.Parse: %v", v, err)
		}
		if err == nil && u.Scheme == "" {
			t.Fatalf("%q accepted without a scheme", v)
		}
		for i := 0; i < len(v); i++ {
			if v[i] <= ' ' || v[i] >= 0x7f || strings.IndexByte(`<>"{}|\^`+"`", v[i]) >= 0 {
				t.Fatalf("%q accepted with byte %q", v, v[i])
			}
		}
	})
}

// FuzzFormatEmail checks email: every accepted value is ASCII, at most
// 254 bytes, and net/mail parses it to itself unless the local part is
// quoted or the domain is an address literal.
func FuzzFormatEmail(f *testing.F) {
	for _, v := range append(formatCases[3].valid, formatCases[3].bad...) {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if !runtime.ValidFormat("email", v) {
			return
		}
		if len(v) > 254 {
			t.Fatalf("%q accepted at %d bytes", v, len(v))
		}
		for i := 0; i < len(v); i++ {
			if v[i] < ' ' || v[i] >= 0x7f {
				t.Fatalf("%q accepted with byte %q", v, v[i])
			}
		}
		if strings.Count(v, "@") != 1 || strings.ContainsAny(v, `["`) {
			return
		}
		local, domain, _ := strings.Cut(v, "@")
		if local == "" || domain == "" || strings.HasPrefix(local, ".") || strings.Contains(local, "..") || strings.Contains(domain, "..") {
			t.Fatalf("%q accepted", v)
		}
		// net/mail (RFC 5322) is the reference for unquoted addresses.
		if a, err := mail.ParseAddress(v); err != nil || a.Address != v || a.Name != "" {
			t.Fatalf("%q accepted, net/mail gives %v, %v", v, a, err)
		}
	})
}

// TestParseTimeAcceptsWhatCheckFormatAccepts: a time.Time field decodes
// every value its format check lets through, and nothing else.
func TestParseTimeAcceptsWhatCheckFormatAccepts(t *testing.T) {
	for _, tc := range formatCases[:2] {
		for _, v := range append(append([]string(nil), tc.valid...), tc.bad...) {
			_, err := runtime.ParseTime(tc.format, v)
			if ok := runtime.ValidFormat(tc.format, v); ok != (err == nil) {
				t.Errorf("%s %q: CheckFormat %t, ParseTime error %v", tc.format, v, ok, err)
			}
		}
	}
	got, err := runtime.ParseTime("date-time", "1990-12-31t15:59:60-08:00")
	if want := time.Date(1991, 1, 1, 0, 0, 0, 0, time.UTC); err != nil || !got.Equal(want) {
		t.Errorf("leap second = %v, %v; want %v", got, err, want)
	}
}

// Lengths are counted in characters (code points), not bytes, on both
// sides of every bound, whatever the bytes suggest.
func TestCheckStringLength(t *testing.T) {
	cases := []struct {
		v        string
		min, max int
		want     string
	}{
		{"日本", 2, 2, ""},         // 6 bytes, 2 characters
		{"日本", 3, 0, "at least"}, // (6+3)/4 = 2 bytes-worth < 3: counted
		{"日本", 0, 1, "at most"},  // 6 bytes > 1: counted
		{"日本語", 0, 3, ""},        // 9 bytes > 3, 3 characters
		{"𝄞𝄞", 2, 2, ""},         // 8 bytes, 2 characters of 4 bytes
		{"𝄞𝄞", 3, 0, "at least"},
		{"abcd", 2, 4, ""},
		{"abcd", 5, 0, "at least"},
		{"abcde", 0, 4, "at most"},
		{"", 1, 0, "at least"},
		{"\xff\xfe", 2, 2, ""}, // invalid bytes count one each
	}
	for _, c := range cases {
		p := &runtime.Property{Name: "s", Kind: runtime.KindString}
		if c.min > 0 {
			p.MinLength = ptr(c.min)
		}
		if c.max > 0 {
			p.MaxLength = ptr(c.max)
		}
		err := p.Check(c.v)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q min %d max %d: %v, want valid", c.v, c.min, c.max, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q min %d max %d: %v, want %q", c.v, c.min, c.max, err, c.want)
		}
	}
}
