// Answers the elicitgen example server's deploy form as a person would
// when the form is rendered by an MCP App (SEP-3118, app-rendered form
// elicitation, draft): the MCP Inspector web UI (pinned in package.json)
// in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) declares app-rendered elicitation, the example server
// (started with ELICIT_FORM_APPS=1) advertises it and names its form app
// in the 2026-07-28 input_required request's _meta.ui.resourceUri; the
// Inspector reads the app (resources/read), runs it in its sandbox and
// forwards the elicitation/create request to it; the app draws the form
// from the requestedSchema and answers with an ordinary elicitation
// result, which the Inspector sends back in inputResponses and the
// server validates as any other answer.
//
//   node inspector-app.mjs http://127.0.0.1:PORT/mcp [ARTIFACTS_DIR]
//
// Checks: the app (not the Inspector's own dialog) draws the form, with
// the pre-filled branch; an accept deploys; a decline in the app is a
// decline; an unticked confirmation is refused by the server, whatever
// the app sent. Prints one line per check and "N passed, N failed".

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverURL = process.argv[2];
if (!serverURL) {
  console.error('usage: node inspector-app.mjs http://127.0.0.1:PORT/mcp [ARTIFACTS_DIR]');
  process.exit(2);
}
const artifacts = path.resolve(process.argv[3] ?? path.join(here, 'artifacts', 'inspector-app'));
fs.mkdirSync(artifacts, { recursive: true });
for (const f of fs.readdirSync(artifacts)) if (f.endsWith('.png')) fs.rmSync(path.join(artifacts, f)); // this run's screenshots only
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const stepTimeout = 15_000;

