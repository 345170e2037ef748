package orphan

// Deploy lost its elicit tags: it is not a form any more.
type Deploy struct {
	Service string `json:"service"`
}
