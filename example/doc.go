// Package example is the root of elicitgen's example: a real MCP server
// whose every question to a person is a generated form.
//
//   - forms: the tagged form structs and the code elicitgen generated for
//     them (elicit_gen.go, elicit_gen.json), including the fixture forms
//     of the official conformance suites;
//   - app: the server (tools, conformance fixtures, store, HTTP handler),
//     importable so the demo and the tests reuse it;
//   - server: the command (stdio, or streamable HTTP with --http);
//   - demo: the server in process with a scripted client, printing each
//     question, the schema sent, the answer and the result;
//   - node: pinned Node tooling (Node 22, the conformance suites, the
//     TypeScript SDK) and the TypeScript interop client;
//   - conformance: run.sh, which runs the official conformance suites
//     against the server;
//   - browsertest, clustertest: the tests in headless Chromium and the
//     multi-process tests (three server processes with one key ring
//     behind a round-robin reverse proxy; see the README's Deployment
//     section), each a package of its own so that no test binary runs
//     them all; internal/exampletest: what the test packages share,
//     with the one time budget, ELICITGEN_TEST_SCALE, that scales every
//     deadline of theirs.
//
// This package holds only tests: the TypeScript SDK interop tests over
// stdio and HTTP, and the server's budgets under attack.
package example
