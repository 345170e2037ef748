// Answers the elicitgen example server's forms as a person would, in the
// MCP Inspector web UI (@modelcontextprotocol/inspector, pinned in
// package.json) running in headless Chromium (Debian's chromium package,
// /usr/bin/chromium, driven by playwright-core; no browser is ever
// downloaded).
//
//   node inspector-ui.mjs http://127.0.0.1:PORT/mcp [ARTIFACTS_DIR]
//
// It starts the Inspector's web server on a free loopback port (no auth
// token, no browser opened, state in a temporary HOME, secrets in memory)
// with a read-only server list of three entries for the one URL: the
// 2026-07-28 era ("modern"), the 2025-11-25 era ("legacy"), and 2026-07-28
// with acceptLanguage ja in every request's _meta. On each era it connects
// the UI, and for each tool with a form (deploy_to_production, book_table,
// kr_dashboard, send_campaign) fills the tool's arguments, executes it,
// answers the elicitation dialog (selects, checkboxes, pre-filled text),
// submits it and checks the tool result the UI shows, text and structured
// output; a decline and the URL-mode dialog of connect_account (cancelled:
// its page is never opened) are checked too. The Japanese deploy form must
// render its Japanese titles with a CJK font (Chromium reports the
// platform font used for the text).
//
// The Inspector keeps Submit disabled until a required boolean field has a
// value: a form whose boolean has no default cannot be submitted before
// the person ticks (or unticks) it. Each form is checked both ways: the
// schema the server sends (read with the TypeScript SDK client) decides
// whether Submit must be enabled before the checkbox is touched.
//
// Screenshots go to ARTIFACTS_DIR (default: ./artifacts). Only loopback
// is reached: every other request of the page (the Inspector's web fonts)
// is aborted and listed. Every step has a timeout, and the whole run
// stops after 240 s (each scaled by ELICITGEN_TEST_SCALE: scale.mjs).
//
// Prints one line per check and a closing "N passed, N failed"; exits 1
// on any failure.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { connect, disconnect, runner, showScreen, startInspector } from './inspector-host.mjs';
import { scaled } from './scale.mjs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverURL = process.argv[2];
if (!serverURL) {
  console.error('usage: node inspector-ui.mjs http://127.0.0.1:PORT/mcp [ARTIFACTS_DIR]');
  process.exit(2);
}
const artifacts = path.resolve(process.argv[3] ?? path.join(here, 'artifacts', 'inspector-ui'));
fs.mkdirSync(artifacts, { recursive: true });
for (const f of fs.readdirSync(artifacts)) if (f.endsWith('.png')) fs.rmSync(path.join(artifacts, f)); // this run's screenshots only
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const stepTimeout = scaled(15_000);

const { check, cleanups, finish } = runner('inspector-ui', 240_000);

// The Inspector's server list: one URL, three ways to connect.
const eras = [
  { entry: 'elicitgen-2026-07-28', protocolEra: 'modern', version: '2026-07-28', sdk: { mode: 'auto' } },
  { entry: 'elicitgen-2025-11-25', protocolEra: 'legacy', version: '2025-11-25', sdk: undefined },
];
const japanese = { entry: 'elicitgen-ja', protocolEra: 'modern', version: '2026-07-28', metadata: { 'io.modelcontextprotocol/acceptLanguage': 'ja' } };

// serverList is the Inspector's server list: one URL, three ways to connect.
function serverList() {
  const servers = {};
  for (const e of [...eras, japanese]) {
    servers[e.entry] = { type: 'http', url: serverURL, protocolEra: e.protocolEra, ...(e.metadata ? { metadata: e.metadata } : {}) };
  }
  return servers;
}

// questionsFor asks every form tool once on era with the TypeScript SDK
// client, cancelling each question, and returns each tool's requested
// schema as the server sends it on that era.
async function questionsFor(era, tools) {
  const client = new Client({ name: 'inspector-ui-schema-probe', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, ...(era.sdk ? { versionNegotiation: era.sdk } : {}) });
  const schemas = {};
  let current;
  client.setRequestHandler('elicitation/create', async (req) => {
    schemas[current] = req.params.requestedSchema;
    return { action: 'cancel' };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(serverURL)));
  for (const t of tools) {
    current = t.tool;
    await client.callTool({ name: t.tool, arguments: t.args });
  }
  await client.close();
  return schemas;
}

