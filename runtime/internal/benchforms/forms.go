// Package benchforms holds generated forms for the runtime's benchmarks.
package benchforms

//go:generate go run github.com/elicitgen/elicitgen/cmd/elicitgen

// Env is a deployment target.
type Env string

const (
	EnvStaging    Env = "staging"    // Staging
	EnvProduction Env = "production" // Production
)

// Scalars is a scalar-only form: strings, an enum, integers, a number and
// booleans.
type Scalars struct {
	Service   string  `json:"service" elicit:"minLength=1,maxLength=64"`
	Branch    string  `json:"branch" elicit:"default=main,maxLength=100"`
	Env       Env     `json:"environment"`
	Replicas  int     `json:"replicas" elicit:"min=1,max=20"`
	Canary    uint8   `json:"canary" elicit:"max=100"`
	Ratio     float64 `json:"ratio" elicit:"min=0,max=1"`
	Confirmed bool    `json:"confirmed"`
	Notify    bool    `json:"notify" elicit:"default=true"`
}
