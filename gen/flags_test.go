package gen_test

import "flag"

// update rewrites the want sections of golden files. It is the only way
// goldens change: go test ./gen -update
var update = flag.Bool("update", false, "rewrite golden files in ../testdata")
