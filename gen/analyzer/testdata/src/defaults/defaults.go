package defaults

// Env is where to deploy.
type Env string

const (
	EnvStaging Env = "staging" // Staging
	EnvProd    Env = "prod"    // Production
)

type Deploy struct {
	Env    Env    `json:"env" elicit:"default=qa"`               // want `default=qa: "qa" is not one of`
	Region string `json:"region" elicit:"enum=eu|us,default=ap"` // want `default=ap: "ap" is not one of`
	Count  int    `json:"count" elicit:"default=many"`           // want `default=many is not a valid int \(want a whole number\)`
	DryRun bool   `json:"dryRun" elicit:"default=yes"`           // want `default=yes is not a bool \(want true or false\)`
}
