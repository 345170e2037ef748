// The elicitgen form app (templates/formapp.html) against a hostile
// frame of the same host page, in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core). A host page at
// http://host.test embeds the app at http://app.test and a sibling frame
// that forges MCP Apps messages to the app; Chromium resolves every *.test
// name to 127.0.0.1, where this script serves the three pages.
//
//   node formapp-frames.mjs before-init|after-init
//
// before-init: a sibling of another origin (http://evil.test) answers the
// app's ui/initialize before the host does and sends its own question; the
// app must take neither, and must then draw the host's question.
// after-init: once the host has drawn the real question, a sibling of the
// host's own origin sends "Dismiss this notice?" under the same request
// id; the app must keep the real question, and the person's accept must
// reach the host for it. Prints one line per check and "N passed, N
// failed".

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { checker } from './pages-common.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const which = process.argv[2];
if (which !== 'before-init' && which !== 'after-init') {
  console.error('usage: node formapp-frames.mjs before-init|after-init');
  process.exit(2);
}
const c = checker();
const deadline = setTimeout(() => { c.check('finished within 60s', false); c.done(); }, 60_000);
deadline.unref();

const appHTML = fs.readFileSync(path.join(here, '..', '..', 'templates', 'formapp.html'), 'utf8');
const REAL = 'Deploy api to production?';
const FORGED = 'Dismiss this notice?';
const schema = (title) => ({ type: 'object', properties: { confirmed: { type: 'boolean', title } }, required: ['confirmed'] });

// The host page: it records what the app sends it, and answers and asks
// only when the script says (window.answerInit, window.ask).
const hostPage = (port, sibling) => `<!doctype html><meta charset="utf-8"><title>host</title>
<iframe id="app" src="http://app.test:${port}/app.html" width="600" height="400"></iframe>
<iframe id="sibling" src="http://${sibling}:${port}/sibling.html" width="200" height="100"></iframe>
<script>
const app = document.getElementById('app');
const appOrigin = 'http://app.test:${port}';
window.fromApp = [];
window.strays = [];
let initId = null;
window.answerInit = () => app.contentWindow.postMessage({ jsonrpc: '2.0', id: initId,
  result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '0' }, hostCapabilities: {}, hostContext: {} } }, appOrigin);
window.ask = (id, message, schema) => app.contentWindow.postMessage({ jsonrpc: '2.0', id, method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: schema } }, appOrigin);
window.addEventListener('message', (ev) => {
  if (ev.source !== app.contentWindow) { window.strays.push(ev.data); return; }
  window.fromApp.push(ev.data);
  if (ev.data && ev.data.method === 'ui/initialize') initId = ev.data.id;
});
</script>`;

// The sibling page: it records what reaches it; the script forges from it.
const siblingPage = `<!doctype html><meta charset="utf-8"><title>sibling</title><p>sibling</p>
<script>window.got = []; window.addEventListener('message', (ev) => window.got.push(ev.data));</script>`;

const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const send = (body) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(body); };
  if (u.pathname === '/host.html') send(hostPage(server.address().port, u.searchParams.get('sibling')));
  else if (u.pathname === '/app.html') send(appHTML);
  else if (u.pathname === '/sibling.html') send(siblingPage);
  else { res.writeHead(404); res.end(); }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP *.test 127.0.0.1'],
  timeout: 30_000,
});

// stays reports whether the app's question is still want after a
// forgery: it waits up to 2 s for the text to change (the app redraws
// within milliseconds of a message it takes).
async function stays(app, want) {
  try {
    await app.waitForFunction((w) => document.getElementById('message').textContent !== w, want, { timeout: 2_000 });
    return false;
  } catch {
    return true;
  }
}

try {
  const context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  await context.route((u) => !/^http:\/\/[a-z]+\.test:\d+\//.test(u.href), (route) => route.abort('blockedbyclient'));
  const page = await context.newPage();
  const sibling = which === 'before-init' ? 'evil.test' : 'host.test';
  await page.goto(`http://host.test:${port}/host.html?sibling=${sibling}`);
  const app = page.frame({ url: /app\.test.*app\.html/ });
  const sib = page.frame({ url: /sibling\.html/ });
  await page.waitForFunction(() => window.fromApp.some((m) => m.method === 'ui/initialize'));
  await sib.waitForFunction(() => Array.isArray(window.got));

  if (which === 'before-init') {
    // The sibling answers ui/initialize first and asks its own question.
    await sib.evaluate(({ FORGED, schema }) => {
      const app = window.parent.frames[0];
      app.postMessage({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'evil', version: '0' }, hostCapabilities: {} } }, '*');
      app.postMessage({ jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: { mode: 'form', message: FORGED, requestedSchema: schema } }, '*');
    }, { FORGED, schema: schema('Dismiss') });
    c.check('before the host answers, a sibling frame cannot draw its question', await stays(app, '…'),
      await app.evaluate(() => document.getElementById('message').textContent));
    c.check('the form is not shown for it', await app.evaluate(() => document.getElementById('form').hidden));
  }

  await page.evaluate(() => window.answerInit());
  await page.waitForFunction(() => window.fromApp.some((m) => m.method === 'ui/notifications/initialized'));
  await page.evaluate(({ REAL, schema }) => window.ask(7, REAL, schema), { REAL, schema: schema('I confirm this deploy') });
  await app.waitForFunction((w) => document.getElementById('message').textContent === w, REAL);
  c.check('the host\'s question is drawn', true);

  if (which === 'after-init') {
    // A frame of the host's own origin replaces the question under the
    // host's request id.
    await sib.evaluate(({ FORGED, schema }) => {
      const app = window.parent.frames[0];
      app.postMessage({ jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: { mode: 'form', message: FORGED, requestedSchema: schema } }, '*');
    }, { FORGED, schema: schema('Dismiss') });
    c.check('a sibling frame of the host\'s origin cannot replace the question', await stays(app, REAL),
      await app.evaluate(() => document.getElementById('message').textContent));
  }

  // The person confirms and accepts what the app shows.
  await app.getByRole('checkbox').check();
  await app.getByRole('button', { name: 'Accept' }).click();
  await page.waitForFunction(() => window.fromApp.some((m) => m.id === 7 && m.result));
  const { fromApp, strays } = await page.evaluate(() => ({ fromApp: window.fromApp, strays: window.strays }));
  const results = fromApp.filter((m) => m.result && m.id === 7);
  c.check('the host receives one accept, for its own question', results.length === 1 && results[0].result.action === 'accept' &&
    results[0].result.content?.confirmed === true, results);
  c.check('the host receives nothing from other frames', strays.length === 0, strays);
  const got = await sib.evaluate(() => window.got);
  c.check('the app sends nothing to the sibling frame', got.length === 0, got);
  await context.close();
} catch (e) {
  c.check('no error', false, String(e?.stack ?? e));
} finally {
  await browser.close();
  server.close();
}
c.done();
