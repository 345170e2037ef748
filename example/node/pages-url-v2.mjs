// A client built on the official TypeScript SDK v2 (@modelcontextprotocol/client)
// that declares URL-mode elicitation only, against the example server
// with hosted pages: the deploy question arrives as a URL-mode request to
// its page, which is answered over plain HTTP, and the call completes, on
// 2026-07-28 (the retry takes the page's answer by its sealed flow id)
// and on 2025-11-25 (notifications/elicitation/complete arrives).
//
//   node pages-url-v2.mjs http://127.0.0.1:PORT/mcp X-Forwarded-User

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerPage, checker, textOf } from './pages-common.mjs';
import { scaled } from './scale.mjs';

const [url, header] = process.argv.slice(2);
if (!url || !header) {
  console.error('usage: node pages-url-v2.mjs http://127.0.0.1:PORT/mcp HEADER');
  process.exit(2);
}
setTimeout(() => {
  console.error(`pages-url-v2: timed out after ${scaled(60_000) / 1000}s`);
  process.exit(1);
}, scaled(60_000)).unref();
const c = checker();

for (const era of [
  { name: '2026-07-28', negotiation: { versionNegotiation: { mode: 'auto' } } },
  { name: '2025-11-25', negotiation: {} },
]) {
  const client = new Client({ name: 'ts-v2-url-only', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } }, ...era.negotiation });
  const asked = [];
  let completed = null;
  const completion = new Promise((resolve) => (completed = resolve));
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(req.params);
    if (req.params.mode !== 'url') return { action: 'decline' };
    const status = await answerPage(req.params.url, header, 'alice', 'accept', { branch: 'main', environment: 'staging', confirmed: 'true' });
    if (status !== 200) throw new Error(`page answered ${status}`);
    return { action: 'accept' };
  });
  client.setNotificationHandler('notifications/elicitation/complete', (n) => completed(n.params.elicitationId));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { [header]: 'alice' } } }));
  await client.listTools();
  const res = await client.callTool({ name: 'deploy_to_production', arguments: { service: 'billing' } });
  c.check(`${era.name}: one URL-mode request to the page`, asked.length === 1 && asked[0].mode === 'url' && asked[0].url.includes('/elicit/'), asked);
  c.check(`${era.name}: the call completes with the page's answer`, !res.isError && textOf(res).startsWith('Deployed billing@main to staging'), textOf(res));
  if (era.name === '2025-11-25') {
    const id = await Promise.race([completion, new Promise((r) => setTimeout(() => r(null), scaled(5000)))]);
    c.check(`${era.name}: notifications/elicitation/complete arrives for the flow`, id !== null && id === asked[0].elicitationId, { id, asked: asked[0]?.elicitationId });
  }
  await client.close();
}
c.done();
