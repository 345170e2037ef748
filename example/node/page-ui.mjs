// Answers elicitgen's hosted form pages (package runtime/page) as a person
// would, in headless Chromium (Debian's chromium package, /usr/bin/chromium,
// driven by playwright-core; no browser is ever downloaded), and checks
// each page with axe-core (pinned in package.json).
//
//   node page-ui.mjs PLAN.json [ARTIFACTS_DIR]
//
// PLAN.json is written by example/browsertest/pages_test.go: for each page, its URL,
// the person's identity header, the language, the sentences to expect,
// and the inputs to fill in, first invalid (the page must come back with
// an error beside each named field, keeping what was typed), then valid.
// Then: a declined page, a page reopened after its answer, an expired
// page, and a page opened by someone else. The Go test takes the answers
// afterwards and decodes them with the generated forms.
//
// Only loopback is reached. Every step has a timeout, and the run stops
// after 120 s. Prints one line per check and a closing "N passed, N
// failed"; exits 1 on any failure.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { scaled } from './scale.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const planPath = process.argv[2];
if (!planPath) {
  console.error('usage: node page-ui.mjs PLAN.json [ARTIFACTS_DIR]');
  process.exit(2);
}
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
const artifacts = path.resolve(process.argv[3] ?? path.join(here, 'artifacts', 'page-ui'));
fs.mkdirSync(artifacts, { recursive: true });
const axeSource = fs.readFileSync(path.join(here, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

const t0 = Date.now();
let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}` + (process.env.TIMING ? ` (${((Date.now() - t0) / 1000).toFixed(2)}s)` : ''));
  } else {
    failed++;
    console.log(`FAIL ${name}${detail === undefined ? '' : ': ' + (typeof detail === 'string' ? detail : JSON.stringify(detail))}`);
  }
}
const deadline = setTimeout(() => {
  console.log(`FAIL page-ui: timed out after ${scaled(120_000) / 1000}s`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}, scaled(120_000));

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

async function fill(page, steps) {
  for (const s of steps) {
    const sel = `[name="${s.name}"]`;
    switch (s.do) {
      case 'fill': await page.fill(sel, s.value); break;
      case 'check': await page.check(sel); break;
      case 'uncheck': await page.uncheck(sel); break;
      case 'radio': await page.check(`input${sel}[value="${s.value}"]`); break;
      case 'select': await page.selectOption(`select${sel}`, s.value); break;
      case 'checks':
        for (const el of await page.$$(`input${sel}`)) {
          const v = await el.getAttribute('value');
          if (s.values.includes(v)) await el.check(); else await el.uncheck();
        }
        break;
      default: throw new Error(`unknown step ${s.do}`);
    }
  }
}

async function submit(page, which) {
  const [resp] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'domcontentloaded' }),
    page.click(`button[value="${which}"]`),
  ]);
  return resp;
}

async function notice(page) {
  return (await page.textContent('#notice'))?.trim();
}

// The error beside a field: the element its control (or, for a group,
// its fieldset) names in aria-describedby, ending in -err.
async function fieldError(page, name) {
  return page.evaluate((name) => {
    const el = document.querySelector(`[name="${name}"]`);
    if (!el) return null;
    const holder = el.closest('fieldset') ?? el;
    const ids = (holder.getAttribute('aria-describedby') ?? '').split(/\s+/);
    const errID = ids.find((id) => id.endsWith('-err'));
    const err = errID && document.getElementById(errID);
    return err && err.offsetParent !== null ? err.textContent.trim() : null;
  }, name);
}

async function runCase(page, c, cspErrors) {
  cspErrors.length = 0;
  // The person's browser states their language: the page's notices for
  // a link that no longer opens (expired) can only follow it.
  await page.setExtraHTTPHeaders({ 'Accept-Language': c.lang === 'ja' ? 'ja-JP,ja;q=0.9' : 'en-US,en;q=0.9' });
  const n = c.name;
  try {
    let resp = await page.goto(c.url, { waitUntil: 'domcontentloaded' });
    check(`${n}: page opens (200)`, resp.status() === 200, resp.status());
    check(`${n}: <html lang> is ${c.lang}`, (await page.getAttribute('html', 'lang')) === c.lang);
    check(`${n}: heading`, (await page.textContent('h1'))?.trim() === c.heading, await page.textContent('h1'));
    for (const label of c.labels ?? []) {
      check(`${n}: shows "${label}"`, (await page.textContent('main')).includes(label));
    }
    await axe(page, `${n} form`);
    if (c.errors?.length) {
      await fill(page, c.invalid ?? []);
      resp = await submit(page, 'accept');
      check(`${n}: invalid answer comes back (422)`, resp.status() === 422, resp.status());
      const focused = await page.evaluate(() => document.activeElement?.id);
      check(`${n}: the error summary has the focus`, focused === 'summary', focused);
      for (const f of c.errors) {
        const msg = await fieldError(page, f);
        check(`${n}: error beside ${f}`, !!msg, msg);
      }
      for (const s of (c.invalid ?? []).filter((s) => s.do === 'fill')) {
        check(`${n}: keeps what was typed in ${s.name}`, (await page.inputValue(`[name="${s.name}"]`)) === s.value);
      }
      await page.screenshot({ path: path.join(artifacts, `${c.file}-invalid.png`), fullPage: true });
      await axe(page, `${n} errors`);
    }
    await fill(page, c.valid);
    resp = await submit(page, 'accept');
    check(`${n}: valid answer accepted (200)`, resp.status() === 200, resp.status());
    check(`${n}: says it was sent`, (await notice(page)) === c.sent, await notice(page));
    const sentHeading = (await page.textContent('h1'))?.trim();
    check(`${n}: the heading says it was sent`, !!sentHeading && sentHeading !== c.heading, sentHeading);
    resp = await page.goto(c.url, { waitUntil: 'domcontentloaded' });
    check(`${n}: reopened page refuses (409)`, resp.status() === 409, resp.status());
    check(`${n}: says it was answered`, (await notice(page)) === c.answered, await notice(page));
    if (c.declineURL) {
      resp = await page.goto(c.declineURL, { waitUntil: 'domcontentloaded' });
      resp = await submit(page, 'decline');
      check(`${n}: decline recorded (200)`, resp.status() === 200, resp.status());
      check(`${n}: says it was declined`, (await notice(page)) === c.declined, await notice(page));
      if (c.axeNotices) await axe(page, `${n} declined notice`);
    }
    if (c.expiredURL) {
      resp = await page.goto(c.expiredURL, { waitUntil: 'domcontentloaded' });
      check(`${n}: expired page refuses (410)`, resp.status() === 410, resp.status());
      check(`${n}: says it expired`, (await notice(page)) === c.expired, await notice(page));
      if (c.axeNotices) await axe(page, `${n} expired notice`);
    }
    check(`${n}: no Content-Security-Policy violations`, cspErrors.length === 0, cspErrors);
  } catch (e) {
    await page.screenshot({ path: path.join(artifacts, `${c.file}-failure.png`), fullPage: true }).catch(() => {});
    check(`${n}: run`, false, e?.stack ?? String(e));
  }
}

async function runStranger(browser, s) {
  const context = await browser.newContext({ extraHTTPHeaders: s.headers });
  const page = await context.newPage();
  try {
    const resp = await page.goto(s.url, { waitUntil: 'domcontentloaded' });
    check(`${s.name}: refused (403)`, resp.status() === 403, resp.status());
    check(`${s.name}: says so`, (await notice(page)) === s.say, await notice(page));
    check(`${s.name}: no form shown`, (await page.$('form')) === null);
  } catch (e) {
    check(`${s.name}: run`, false, e?.stack ?? String(e));
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
  // One context and one tab for the person: each page's CSRF cookie is
  // scoped to its own path.
  const context = await browser.newContext({ extraHTTPHeaders: plan.headers, viewport: { width: 900, height: 1000 } });
  context.setDefaultTimeout(scaled(10_000));
  await context.route((u) => !/^http:\/\/127\.0\.0\.1[:/]/.test(u.href), (route) => route.abort('blockedbyclient'));
  const page = await context.newPage();
  const cspErrors = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text()); });
  for (const c of plan.cases) await runCase(page, c, cspErrors);
  await context.close();
  for (const s of plan.strangers ?? []) await runStranger(browser, s);
} finally {
  await browser.close();
  clearTimeout(deadline);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
