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
// decline. Prints one line per check and "N passed, N failed".

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { connect, disconnect, runner, showScreen, startInspector } from './inspector-host.mjs';
import { scaled } from './scale.mjs';

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
const stepTimeout = scaled(15_000);

const { check, cleanups, finish } = runner('inspector-app', 180_000);

// The one server entry: the example on 2026-07-28.
const era = { entry: 'elicitgen-app', protocolEra: 'modern', version: '2026-07-28' };

let shot = 0;
async function screenshot(page, name) {
  const file = path.join(artifacts, `${String(++shot).padStart(2, '0')}-${name.replace(/[^a-zA-Z0-9.-]+/g, '_')}.png`);
  await page.screenshot({ path: file });
  return file;
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
  await modal.waitFor({ state: 'attached', timeout: scaled(30_000) });
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
  const inspector = await startInspector(tmp, { [era.entry]: { type: 'http', url: serverURL, protocolEra: era.protocolEra } }, cleanups);
  const context = await chromium.launchPersistentContext(path.join(tmp, 'chromium-profile'), {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    locale: 'en-US',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: scaled(30_000),
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
finish();
