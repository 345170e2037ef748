// Command elicitvet runs elicitgen's checks as a vet tool: bad elicit tags,
// forms MCP cannot express, and stale, missing or orphaned generated files,
// each reported at its position.
//
//	go install github.com/elicitgen/elicitgen/cmd/elicitvet
//	go vet -vettool=$(which elicitvet) ./...
//
// It also runs standalone: elicitvet ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/elicitgen/elicitgen/gen/analyzer"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
