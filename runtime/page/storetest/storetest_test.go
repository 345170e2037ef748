package storetest_test

import (
	"testing"

	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/page/storetest"
)

func TestMemoryStore(t *testing.T) { storetest.TestRevise(t, page.NewMemoryStore()) }
