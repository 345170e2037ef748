// The one time budget of the example's tests (example/internal/exampletest):
// every deadline and step timeout of these scripts is a base duration,
// sized for an idle two-core machine, multiplied by ELICITGEN_TEST_SCALE
// (a positive number, 1 when unset), which the Go tests pass on.

export const scale = parseScale(process.env.ELICITGEN_TEST_SCALE ?? '');

function parseScale(s) {
  if (s === '') return 1;
  const f = Number(s);
  if (!Number.isFinite(f) || f <= 0 || f > 1000) {
    console.error(`ELICITGEN_TEST_SCALE must be a positive number (a multiplier of the tests' deadlines), got ${JSON.stringify(s)}`);
    process.exit(2);
  }
  return f;
}

// scaled returns ms (a deadline or a timeout) multiplied by the scale.
export function scaled(ms) {
  return Math.round(ms * scale);
}
