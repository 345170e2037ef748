package gen

import (
	"errors"
	"fmt"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// ErrProtocolVersion is the error, matched with errors.Is, for a protocol
// version elicitgen cannot write schemas for.
var ErrProtocolVersion = errors.New("unsupported protocol version")

// ProtocolVersions returns the MCP protocol versions that can elicit, the
// eras a form can be asked on, oldest first.
func ProtocolVersions() []string {
	return []string{runtime.Version20250618, runtime.Version20251125, runtime.Version20260728}
}

// CheckProtocolVersion returns nil when version is one of
// ProtocolVersions or empty (the default: 2025-11-25 or later), else an
// error matching ErrProtocolVersion that says which versions there are.
func CheckProtocolVersion(version string) error {
	if version == "" {
		return nil
	}
	all := ProtocolVersions()
	for _, v := range all {
		if v == version {
			return nil
		}
	}
	if isDate(version) && version < all[0] {
		return fmt.Errorf("%w %q: it has no elicitation, which first appeared in %s", ErrProtocolVersion, version, all[0])
	}
	return fmt.Errorf("%w %q: want one of %s", ErrProtocolVersion, version, strings.Join(all, ", "))
}

// isDate reports whether s has the shape of a protocol version, YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != len("2006-01-02") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 4 || i == 7 {
			if s[i] != '-' {
				return false
			}
		} else if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// UnavailableForm is a form that cannot be asked on a protocol version.
type UnavailableForm struct {
	// Key names the form as `elicitgen schema` does.
	Key string
	// Reason says why, in the runtime's words.
	Reason string
}

// EmitSchemasFor is EmitSchemas for clients speaking version (see
// ProtocolVersions; "" is the default, the form sent to 2025-11-25 and
// later clients): on 2025-06-18 titled enums are written as enum +
// enumNames, non-boolean defaults are dropped and optional multi-select
// fields are left out, as the runtime sends them. Forms that cannot be
// asked on version are left out of the JSON and returned as unavailable,
// in the same order. An unknown version is an error matching
// ErrProtocolVersion.
func EmitSchemasFor(pkgs []*Package, version string) ([]byte, []UnavailableForm, error) {
	if err := CheckProtocolVersion(version); err != nil {
		return nil, nil, err
	}
	if version == "" {
		version = runtime.Version20251125
	}
	forms, keys := schemaKeys(pkgs)
	var (
		kept []*Form
		out  []UnavailableForm
	)
	for _, f := range forms {
		if reason := unavailableReason(f, version); reason != "" {
			out = append(out, UnavailableForm{Key: keys[f], Reason: reason})
			continue
		}
		kept = append(kept, f)
	}
	b, err := emitSchemas(kept, func(f *Form) string { return keys[f] }, version)
	if err != nil {
		return nil, nil, err
	}
	return b, out, nil
}

// unavailableReason returns why the runtime will not ask f of a client
// speaking version, or "" when it will.
func unavailableReason(f *Form, version string) string {
	_, err := f.Schema().JSON(version)
	if err == nil {
		return ""
	}
	var ue *runtime.UnavailableError
	if errors.As(err, &ue) {
		return ue.Reason
	}
	return err.Error()
}
