// Elicitgen generates typed MCP elicitation forms from Go structs tagged
// `elicit:"..."`: for each form T, the flat requestedSchema MCP
// elicitation requires, a validator and decoder, and the typed functions
// AskT (server side), AcceptT, DeclineT and CancelT (client side).
//
// Run it from go generate, in the package that holds the forms:
//
//	//go:generate go tool elicitgen
//
// It writes elicit_gen.go and elicit_gen.json beside the forms. The
// runtime the generated code calls is github.com/elicitgen/elicitgen/runtime;
// the guides are in the repository's docs/ directory.
//
// Usage:
//
//	elicitgen [generate] [--type A,B] [--tags t] [--no-cache] [packages]
//	elicitgen check [--type A,B] [--tags t] [--format text|github] [packages]
//	elicitgen schema [--type A,B] [--tags t] [--protocol V] [packages]
//	elicitgen diff [--json | --format text|json|markdown|github] [--allow FILE] OLD NEW
//	elicitgen diff [--json | --format ...] [--allow FILE] --base REV [packages]
//	elicitgen docs [--type A,B] [--tags t] [-o FILE] [--template FILE] [packages]
//	elicitgen locale [--tags t] [--stdout] TAG [packages]
//	elicitgen verify --key PUB.pem [--key OLD.pem] [--head DIGEST] [--format text|json] RECEIPTS.jsonl
//	elicitgen version
//
// Packages are go list patterns (default "."). Every rejected input is
// reported at once, as file.go:line:col: message, with exit status 2, and
// nothing is written:
//
//	forms.go:4:2: field Labels has type map[string]string, a map: MCP forms are flat objects ...
//	forms.go:5:37: unknown elicit option "mni" (did you mean "min"?)
//
// # Forms
//
// A package-level struct is a form when a field has an elicit tag or its
// doc comment has the line //elicit:form. A struct that is only embedded
// in forms lends them its fields and is not a form of its own, unless its
// doc comment has //elicit:form.
//
// Go field types and the property each becomes:
//
//   - string: {"type":"string"}; options minLength, maxLength, format,
//     enum, pattern, options.
//   - bool: {"type":"boolean"}, sent with "default": false unless default=
//     says otherwise; that does not make it optional (a required bool left
//     out of an answer is refused, never read as false). A *bool has no
//     default: nil means "not given".
//   - int, int8..int64, uint..uint64: {"type":"integer"}; min, max.
//     Unsigned types imply minimum 0; bounds must fit the Go type, and an
//     answer outside its range is rejected.
//   - float32, float64: {"type":"number"}; min, max.
//   - time.Time: {"type":"string","format":"date-time"}; format=date gives
//     a date.
//   - a named string type with constants: a single-select in constant
//     order. A constant's line or doc comment is its title (titled oneOf;
//     no comments: a plain enum). A leading "EnvProd is", "EnvProd means",
//     "EnvProd:" or "EnvProd -" is dropped from the title.
//   - []NamedEnum, or []string with enum=: a multi-select (items.anyOf
//     when titled, items.enum when plain); minItems, maxItems.
//   - *T of any of the above: the same property, optional.
//   - an embedded struct: its fields are flattened, as encoding/json does.
//   - anything else is an error: MCP forms are flat objects of primitives.
//     A nested struct is refused with a hint to embed it; time.Duration,
//     time.Month and time.Weekday are refused with a hint (a person cannot
//     guess their unit).
//
// The property name is the json name, else the Go name. json:"-" or
// elicit:"-" skips a field; unexported fields are ignored. The description
// is the field's doc (or line) comment, whitespace-folded and otherwise as
// written; the one rewrite is the Go convention "Branch is the git branch
// to deploy." -> "The git branch to deploy.".
//
// A person reads titles and descriptions, so generate and check warn (on
// stderr, at the comment or tag option; the exit status does not change)
// when one shows Go: an exported CamelCase name of the package, a field's
// CamelCase name, or a comment in Go's "Name does..." shape. Write the
// comment for the person, or set desc= / title=.
//
// Translations live beside the forms, one catalog per language,
// elicit.TAG.json (written by elicitgen locale); go generate checks them
// and embeds them in elicit_gen.go. The forms' own text is English unless
// a file of the package says //elicit:lang TAG.
//
// # Tag options
//
// Options are comma-separated key or key=value. Quote a value holding ","
// or "|" with single quotes: title='Phone, optional'. Unquoted,
// title=Phone, optional is the title Phone and the option optional; an
// option name after ", " right behind free text is a warning that quotes
// both fixes. Unknown keys are
// errors with a suggestion; a struct tag key close to elicit (elict,
// elicits, Elicit) is an error too, never a silently unconstrained field.
//
//   - title=TEXT: the label a client shows.
//   - desc=TEXT: the help text; overrides the doc comment.
//   - default=V: parsed as the field's type at generate time (multi-select:
//     default=a|b) and checked against the enum, range and lengths.
//     Clients pre-fill it, and it makes the field optional: a client that
//     leaves it out gets the default. Tag it required as well to keep it
//     required.
//   - minLength=N, maxLength=N: a string's length bounds, in characters.
//   - pattern=RE: a server-side rule: the answer must match the RE2
//     regular expression (Go regexp syntax, compiled at generate time).
//     It is never sent, since MCP schemas have no pattern; it is kept in
//     elicit_gen.json as an extension key. Quote a pattern holding "," or
//     "|": pattern='^[a-z]{2,8}$'; an unquoted one is reported with the
//     quoted form to use, a bad one at its position.
//   - patternMessage=TEXT: what a person reads when the answer does not
//     match pattern= (instead of the regular expression).
//   - format=F: a string's format: email, uri, date or date-time, checked
//     on the server as their RFCs define them.
//   - enum=a|b|c: the choices of a string or []string field without a
//     named enum type.
//   - min=N, max=N: a number's bounds. Bounds and numeric defaults must lie
//     within +-(2^53-1), the integers every JSON client reads exactly.
//   - minItems=N, maxItems=N: a multi-select's bounds.
//   - options: the choices of a string or []string field are supplied when
//     asking (runtime.WithOptions); the answer is checked against what was
//     sent. The field is listed under the form's x-elicitgen-options key in
//     elicit_gen.json, without choices.
//   - optional: not required, whatever the Go type says.
//   - required: required, also on a pointer, omitempty or default= field.
//     A field is required unless it is a pointer, has omitempty or
//     omitzero, a default=, or the option optional.
//   - confirm: on a bool, marks the box that approves: an accept with it
//     false reaches the handler as a decline, never through Accepted().
//   - legacyTitles: a titled enum is written as enum + enumNames.
//   - notSecret: a string field whose name reads like a secret, word by
//     word (Password, APIKey, AuthToken, card_number; not TokenCount int or
//     Tokenizer string), is refused (ask for secrets out of band with URL
//     mode, runtime.AskURL); notSecret opts a field you know is safe out
//     (PasswordHint string `elicit:"notSecret"`).
//   - ask: in a tool's arguments struct, the field may be asked of the
//     person when the model leaves it out (see below).
//
// The server checks every answer against all of these, whatever the
// client did, and two rules only it checks: pattern= and a form's
// CheckElicit() error method (runtime.FormChecker), for rules across
// fields or that need code; return a *runtime.FieldError (or several, with
// errors.Join) to name fields. A CheckElicit of another signature is a
// generate-time error.
//
// Struct tags are read as reflect reads them, and reflect silently stops
// at the first part it cannot read. So a tag that mentions elicit and does
// not parse is an error at the tag, with the tag as it should be written:
// a space after the colon (elicit: "min=1"), single quotes, a missing
// closing quote, a line break inside the tag, a tab between pairs, elicit
// given twice. On a form's fields a json tag must be one encoding/json
// reads as meant (json:"name, omitempty" is an error).
//
// # Tool arguments
//
// A struct whose fields are tagged ask is a tool's arguments struct: the
// model gives its fields, and the ones tagged ask may be asked of the
// person when the model leaves them out. Its form is asked only for what
// is missing (or invalid), never whole; elicitgen generates
// AskMissingT(ctx, asker, *T, message, opts...) instead of a form a
// handler asks as it is, and docs and schema mark it as such. An asked
// field needs omitempty (the model may leave it out); a bool (use *bool:
// false cannot be told from missing) and an elicit tag without ask in such
// a struct are generate-time errors.
//
// # Generated files
//
// elicit_gen.go is ours when its first line is the
// "// Code generated by elicitgen. DO NOT EDIT." header; elicit_gen.json
// when it is a JSON object of forms and the elicit_gen.go beside it is
// ours or absent. Anything else is yours and is never overwritten or
// removed (exit 2, nothing written). Each file is written whole to a
// temporary file, synced and renamed into place, the schema file first; a
// lock on the package directory makes two runs at once take turns.
//
// elicit_gen.go carries //go:build !elicitgen_load and elicitgen loads
// packages with that tag, so a stale or broken generated file never blocks
// regenerating it. Do not build with that tag yourself.
//
// elicit_gen.json holds every form's schema as sent to a 2025-11-25 or
// later client, byte-stable: diff it in review. Server-side rules
// (pattern=, patternMessage=, confirm, ask) are extension keys a JSON
// Schema reader ignores.
//
// The generated code stops compiling when a form's fields or an enum's
// constants change after generation
// (_T_changed_since_elicitgen_ran_run_go_generate in the error). An enum
// constant added, constants reordered or a title comment changed is not
// seen by the compiler: run elicitgen check in CI.
//
// # Commands
//
// elicitgen [generate] writes elicit_gen.go and elicit_gen.json in each
// package with forms; rewrites only changed files; never overwrites a file
// that is not ours; removes the outputs of packages that lost their forms.
// Exit 0, or 2 for bad input. It keeps an output cache (in the user cache
// directory) keyed, as go build keys its work, by the raw inputs: the
// packages' files as the build tags select them, the export data of their
// imports, their translation catalogs and the elicitgen build, so an
// unchanged package costs one go list; behind it, a cache keyed by each
// package's checked model skips rendering after an edit that leaves the
// forms alone. --no-cache or ELICITGEN_CACHE=off turns it off,
// ELICITGEN_CACHE=DIR moves it.
//
// elicitgen check regenerates in memory, names each stale form at its
// position, then prints a unified diff (at most 300 lines per file) of
// stale, missing or orphaned files. Exit 0 clean, 1 stale, 2 error. It
// never uses the cache. --format github prints GitHub Actions annotations.
// It also lists, as warnings, the strings a translation catalog does not
// translate yet.
//
// elicitgen schema prints one JSON object: form name (importpath.Name
// across packages) to requestedSchema. --protocol 2025-06-18 (or
// 2025-11-25, 2026-07-28) prints the schemas as sent on that protocol
// version, and names on stderr each form that version cannot ask. Exit 0,
// 2 for bad input or an unknown version.
//
// elicitgen diff OLD NEW, or elicitgen diff --base REV [packages] (old
// files read from git), classifies every schema change as breaking or
// compatible. An answer that was valid before must still be understood
// after the change, and the server rejects unknown keys: a form or
// property removed, a required property added, a type changed (except
// integer to number), a property made required, an enum value removed,
// bounds tightened, a format added are breaking; a form or optional
// property added, enum values added, bounds loosened, titles, descriptions
// and defaults changed are compatible. --json (or --format json) prints
// JSON; --format markdown and github print for review and CI; --allow FILE
// acknowledges breaks, one "Form.field: reason" line each (acknowledged
// breaks pass; stale lines fail). Exit 0, 1 breaking, 2 error.
//
//	BREAKING Deploy.environment: enum value "qa" removed: a client may still send "qa", which the new server rejects
//	compatible Deploy.note: optional property added
//	2 changes: 1 breaking, 1 compatible
//
// elicitgen docs prints a Markdown catalog of every form: its doc comment,
// a table of its properties, the protocol versions that can ask it, the
// known client limits its fields meet and each translation catalog's
// coverage. -o FILE writes it to FILE; --template FILE renders your own
// text/template with the same data (gen.DocsCatalog). Exit 0, 2.
//
// elicitgen locale TAG writes or updates the translation catalog
// elicit.TAG.json beside the forms (TAG a BCP 47 language tag): every
// title, description and option title, "" where a translation is missing,
// the source text under "//" as a hint. --stdout prints it instead (one
// package only). Exit 0, 2.
//
// elicitgen verify --key PUB.pem RECEIPTS.jsonl checks a signed receipt
// log (runtime/receipt; docs/receipts.md): every line's EdDSA signature
// under a key id of the --key public keys (PKIX PEM; repeat --key for
// rotated keys), and the hash chain from line to line. A changed byte, a
// removed, added or reordered line, a cut last line or an unknown key
// fails, naming the first bad line; --head DIGEST also catches receipts
// removed from the end. --format json prints one JSON object. Exit 0
// verified, 1 a bad line, 2 bad input.
//
// elicitgen version prints the version.
//
// # Flags
//
// --type A,B (generate, check, schema, docs) selects forms by type name.
// It defaults to the --type of the package's //go:generate line that runs
// elicitgen, else every form, so check, schema, docs and the analyzer see
// the forms go generate generated.
//
// --tags t (generate, check, schema, docs, locale) sets build tags, as
// for go build. It is read from nowhere else: when go generate ran with
// build tags, give check the same --tags. Forms in files with a //go:build
// constraint are generated with --tags; the generated file repeats the
// constraint.
//
// Warnings go to stderr as file:line:col: warning: ... and never change the
// exit status. Packages without non-test Go files are skipped under ./...,
// as go vet skips them.
//
// elicitgen runs the go command to load packages. GOFLAGS=-modfile=FILE
// is refused (exit 2, gen.ErrModfile): the go command would read FILE
// instead of the go.mod that builds the package. Put -modfile on the go
// run line instead (//go:generate go run -modfile=tools.mod
// github.com/elicitgen/elicitgen/cmd/elicitgen), or unset it for
// generation (GOFLAGS= go generate ./...).
//
// # The analyzer
//
// github.com/elicitgen/elicitgen/gen/analyzer applies the same rules as a
// go/analysis pass (cmd/elicitvet), reporting each problem at
// file:line:col, plus a stale, missing or orphaned generated file:
//
//	go vet -vettool=$(which elicitvet) ./...
package main
