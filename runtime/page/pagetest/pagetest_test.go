package pagetest_test

import (
	"testing"

	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/page/pagetest"
)

func TestMemoryStore(t *testing.T) { pagetest.TestRevise(t, page.NewMemoryStore()) }
