// Opens an approver's inbox (package runtime/page, BaseURL + "inbox") and
// a one-time link in headless Chromium (Debian's /usr/bin/chromium, driven
// by playwright-core), and checks each page with axe-core.
//
//   node inbox-ui.mjs PLAN.json [ARTIFACTS_DIR]
//
// PLAN.json is written by example/browsertest/inbox_test.go: for each
// case, a URL, the identity headers and language, the status, heading and
// sentences to expect (and those not to), and whether to follow the
// first link of the inbox to its page (a form must open) or open the URL
// a second time (a one-time link: refused, with its sentence).
//
// Only loopback is reached. Every step has a timeout, and the run stops
// after 60 s. Prints one line per check and a closing "N passed, N
// failed"; exits 1 on any failure.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { scaled } from './scale.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const planPath = process.argv[2];
if (!planPath) {
  console.error('usage: node inbox-ui.mjs PLAN.json [ARTIFACTS_DIR]');
  process.exit(2);
}
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
const artifacts = path.resolve(process.argv[3] ?? path.join(here, 'artifacts', 'inbox-ui'));
fs.mkdirSync(artifacts, { recursive: true });
const axeSource = fs.readFileSync(path.join(here, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

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
  console.log(`FAIL inbox-ui: timed out after ${scaled(60_000) / 1000}s`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}, scaled(60_000));

// axe checks the page in its current state: every WCAG 2.x A/AA rule
// and best practice axe has.
async function axe(page, name) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) {
    await page.evaluate(axeSource); // DevTools evaluation: the page's CSP (no script) does not apply
  }
  const res = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
  check(`${name}: axe-core reports no violations`, res.length === 0, res);
}

async function runCase(browser, c) {
  const headers = { ...c.headers, 'Accept-Language': c.lang === 'ja' ? 'ja-JP,ja;q=0.9' : 'en-US,en;q=0.9' };
  const context = await browser.newContext({ extraHTTPHeaders: headers, viewport: { width: 900, height: 1000 } });
  context.setDefaultTimeout(scaled(10_000));
  await context.route((u) => !/^http:\/\/127\.0\.0\.1[:/]/.test(u.href), (route) => route.abort('blockedbyclient'));
  const page = await context.newPage();
  const cspErrors = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text()); });
  const n = c.name;
  try {
    let resp = await page.goto(c.url, { waitUntil: 'domcontentloaded' });
    check(`${n}: status ${c.status}`, resp.status() === c.status, resp.status());
    check(`${n}: <html lang> is ${c.lang}`, (await page.getAttribute('html', 'lang')) === c.lang);
    check(`${n}: heading`, (await page.textContent('h1'))?.trim() === c.heading, await page.textContent('h1'));
    const main = await page.textContent('main');
    for (const s of c.contains ?? []) check(`${n}: shows "${s}"`, main.includes(s), main);
    for (const s of c.absent ?? []) check(`${n}: does not show "${s}"`, !main.includes(s));
    await page.screenshot({ path: path.join(artifacts, `${c.file}.png`), fullPage: true });
    await axe(page, n);
    if (c.follow) {
      const [r] = await Promise.all([
        page.waitForNavigation({ waitUntil: 'domcontentloaded' }),
        page.click('#inbox a'),
      ]);
      check(`${n}: its link opens the question's page (200)`, r.status() === 200, r.status());
      check(`${n}: the page shows its form`, (await page.$('form')) !== null);
    }
    if (c.againStatus) {
      resp = await page.goto(c.url, { waitUntil: 'domcontentloaded' });
      check(`${n}: opened again, refused (${c.againStatus})`, resp.status() === c.againStatus, resp.status());
      const say = (await page.textContent('#notice'))?.trim();
      check(`${n}: opened again, says so`, say === c.againSay, say);
      await axe(page, `${n} opened again`);
    }
    check(`${n}: no Content-Security-Policy violations`, cspErrors.length === 0, cspErrors);
  } catch (e) {
    await page.screenshot({ path: path.join(artifacts, `${c.file}-failure.png`), fullPage: true }).catch(() => {});
    check(`${n}: run`, false, e?.stack ?? String(e));
  } finally {
    await context.close();
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  timeout: scaled(30_000),
});
try {
  for (const c of plan.cases) await runCase(browser, c);
} finally {
  await browser.close();
  clearTimeout(deadline);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
