package main

import (
	"strings"
	"testing"
)

// reachForm has a titled enum and non-boolean defaults (changed on
// 2025-06-18), a boolean default (kept), an optional multi-select (left
// out) and a form with a required multi-select (unavailable there).
const reachForm = `package forms

// Env is where to deploy.
type Env string

const (
	EnvStaging Env = "staging" // Staging
	EnvProd    Env = "prod"    // Production
)

// Deploy confirms a deploy.
type Deploy struct {
	Env    Env      ` + "`json:\"env\" elicit:\"optional,default=staging\"`" + `
	Count  int      ` + "`json:\"count\" elicit:\"optional,min=1,default=2\"`" + `
	DryRun bool     ` + "`json:\"dryRun\" elicit:\"optional,default=true\"`" + `
	Labels []string ` + "`json:\"labels,omitempty\" elicit:\"enum=a|b\"`" + `
}

// Pick asks for regions.
type Pick struct {
	Regions []string ` + "`json:\"regions\" elicit:\"enum=eu|us\"`" + `
}
`

// TestSchemaProtocolLegacy: --protocol 2025-06-18 prints the schemas as a
// client of that era receives them, and names the form it cannot ask.
func TestSchemaProtocolLegacy(t *testing.T) {
	newPkg(t, reachForm)
	stdout, stderr, code := runCLI("schema", "--protocol", "2025-06-18")
	const want = `{
  "Deploy": {
    "type": "object",
    "properties": {
      "env": {
        "type": "string",
        "enum": [
          "staging",
          "prod"
        ],
        "enumNames": [
          "Staging",
          "Production"
        ]
      },
      "count": {
        "type": "integer",
        "minimum": 1
      },
      "dryRun": {
        "type": "boolean",
        "default": true
      }
    }
  },
  "Pick": {
    "type": "object",
    "properties": {
      "regions.eu": {
        "type": "boolean",
        "title": "eu",
        "description": "regions",
        "default": false
      },
      "regions.us": {
        "type": "boolean",
        "title": "us",
        "description": "regions",
        "default": false
      }
    }
  }
}
`
	// Pick's required multi-select is one boolean per option: no form is
	// left out.
	if code != 0 || stdout != want || stderr != "" {
		t.Fatalf("schema --protocol 2025-06-18: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, stdout, want)
	}
}

// TestSchemaProtocolModern: 2025-11-25 and 2026-07-28 clients receive
// what schema prints without the flag: every form, titled, with defaults.
func TestSchemaProtocolModern(t *testing.T) {
	newPkg(t, reachForm)
	def, _, code := runCLI("schema")
	if code != 0 || !strings.Contains(def, `"oneOf"`) || !strings.Contains(def, `"default": 2`) || !strings.Contains(def, `"Pick"`) {
		t.Fatalf("schema: exit %d:\n%s", code, def)
	}
	for _, v := range []string{"2025-11-25", "2026-07-28"} {
		stdout, stderr, code := runCLI("schema", "--protocol", v)
		if code != 0 || stdout != def || stderr != "" {
			t.Errorf("schema --protocol %s: exit %d, stderr %q, output differs from the default:\n%s", v, code, stderr, stdout)
		}
	}
}

// TestSchemaProtocolUnknown: a version elicitgen cannot write exits 2
// with a message that names it and the versions there are.
func TestSchemaProtocolUnknown(t *testing.T) {
	newPkg(t, reachForm)
	for v, want := range map[string]string{
		"2027-01-01": `elicitgen: --protocol: unsupported protocol version "2027-01-01": want one of 2025-06-18, 2025-11-25, 2026-07-28` + "\n",
		"2025-03-26": `elicitgen: --protocol: unsupported protocol version "2025-03-26": it has no elicitation, which first appeared in 2025-06-18` + "\n",
	} {
		stdout, stderr, code := runCLI("schema", "--protocol", v)
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("schema --protocol %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", v, code, stdout, stderr, want)
		}
	}
}

// TestDocsReach: the catalog says which eras ask each form and which
// fields meet a known client limit.
func TestDocsReach(t *testing.T) {
	newPkg(t, reachForm)
	stdout, stderr, code := runCLI("docs")
	if code != 0 {
		t.Fatalf("docs: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"| [Pick](#pick) | `example.com/forms` | 1 (1 required) | every era |",
		"| 2025-06-18 | `elicitation/create` request | `regions`: asked as one checkbox per option (`regions.eu`, `regions.us`), answered as the list of those checked |",
		"`env`: options sent as `enum` + `enumNames`, default `\"staging\"` not sent<br>`count`: default `2` not sent<br>`labels`: left out (the answer holds none)",
		"- Codex CLI cannot edit integer fields (on 2026-07-28 it accepts with no content): `count` (",
		"- Codex CLI cannot edit multi-select fields: `labels` (",
		"## Known client limits",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("docs lacks %q:\n%s", want, stdout)
		}
	}
}
