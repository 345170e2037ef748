package seal_test

import (
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestParseKeyRingSaysTheFix: an empty ring (an unset variable) and a
// pair without a secret say the format and how to make a key.
func TestParseKeyRingSaysTheFix(t *testing.T) {
	for _, spec := range []string{"", " , ", "k1"} {
		_, err := seal.ParseKeyRing(spec)
		if err == nil || !strings.Contains(err.Error(), "id:base64-secret") || !strings.Contains(err.Error(), "openssl rand -base64 32") {
			t.Errorf("ParseKeyRing(%q) = %v, want the format and `openssl rand -base64 32`", spec, err)
		}
	}
}
