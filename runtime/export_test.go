package runtime

// Internal checks, exported to the tests of package runtime_test.
var (
	ValidFormat = validFormat
	ParseTime   = parseTime
)
