// Package clean has no forms and no generated files: nothing to report.
package clean

// Config is a plain struct: json tags alone do not make a form.
type Config struct {
	Name  string            `json:"name"`
	Extra map[string]string `json:"extra"`
	Token string            `json:"token"`
}

// Hand-written elicit_gen.go files without the header are not ours either.
