// The MCP Inspector's web server and the steps of its UI that every
// Inspector test of the example takes (inspector-ui.mjs, inspector-app.mjs):
// start it on a free loopback port with a read-only server list, show a
// screen, connect and disconnect a server entry.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaled } from './scale.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

// runner returns a script's check (one line per check), its cleanups (run
// at exit, last first) and finish, which runs them, prints the closing
// "N passed, N failed" and exits 1 on any failure; the whole run fails
// after limitMs (scaled: scale.mjs).
export function runner(name, limitMs) {
  limitMs = scaled(limitMs);
  const t0 = Date.now();
  let passed = 0;
  let failed = 0;
  const check = (what, ok, detail) => {
    if (ok) {
      passed++;
      console.log(`ok   ${what}` + (process.env.TIMING ? ` (${((Date.now() - t0) / 1000).toFixed(1)}s)` : ''));
    } else {
      failed++;
      console.log(`FAIL ${what}${detail === undefined ? '' : ': ' + (typeof detail === 'string' ? detail : JSON.stringify(detail))}`);
    }
  };
  const cleanups = [];
  const cleanupSync = () => {
    for (const f of cleanups.splice(0).reverse()) {
      try { f(); } catch { /* best effort */ }
    }
  };
  process.on('exit', cleanupSync);
  const deadline = setTimeout(() => {
    console.log(`FAIL ${name}: timed out after ${limitMs / 1000}s`);
    console.log(`${passed} passed, ${failed + 1} failed`);
    process.exit(1);
  }, limitMs);
  deadline.unref();
  const finish = () => {
    cleanupSync();
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
  };
  return { check, cleanups, finish };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// startInspector runs the Inspector's web server with servers as its
// mcpServers list and resolves with its URL; cleanups gets its kill.
export async function startInspector(tmp, servers, cleanups) {
  const config = path.join(tmp, 'servers.json');
  fs.writeFileSync(config, JSON.stringify({ mcpServers: servers }, null, 2));
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
  const until = Date.now() + scaled(30_000);
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

// showScreen shows the Servers or Tools screen (tabs of the header while
// connected).
export async function showScreen(page, name) {
  const tab = page.getByRole('banner').getByRole('radio', { name, exact: true });
  if (name === 'Servers' && (await tab.count()) === 0) return; // not connected: the server list is the page
  await tab.evaluate((el) => el.click()); // a segmented control's radio, drawn invisible
  await page.getByRole('main').getByRole('heading', { name: new RegExp(`^${name}\\b`), level: 3 }).first().waitFor();
}

// connect connects entry on the Servers screen and returns the protocol
// version it negotiated.
export async function connect(page, entry) {
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

export async function disconnect(page, entry) {
  await showScreen(page, 'Servers');
  const name = `Connect or disconnect "${entry}"`;
  await page.getByRole('switch', { name, checked: true }).evaluate((el) => el.click());
  // Disconnected: no switch on, every switch usable again.
  await page.waitForFunction(() => {
    const all = [...document.querySelectorAll('input[role=switch]')];
    return all.length > 0 && all.every((el) => !el.checked && !el.disabled);
  });
  // The header keeps its Servers and Tools tabs a moment longer: they go
  // once the page is drawn disconnected (on a busy machine, well after
  // the switches), and the next showScreen must not see them go.
  await page.getByRole('banner').getByRole('radio', { name: 'Servers', exact: true }).waitFor({ state: 'detached' });
}

