// Package browsertest holds the example's tests that drive it from real
// clients in headless Chromium and Node: the MCP Inspector web UI (forms
// and the form app), the hosted pages of every example form (page-ui.mjs,
// with axe-core), and the TypeScript SDK v2 client. They need the pinned
// Node packages (npm ci in example/node) and Debian's chromium with a CJK
// font; without them they are skipped, unless ELICITGEN_REQUIRE_NODE=1.
// Every deadline scales with ELICITGEN_TEST_SCALE (example/internal/exampletest).
package browsertest
