// Drives example/internal/multiserver over stdio from a client built on
// the official TypeScript SDK v1 (@modelcontextprotocol/sdk), pinned to
// protocol 2025-06-18, which has no multi-select: the server's required
// multi-select must arrive as one boolean per option (no "array" in the
// schema the SDK validates), and the booleans checked must come back to
// the tool as the list; an answer outside minItems is asked again.
//
//   node interop-legacy.mjs /path/to/multiserver-binary
//
// Prints one line per check and a closing "N passed, N failed"; exits 1
// on any failure.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { scaled } from './scale.mjs';

const serverPath = process.argv[2];
if (!serverPath) {
  console.error('usage: node interop-legacy.mjs SERVER_BINARY');
  process.exit(2);
}
const deadline = setTimeout(() => {
  console.error(`interop-legacy: timed out after ${scaled(60_000) / 1000}s`);
  process.exit(1);
}, scaled(60_000));
deadline.unref();

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail === undefined ? '' : ': ' + JSON.stringify(detail)}`);
  }
}

// pinned wraps a transport so that the client's initialize asks for
// 2025-06-18 (SDK v1 always offers its latest version).
function pinned(transport, version) {
  const send = transport.send.bind(transport);
  transport.setProtocolVersion = (v) => { transport.negotiated = v; };
  transport.send = (msg, opts) => {
    if (msg.method === 'initialize') msg = { ...msg, params: { ...msg.params, protocolVersion: version } };
    return send(msg, opts);
  };
  return transport;
}

const client = new Client({ name: 'ts-legacy', version: '1.0.0' }, { capabilities: { elicitation: {} } });
const questions = [];
const answers = [
  // Nothing checked: fewer than minItems, asked again.
  () => ({ action: 'accept', content: { 'topics.news': false, 'topics.sport': false, 'topics.tech': false } }),
  () => ({ action: 'accept', content: { 'topics.news': true, 'topics.sport': false, 'topics.tech': true } }),
];
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  questions.push(req.params);
  const next = answers.shift();
  return next ? next() : { action: 'cancel' };
});
const transport = pinned(new StdioClientTransport({ command: serverPath, args: [], stderr: 'inherit' }), '2025-06-18');
await client.connect(transport);
check('negotiated 2025-06-18', transport.negotiated === '2025-06-18', transport.negotiated);

const res = await client.callTool({ name: 'pick_topics', arguments: {} });
const text = res.content?.[0]?.text;
check('the tool got the list of the boxes checked', text === 'topics: news,tech', res);
check('asked twice (nothing checked is fewer than one)', questions.length === 2, questions.length);
const props = questions[0]?.requestedSchema?.properties ?? {};
check('one boolean per option', ['topics.news', 'topics.sport', 'topics.tech'].every((k) => props[k]?.type === 'boolean'), props);
check('no array in a 2025-06-18 schema', !JSON.stringify(questions[0]?.requestedSchema ?? {}).includes('"array"'), questions[0]);
check('the re-ask says what was wrong, by title', (questions[1]?.message ?? '').includes('Topics: choose at least 1'), questions[1]?.message);

await client.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
