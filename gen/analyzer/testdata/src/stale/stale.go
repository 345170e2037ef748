package stale

// Deploy was changed after generation.
type Deploy struct { // want `elicit_gen.go is stale for form Deploy` `elicit_gen.json is missing: run go generate`
	Service string `json:"service" elicit:"minLength=1"`
}
