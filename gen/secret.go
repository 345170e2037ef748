package gen

import (
	"strings"
)

// Secrets: string fields whose name reads like a credential are refused
// in form mode (URL mode is for them).

// looksSecret reports whether a field name reads like a credential.
func looksSecret(name string) bool {
	if !mayBeSecret(name) {
		return false
	}
	words := splitWords(name)
	for i, w := range words {
		switch w {
		case "password", "passwd", "passphrase", "passcode", "secret", "token", "apikey", "cvv", "cvc", "pin", "ssn", "privatekey", "cardnumber", "creditcard", "pan":
			return true
		}
		if i+1 < len(words) {
			switch w + words[i+1] {
			case "apikey", "cardnumber", "creditcard", "privatekey", "accesskey", "secretkey", "clientsecret":
				return true
			}
		}
	}
	return false
}

// mayBeSecret is a cheap prefilter for looksSecret: every secret word
// contains one of these letters groups.
func mayBeSecret(name string) bool {
	l := strings.ToLower(name)
	for _, part := range []string{"pass", "secret", "token", "key", "cv", "pin", "ssn", "card", "pan"} {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

// splitWords splits camelCase, snake_case and kebab-case into lower-case
// words.
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
			continue
		case r >= 'A' && r <= 'Z':
			if i > 0 && ((rs[i-1] >= 'a' && rs[i-1] <= 'z') || (i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z' && rs[i-1] >= 'A' && rs[i-1] <= 'Z')) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}
