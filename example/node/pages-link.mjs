// A client built on the official TypeScript SDK v1 (@modelcontextprotocol/sdk)
// that declares no elicitation, against the example server with hosted
// pages: the deploy tool's result carries the page's link; the page is
// answered over plain HTTP; the same call again deploys, once; a third
// call asks again. Calls with other arguments or by another person take
// nothing.
//
//   node pages-link.mjs http://127.0.0.1:PORT/mcp X-Forwarded-User

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { answerPage, checker, linkIn, textOf } from './pages-common.mjs';
import { scaled } from './scale.mjs';

const [url, header] = process.argv.slice(2);
if (!url || !header) {
  console.error('usage: node pages-link.mjs http://127.0.0.1:PORT/mcp HEADER');
  process.exit(2);
}
setTimeout(() => {
  console.error(`pages-link: timed out after ${scaled(60_000) / 1000}s`);
  process.exit(1);
}, scaled(60_000)).unref();
const base = new URL('/elicit/', url).href;
const c = checker();

async function connect(user) {
  const client = new Client({ name: `ts-v1-no-elicitation-${user}`, version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { [header]: user } } }));
  return client;
}

const deploy = (client, service) => client.callTool({ name: 'deploy_to_production', arguments: { service } });

const alice = await connect('alice');
const bob = await connect('bob');
let res = await deploy(alice, 'billing');
const link = linkIn(textOf(res), base);
c.check('first call: an error result with the link', res.isError && link !== '', textOf(res));
c.check('the result says to call again with the same arguments', textOf(res).includes('again with exactly the same arguments'), textOf(res));
c.check('the result says when the page closes', /The page closes at \d{4}-\d\d-\d\dT/.test(textOf(res)), textOf(res));
c.check("bob cannot open alice's page", (await answerPage(link, header, 'bob', 'accept', {})) === 403);
const answer = { branch: 'main', environment: 'production', confirmed: 'true' };
c.check('an invalid post is shown again (422)', (await answerPage(link, header, 'alice', 'accept', { branch: '' })) === 422);
c.check('alice answers the page', (await answerPage(link, header, 'alice', 'accept', answer)) === 200);
res = await deploy(alice, 'search');
c.check('other arguments: a new link, nothing deployed', res.isError && linkIn(textOf(res), base) !== '' && linkIn(textOf(res), base) !== link, textOf(res));
res = await deploy(bob, 'billing');
c.check('another person: a new link, nothing deployed', res.isError && linkIn(textOf(res), base) !== '' && linkIn(textOf(res), base) !== link, textOf(res));
res = await deploy(alice, 'billing');
c.check('the same call again deploys', !res.isError && textOf(res).startsWith('Deployed billing@main to production'), textOf(res));
c.check('with structured content', res.structuredContent?.outcome === 'accepted' && res.structuredContent?.deployed === true, res.structuredContent);
res = await deploy(alice, 'billing');
const again = linkIn(textOf(res), base);
c.check('a third call asks again, on a new page', res.isError && again !== '' && again !== link, textOf(res));
c.check('the answered page says so (409)', (await answerPage(link, header, 'alice', 'accept', answer)) === 409);
await alice.close();
await bob.close();
c.done();
