package clustertest

import (
	"testing"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// The helpers these tests share are example/internal/exampletest's: every
// deadline is a base duration scaled by ELICITGEN_TEST_SCALE
// (exampletest.Timeout, exampletest.Context).

// TestMain runs the tests from the example's directory (their paths,
// node/ and ./server, are relative to it).
func TestMain(m *testing.M) { exampletest.Main(m) }

// trustedHeader is the identity header the tests' "proxy" sets.
const trustedHeader = exampletest.TrustedHeader

// deployments counts the deployments the instances logged.
func deployments(instances []*instance) int {
	n := 0
	for _, in := range instances {
		n += len(deployedLine.FindAllString(in.log.String(), -1))
	}
	return n
}
