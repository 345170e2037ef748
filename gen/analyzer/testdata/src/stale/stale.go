package stale

// Deploy was changed after generation.
type Deploy struct { // want `form Deploy: missing from elicit_gen.go: run go generate` `elicit_gen.json is missing: run go generate`
	Service string `json:"service" elicit:"minLength=1"`
}