// Every form tool: its arguments, how a person answers its form, and the
// result text that answer must give.
const tools = [
  {
    tool: 'deploy_to_production', args: { service: 'billing' },
    fields: { prefilled: { Branch: 'release/2.4' }, selects: { Environment: 'Production' }, checkboxes: ['I confirm this deploy'] },
    result: /^Deployed billing@release\/2\.4 to production \(dep-[0-9]+\)\.$/,
    structured: { outcome: 'accepted', deployed: true, environment: 'production', branch: 'release/2.4' },
  },
  {
    tool: 'book_table', args: { date: '2026-12-24', party_size: 4 },
    fields: { prefilled: { 'Preferred date': '2026-12-27' }, checkboxes: ['Try another date?'] },
    result: /^Booked a table for 4 on 2026-12-27 \(bk-[0-9]+\)\.$/,
    structured: { outcome: 'accepted', booked: true, booked_date: '2026-12-27' },
  },
  {
    tool: 'kr_dashboard', args: { org: 'acme' },
    fields: { selects: { 'Key result': 'Cut monthly churn below 2%' } },
    result: /^kr-churn: "Cut monthly churn below 2%", 2 records\.$/,
    structured: { outcome: 'accepted', kr: 'kr-churn' },
  },
  {
    tool: 'send_campaign', args: { campaign: 'Spring sale', recipients: ['ana@example.com', 'bo@example.com', 'cy@example.com'] },
    fields: { selects: { 'Send window': 'Tomorrow at 09:00' }, checkboxes: ['Approve sending'] },
    result: /^Campaign "Spring sale" to 3 recipients scheduled: tomorrow \(.+\)\.$/,
    structured: { outcome: 'accepted', scheduled: true, send_window: 'tomorrow', recipients: 3 },
  },
];

// requiredBooleans lists the required boolean properties of schema and
// whether each has a default.
function requiredBooleans(schema) {
  return Object.entries(schema?.properties ?? {})
    .filter(([name, p]) => p.type === 'boolean' && (schema.required ?? []).includes(name))
    .map(([name, p]) => ({ name, title: p.title ?? name, hasDefault: p.default !== undefined }));
}

let shot = 0;
async function screenshot(page, name) {
  const file = path.join(artifacts, `${String(++shot).padStart(2, '0')}-${name.replace(/[^a-zA-Z0-9.-]+/g, '_')}.png`);
  await page.screenshot({ path: file });
  return file;
}

