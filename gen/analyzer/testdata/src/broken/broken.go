// Package broken does not type-check: the driver reports that, and the
// analyzer stays quiet rather than judge fields of unknown type.
package broken

type Form struct {
	X Undefined `json:"x" elicit:"title=X"`
}
