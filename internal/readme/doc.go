// Package readme has no code of its own: its test builds, vets and runs
// every Go snippet of the repository's README.md against this checkout.
package readme
