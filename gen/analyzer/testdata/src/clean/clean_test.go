package clean

// Forms in test files are not forms: no diagnostics for this map.
type testForm struct {
	M map[string]int `elicit:"titel=x"`
}

var _ = testForm{}