// openTool selects the tool, fills its arguments and executes it; it
// returns the elicitation dialog.
async function openTool(page, t) {
  await showScreen(page, 'Tools');
  await page.getByRole('button', { name: new RegExp(`\\b${t.tool}\\b`) }).first().click();
  for (const [name, value] of Object.entries(t.args)) {
    const box = page.getByRole('main').getByRole('textbox', { name: new RegExp(`^${name}\\b`) }).first();
    if (Array.isArray(value)) {
      // A JSON editor (the array property): replace its text.
      await box.focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(JSON.stringify(value));
    } else {
      await box.fill(String(value));
    }
  }
  const exec = page.getByRole('button', { name: 'Execute Tool' });
  await exec.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

// result waits for the Results panel and returns its text and the
// structured output.
async function result(page) {
  const panel = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Results', exact: true }) });
  await panel.getByTestId('structured-output').waitFor();
  const text = ((await panel.locator('pre').first().textContent()) ?? '').trim();
  // The structured output is an Ace editor, which draws only the lines in
  // view: read its whole text from the editor.
  const json = await panel.getByTestId('structured-output').locator('.ace_editor').first()
    .evaluate((el) => el.env?.editor?.getValue() ?? el.innerText);
  let structured = null;
  try { structured = JSON.parse(json); } catch { /* reported by the caller */ }
  return { text, structured, raw: json };
}

async function closeResults(page) {
  const close = page.getByRole('button', { name: 'Close results' });
  if (await close.isVisible().catch(() => false)) await close.click();
}

const subset = (want, got) => got && Object.entries(want).every(([k, v]) => JSON.stringify(got[k]) === JSON.stringify(v));

// answer fills dialog as tool t's form says and submits it; it returns
// whether Submit was enabled before the checkboxes were touched.
async function answer(page, dialog, t, tag) {
  const f = t.fields;
  for (const [label, value] of Object.entries(f.prefilled ?? {})) {
    const v = await dialog.getByRole('textbox', { name: label, exact: true }).inputValue();
    check(`[${tag}] ${t.tool}: "${label}" pre-filled with ${value}`, v === value, v);
  }
  for (const [label, option] of Object.entries(f.selects ?? {})) {
    await dialog.getByRole('textbox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }
  const submit = dialog.getByRole('button', { name: 'Submit' });
  const before = await submit.isEnabled();
  for (const label of f.checkboxes ?? []) {
    await dialog.getByRole('checkbox', { name: label, exact: true }).check();
  }
  await screenshot(page, `${tag}-${t.tool}-form`);
  await submit.click({ timeout: stepTimeout });
  await dialog.waitFor({ state: 'hidden' });
  return before;
}

async function runEra(page, era) {
  const tag = era.version;
  const version = await connect(page, era.entry);
  check(`[${tag}] connected to ${era.entry}: the Inspector speaks ${era.version}`, version === era.version, version);
  const schemas = await questionsFor(era, tools);
  await showScreen(page, 'Tools');
  // Schema portability warnings the Inspector shows on the tool list.
  const labels = await page.getByRole('main').getByRole('button', { name: /Schema portability: [0-9]+ warning/ })
    .evaluateAll((els) => els.map((el) => `${el.querySelectorAll('p')[1]?.textContent} (${el.querySelector('[aria-label^="Schema portability"]')?.getAttribute('aria-label')})`));
  console.log(`note [${tag}] tools the Inspector flags as not portable: ${labels.length === 0 ? 'none' : labels.join('; ')}`);

  for (const t of tools) {
    const name = `[${tag}] ${t.tool}`;
    try {
      const dialog = await openTool(page, t);
      const title = await dialog.getByRole('heading').first().textContent();
      check(`${name}: the elicitation dialog opens`, /Elicitation Request/.test(title), title);
      const bools = requiredBooleans(schemas[t.tool]);
      const before = await answer(page, dialog, t, tag);
      if (bools.length > 0) {
        // The Inspector enables Submit only when every required field has
        // a value: a boolean sent without a default has none until touched.
        const allDefaulted = bools.every((b) => b.hasDefault);
        check(`${name}: Submit ${allDefaulted ? 'enabled' : 'disabled'} before the checkbox is touched (boolean ${bools.map((b) => `"${b.name}" ${b.hasDefault ? 'with' : 'without'} a default`).join(', ')})`,
          before === allDefaulted, { before, bools });
        console.log(`note ${name}: Submit was ${before ? 'enabled' : 'disabled'} before touching ${bools.map((b) => `"${b.title}"`).join(', ')}`);
      }
      const r = await result(page);
      check(`${name}: result "${r.text}"`, t.result.test(r.text), r.text);
      check(`${name}: structured output`, subset(t.structured, r.structured), r.raw);
      await screenshot(page, `${tag}-${t.tool}-result`);
      await closeResults(page);
    } catch (e) {
      await screenshot(page, `${tag}-${t.tool}-failure`).catch(() => {});
      check(name, false, String(e?.message ?? e).split('\n')[0]);
      await page.keyboard.press('Escape').catch(() => {});
    }
  }

  // A cleared optional box is an absent answer: the default branch
  // deploys (the Inspector sends branch: "").
  {
    const t = { tool: 'deploy_to_production', args: { service: 'search' }, fields: { selects: { Environment: 'Staging' }, checkboxes: ['I confirm this deploy'] } };
    const name = `[${tag}] deploy_to_production with the branch box cleared`;
    try {
      const dialog = await openTool(page, t);
      await dialog.getByRole('textbox', { name: 'Branch', exact: true }).fill('');
      await answer(page, dialog, t, tag);
      const r = await result(page);
      check(`${name}: result "${r.text}"`, /^Deployed search@main to staging \(dep-[0-9]+\)\.$/.test(r.text), r.text);
      await closeResults(page);
    } catch (e) {
      await screenshot(page, `${tag}-cleared-branch-failure`).catch(() => {});
      check(name, false, String(e?.message ?? e).split('\n')[0]);
      await page.keyboard.press('Escape').catch(() => {});
    }
  }

  // Decline, and the URL-mode dialog (cancelled: the page is not opened).
  for (const [t, button, want] of [
    [tools[2], 'Decline', /^No key result opened: the user declined\.$/],
    [{ tool: 'connect_account', args: { provider: 'github' } }, 'Cancel', /^Not connected: the user cancelled\.$/],
  ]) {
    const name = `[${tag}] ${t.tool} ${button.toLowerCase()}`;
    try {
      const dialog = await openTool(page, t);
      if (t.tool === 'connect_account') {
        const shown = await dialog.getByText(/^https:\/\/accounts\.example\.com\/connect\/github\?flow=/).isVisible();
        check(`${name}: the dialog shows the connect page's URL`, shown);
        await screenshot(page, `${tag}-${t.tool}-url`);
      }
      await dialog.getByRole('button', { name: button, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      // The Inspector declares the MCP Tasks extension: on 2026-07-28 the
      // server runs the asking call as a task, and the Inspector answers
      // a Cancel in a task's dialog with tasks/cancel (the task ends
      // cancelled, no tool result) instead of a cancel answer.
      const cancelled = page.getByText(/^cancelled$/i).first();
      const panel = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Results', exact: true }) });
      await Promise.race([cancelled.waitFor(), panel.getByTestId('structured-output').waitFor()]);
      if (button === 'Cancel' && await cancelled.isVisible()) {
        check(`${name}: the Inspector cancels the task (tasks/cancel)`, true);
      } else {
        const r = await result(page);
        check(`${name}: result "${r.text}"`, want.test(r.text), r.text);
        await closeResults(page);
      }
    } catch (e) {
      await screenshot(page, `${tag}-${t.tool}-${button}-failure`).catch(() => {});
      check(name, false, String(e?.message ?? e).split('\n')[0]);
      await page.keyboard.press('Escape').catch(() => {});
    }
  }
  await disconnect(page, era.entry);
}

async function runJapanese(page) {
  const tag = `${japanese.version} ja`;
  const version = await connect(page, japanese.entry);
  check(`[${tag}] connected to ${japanese.entry}`, version === japanese.version, version);
  const t = {
    tool: 'deploy_to_production', args: { service: 'billing' },
    fields: { prefilled: { 'ブランチ': 'release/2.4' }, selects: { '環境': '本番' }, checkboxes: ['このデプロイを承認します'] },
  };
  const name = `[${tag}] deploy_to_production`;
  try {
    const dialog = await openTool(page, t);
    const message = await dialog.getByText(/をデプロイしますか/).first().textContent();
    check(`${name}: the message is in Japanese`, /billing をデプロイしますか\? 現在のブランチは release\/2\.4 です。/.test(message), message);
    const label = dialog.getByText('このデプロイを承認します', { exact: true }).first();
    const fonts = await fontsOf(page, label);
    check(`${name}: the Japanese title is drawn with a CJK font`, fonts.some((f) => /CJK/i.test(f.familyName)) && !fonts.some((f) => /last ?resort/i.test(f.familyName)), fonts);
    await answer(page, dialog, t, tag);
    const r = await result(page);
    check(`${name}: result "${r.text}"`, /^Deployed billing@release\/2\.4 to production \(dep-[0-9]+\)\.$/.test(r.text), r.text);
    await screenshot(page, `${tag}-deploy-result`);
    await closeResults(page);
  } catch (e) {
    await screenshot(page, `${tag}-deploy-failure`).catch(() => {});
    check(name, false, String(e?.message ?? e).split('\n')[0]);
  }

  await disconnect(page, japanese.entry);
}

// fontsOf returns the platform fonts Chromium used for the text of the
// first element that loc matches (CSS.getPlatformFontsForNode).
async function fontsOf(page, loc) {
  const marker = `fonts-${Date.now()}`;
  await loc.evaluate((el, m) => el.setAttribute('data-font-probe', m), marker);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `[data-font-probe="${marker}"]` });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'elicitgen-inspector-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const inspector = await startInspector(tmp, serverList(), cleanups);
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
  const blocked = new Set();
  await context.route((u) => !/^http:\/\/127\.0\.0\.1[:/]/.test(u.href), (route) => {
    blocked.add(new URL(route.request().url()).origin);
    return route.abort('blockedbyclient');
  });
  context.setDefaultTimeout(stepTimeout);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(inspector.url + '/', { waitUntil: 'domcontentloaded' });
  try {
    for (const era of eras) {
      try {
        await runEra(page, era);
      } catch (e) {
        await screenshot(page, `${era.version}-failure`).catch(() => {});
        check(`[${era.version}] run`, false, e?.stack ?? String(e));
        await page.goto(inspector.url + '/', { waitUntil: 'domcontentloaded' });
      }
    }
    await runJapanese(page);
  } finally {
    console.log(`note requests outside loopback aborted: ${blocked.size === 0 ? 'none' : [...blocked].join(', ')}`);
    console.log(`note screenshots in ${artifacts}`);
    await context.close();
  }
}

try {
  await main();
} catch (e) {
  check('inspector-ui run', false, e?.stack ?? String(e));
}
finish();