const t0 = Date.now();
let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}` + (process.env.TIMING ? ` (${((Date.now() - t0) / 1000).toFixed(1)}s)` : ""));
  } else {
    failed++;
    console.log(`FAIL ${name}${detail === undefined ? '' : ': ' + (typeof detail === 'string' ? detail : JSON.stringify(detail))}`);
  }
}

const cleanups = [];
function cleanupSync() {
  for (const f of cleanups.splice(0).reverse()) {
    try { f(); } catch { /* best effort */ }
  }
}
process.on('exit', cleanupSync);
const deadline = setTimeout(() => {
  console.log('FAIL inspector-app: timed out after 120s');
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}, 120_000);
deadline.unref();

// The Inspector's server list: one URL, three ways to connect.
const era = { entry: 'elicitgen-app', protocolEra: 'modern', version: '2026-07-28' };

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// startInspector runs the Inspector's web server and resolves with its URL.
async function startInspector(tmp) {
  const config = path.join(tmp, 'servers.json');
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { [era.entry]: { type: 'http', url: serverURL, protocolEra: era.protocolEra } } }, null, 2));
  const port = await freePort();
  const env = { ...process.env };
  for (const k of ['MCP_CATALOG_PATH', 'MCP_INSPECTOR_API_TOKEN', 'MCP_PROXY_AUTH_TOKEN', 'ALLOWED_ORIGINS']) delete env[k];
  Object.assign(env, {
    HOME: path.join(tmp, 'home'),
    MCP_STORAGE_DIR: path.join(tmp, 'storage'),
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    MCP_AUTO_OPEN_ENABLED: 'false',
    DANGEROUSLY_OMIT_AUTH: 'true',
    HOST: '127.0.0.1',
    CLIENT_PORT: String(port),
    MCP_SANDBOX_PORT: '0',
    MCP_APP_ORIGIN_PORT: '0',
    NO_COLOR: '1',
  });
  fs.mkdirSync(env.HOME, { recursive: true });
  const launcher = path.join(here, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
  const child = spawn(process.execPath, [launcher, '--web', '--config', config], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (b) => { out += b; });
  child.stderr.on('data', (b) => { out += b; });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the Inspector exited (${child.exitCode}):\n${out}`);
    if (out.includes('is up and running at')) {
      try {
        const res = await fetch(`${url}/api/config`);
        if (res.ok) {
          const cfg = await res.json();
          console.log(`Inspector ${cfg.version} at ${url}`);
          return { url, child, version: cfg.version, log: () => out };
        }
      } catch { /* not yet */ }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the Inspector did not start in 30s:\n${out}`);
}

let shot = 0;
async function screenshot(page, name) {
  const file = path.join(artifacts, `${String(++shot).padStart(2, '0')}-${name.replace(/[^a-zA-Z0-9.-]+/g, '_')}.png`);
  await page.screenshot({ path: file });
  return file;
}

// showScreen shows the Servers or Tools screen (tabs of the header while
// connected).
async function showScreen(page, name) {
  const tab = page.getByRole('banner').getByRole('radio', { name, exact: true });
  if (name === 'Servers' && (await tab.count()) === 0) return; // not connected: the server list is the page
  await tab.evaluate((el) => el.click()); // a segmented control's radio, drawn invisible
  await page.getByRole('main').getByRole('heading', { name: new RegExp(`^${name}\\b`), level: 3 }).first().waitFor();
}

// connect connects entry on the Servers screen and returns the protocol
// version it negotiated.
async function connect(page, entry) {
  await showScreen(page, 'Servers');
  // The switches stay disabled while another server disconnects; the
  // input itself is drawn invisible (under the track), so it is clicked
  // in the page.
  const label = `Connect or disconnect "${entry}"`;
  await page.waitForFunction((l) => [...document.querySelectorAll('input[role=switch]')]
    .some((el) => el.getAttribute('aria-label') === l && !el.disabled && !el.checked), label);
  await page.getByRole('switch', { name: label }).evaluate((el) => el.click());
  // Only the connected server's card shows the version it negotiated.
  const version = page.getByRole('main').getByText(/^MCP [0-9]{4}-[0-9]{2}-[0-9]{2}$/);
  await version.waitFor();
  return (await version.textContent()).replace(/^MCP /, '');
}

async function disconnect(page, entry) {
  await showScreen(page, 'Servers');
  const name = `Connect or disconnect "${entry}"`;
  await page.getByRole('switch', { name, checked: true }).evaluate((el) => el.click());
  // Disconnected: no switch on, every switch usable again.
  await page.waitForFunction(() => {
    const all = [...document.querySelectorAll('input[role=switch]')];
    return all.length > 0 && all.every((el) => !el.checked && !el.disabled);
  });
}

// runTool selects the tool, fills its arguments and executes it.
async function runTool(page, tool, args) {
  await showScreen(page, 'Tools');
  await page.getByRole('button', { name: new RegExp(`\\b${tool}\\b`) }).first().click();
  for (const [name, value] of Object.entries(args)) {
    await page.getByRole('main').getByRole('textbox', { name: new RegExp(`^${name}\\b`) }).first().fill(String(value));
  }
  await page.getByRole('button', { name: 'Execute Tool' }).click();
}

// appForm waits for the app-rendered elicitation and returns the app's
// frame (inside the Inspector's sandbox proxy frame).
async function appForm(page) {
  const modal = page.locator('[data-testid="app-elicitation"][data-app-elicitation-status="ready"]');
  await modal.waitFor({ state: 'attached', timeout: 30_000 });
  const app = page.frameLocator('[data-testid="app-elicitation"] iframe').frameLocator('iframe');
  await app.locator('form#form:not([hidden])').waitFor({ timeout: stepTimeout });
  return app;
}

async function resultText(page) {
  const panel = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Results', exact: true }) });
  await panel.locator('pre').first().waitFor();
  return ((await panel.locator('pre').first().textContent()) ?? '').trim();
}

async function closeResults(page) {
  const close = page.getByRole('button', { name: 'Close results' });
  if (await close.isVisible().catch(() => false)) await close.click();
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'elicitgen-inspector-app-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const inspector = await startInspector(tmp);
  const context = await chromium.launchPersistentContext(path.join(tmp, 'chromium-profile'), {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    locale: 'en-US',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: 30_000,
  });
  cleanups.push(() => { context.close().catch(() => {}); });
  await context.route((u) => !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(u.href), (route) => route.abort('blockedbyclient'));
  context.setDefaultTimeout(stepTimeout);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(inspector.url + '/', { waitUntil: 'domcontentloaded' });
  const version = await connect(page, era.entry);
  check(`connected: the Inspector speaks ${era.version}`, version === era.version, version);
  const args = { service: 'billing' };
  const cases = [
    { name: 'accept', fill: async (app) => {
      const branch = await app.getByLabel('Branch').inputValue();
      check('the app pre-fills the branch', branch === 'release/2.4', branch);
      await app.getByLabel('Environment').selectOption('production');
      await app.getByLabel(/I confirm this deploy/).check();
      await screenshot(page, 'app-form');
      await app.getByRole('button', { name: 'Accept' }).click();
    }, want: /^Deployed billing@release\/2\.4 to production \(dep-[0-9]+\)\.$/ },
    { name: 'decline', fill: async (app) => { await app.getByRole('button', { name: 'Decline' }).click(); },
      want: /declined/ },
  ];
  for (const c of cases) {
    try {
      await runTool(page, 'deploy_to_production', args);
      const app = await appForm(page);
      check(`${c.name}: the form app draws the form, not the Inspector's dialog`, (await page.getByRole('dialog', { name: /Elicitation Request/ }).count()) === 0);
      await c.fill(app);
      const text = await resultText(page);
      check(`${c.name}: result "${text}"`, c.want.test(text), text);
      await screenshot(page, `app-${c.name}-result`);
      await closeResults(page);
    } catch (e) {
      await screenshot(page, `app-${c.name}-failure`).catch(() => {});
      check(c.name, false, String(e?.message ?? e).split('\n')[0]);
      await page.keyboard.press('Escape').catch(() => {});
    }
  }
  await context.close();
}

try {
  await main();
} catch (e) {
  check('inspector-app run', false, e?.stack ?? String(e));
}
cleanupSync();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
