// Package clustertest holds the example's multi-process tests: three
// server processes with one key ring behind a round-robin reverse proxy
// (the conformance scenarios, a two-step tool with an instance killed
// between rounds, hosted pages answered across instances), single use of
// an approval across instances through Redis, and one process per
// request behind a CGI host. The Redis tests need ELICITGEN_REDIS_URL;
// without it they are skipped, unless ELICITGEN_REQUIRE_REDIS=1. The
// 72-hour approval runs on a fake clock shared by the instances
// (ELICIT_TEST_CLOCK) and a redis-server of its own under libfaketime
// (fakeclock_test.go); without redis-server or libfaketime it is skipped,
// with the same exception. Every deadline scales with
// ELICITGEN_TEST_SCALE (example/internal/exampletest).
package clustertest
