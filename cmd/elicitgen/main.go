// Command elicitgen generates typed MCP elicitation forms from Go structs
// tagged `elicit:"..."`. Run it from go generate:
//
//	//go:generate go tool elicitgen
//
// See the project README for the tag grammar and the commands.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
