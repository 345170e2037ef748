// Package sdktest holds the cross-SDK tests of the runtime adapters: the
// {go-sdk, mcp-go} x {2025-06-18, 2025-11-25, 2026-07-28} matrix, run in
// process over real JSON with both sides using generated forms, and the
// mixed-client test. It has no non-test code.
package sdktest
