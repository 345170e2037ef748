// Answers a hosted page whose question asks for a passkey step-up
// (runtime.WithStepUp) in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core), with the DevTools virtual authenticator
// standing in for the person's device (user verification on).
//
//   node page-passkey.mjs PLAN.json
//
// PLAN.json is written by example/browsertest/passkey_test.go: the
// registration page, the page to approve, a page of the same tool with
// other arguments, the identity header and the sentences to expect. The
// script registers a passkey, approves the first page (the page's script
// gets the assertion and posts it with the answer), then replays the
// captured post, and posts the captured assertion to the other page, with
// that page's own CSRF token and with a nonce that page issued: each must
// be refused. The Go test then takes the answers from the page store.
//
// Only loopback is reached. Prints one line per check and a closing
// "N passed, N failed"; exits 1 on any failure.

import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { scaled } from './scale.mjs';

const planPath = process.argv[2];
if (!planPath) {
  console.error('usage: node page-passkey.mjs PLAN.json');
  process.exit(2);
}
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail === undefined ? '' : ': ' + (typeof detail === 'string' ? detail : JSON.stringify(detail))}`);
  }
}
const deadline = setTimeout(() => {
  console.log(`FAIL page-passkey: timed out after ${scaled(90_000) / 1000}s`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}, scaled(90_000));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--host-resolver-rules=MAP localhost 127.0.0.1'],
  timeout: scaled(30_000),
});
try {
  const context = await browser.newContext({ extraHTTPHeaders: plan.headers });
  context.setDefaultTimeout(scaled(10_000));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

  // The person's device: a platform authenticator that verifies the user.
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2', transport: 'internal', hasResidentKey: true,
      hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true,
    },
  });

  // Register a passkey.
  await page.goto(plan.register);
  await page.click('#register');
  await page.waitForFunction(() => document.getElementById('status').textContent !== '');
  const registered = await page.textContent('#status');
  check('register: the passkey is registered', registered === 'Passkey registered.', registered);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  check('register: the authenticator holds one credential', credentials.length === 1, credentials.length);
  const registeredCount = credentials[0]?.signCount ?? 0;

  // Approve: the page's script asks for the assertion before the post.
  let captured = null;
  page.on('request', (req) => {
    if (req.method() !== 'POST') return;
    const body = req.postData() ?? '';
    if (new URLSearchParams(body).get('elicit_assertion')) captured = { url: req.url(), body };
  });
  await page.goto(plan.approve);
  check('approve: the page says a passkey is asked', (await page.textContent('#stepup')) === plan.stepUp);
  await page.fill('input[name=service]', plan.service);
  await page.click('button.accept');
  await page.waitForSelector('#notice');
  const sent = await page.textContent('#notice');
  check('approve: the answer is recorded', sent === plan.sent || sent.startsWith(plan.saved), sent);
  check('approve: the post carried an assertion', captured !== null);
  const signCount = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0].signCount;
  check('approve: the authenticator signed once more', signCount === registeredCount + 1, { registeredCount, signCount });

  if (captured) {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    // The captured post, replayed.
    const replay = await context.request.post(captured.url, { headers: form, data: captured.body, maxRedirects: 0 });
    check('replay: refused', replay.status() !== 200 && !(await replay.text()).includes(plan.sent), replay.status());

    // The captured assertion, for other arguments: posted to the other
    // page with its own CSRF token, first with the nonce it came with,
    // then with a nonce the other page issued.
    await page.goto(plan.other);
    const csrf = await page.inputValue('input[name=csrf]');
    const other = new URLSearchParams(captured.body);
    other.set('csrf', csrf);
    const moved = await context.request.post(page.url(), { headers: form, data: other.toString(), maxRedirects: 0 });
    check('other arguments: refused', moved.status() === 403 && (await moved.text()).includes(plan.refused), moved.status());

    const begin = new URLSearchParams(other);
    begin.set('elicit_stepup', 'begin');
    begin.set('elicit_assertion', '');
    const begun = await context.request.post(page.url(), { headers: form, data: begin.toString(), maxRedirects: 0 });
    const { nonce } = await begun.json();
    other.set('elicit_stepup', nonce);
    const renonced = await context.request.post(page.url(), { headers: form, data: other.toString(), maxRedirects: 0 });
    check('other arguments, the other page\'s nonce: refused', renonced.status() === 403 && (await renonced.text()).includes(plan.refused), renonced.status());
  }
  check('no script errors', errors.length === 0, errors);
  await context.close();
} catch (e) {
  check('page-passkey', false, String(e?.stack ?? e));
} finally {
  await browser.close();
  clearTimeout(deadline);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
