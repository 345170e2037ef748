// Package readme has no code of its own: its tests build, vet and run
// every Go snippet of the repository's README.md and docs/*.md against
// this checkout, run the README's install steps in a fresh module, and
// check that every qualified Go name and relative path in those files
// resolves.
package readme
