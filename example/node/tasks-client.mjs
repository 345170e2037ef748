// Drives the elicitgen example server as an MCP Tasks client: the
// TypeScript SDK v2 (@modelcontextprotocol/client) with the official
// extension client @modelcontextprotocol/ext-tasks (both pinned in
// package.json), on protocol 2026-07-28 against /mcp.
//
//   - deploy_to_production called as a task: the server answers with a
//     CreateTaskResult, the client polls tasks/get, sees the deploy form
//     among the task's inputRequests, answers it with tasks/update and
//     gets the deploy's result from the completed task;
//   - the same by hand (snapshot, update with decline, result), and a
//     cancelled task;
//   - a client without the extension calls the same tool and is asked
//     as before (an input_required round), with no task.
//
//   node tasks-client.mjs http://127.0.0.1:PORT/mcp
//
// Prints one line per check and a closing "N passed, N failed"; exits 1
// on any failure.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  createApplicationInputHandler,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';

const url = process.argv[2];
if (!url) {
  console.error('usage: node tasks-client.mjs http://127.0.0.1:PORT/mcp');
  process.exit(2);
}
const deadline = setTimeout(() => {
  console.error('tasks-client: timed out after 90s');
  process.exit(1);
}, 90_000);
deadline.unref();

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

// fill answers a form the way a person who approves would: every default
// kept, every box ticked, the first option where there is no default.
function fill(schema) {
  const content = {};
  for (const [key, p] of Object.entries(schema?.properties ?? {})) {
    if (p.default !== undefined && p.type !== 'boolean') content[key] = p.default;
    else if (p.type === 'boolean') content[key] = true;
    else if (Array.isArray(p.enum)) content[key] = p.enum[0];
    else if (Array.isArray(p.oneOf)) content[key] = p.oneOf[0].const;
    else if (p.type === 'string') content[key] = 'x';
  }
  return content;
}

const clientInfo = { name: 'elicitgen-tasks-client', version: '1.0.0' };
const caps = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

// rawDispatch posts one JSON-RPC request with the 2026-07-28 headers the
// extension client names (Mcp-Name: the task id on tasks/*), and reads a
// JSON or event-stream reply.
let nextID = 0;
async function rawDispatch(request, options = {}) {
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': request.method,
    ...(request.method === 'tools/call' && { 'Mcp-Name': request.params.name }),
    ...options.context?.headers,
  };
  const res = await fetch(url, {
    method: 'POST',
    headers,
    signal: options.signal,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++nextID, ...request }),
  });
  const body = await res.text();
  let msg;
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    for (const line of body.split('\n')) {
      if (line.startsWith('data:')) {
        const m = JSON.parse(line.slice(5));
        if ('result' in m || 'error' in m) msg = m;
      }
    }
  } else {
    msg = JSON.parse(body);
  }
  return msg.error ? { kind: 'error', error: msg.error } : { kind: 'result', result: msg.result };
}

const asked = [];
const client = new Client(clientInfo, { capabilities: caps, versionNegotiation: { mode: 'auto' } });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const session = createTaskSessionFromClient(client, {
  endpointId: 'elicitgen-example',
  rawDispatch,
  v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities: caps },
  onInputRequest: createApplicationInputHandler({
    elicitation: async (req, ctx) => {
      asked.push({ message: req.params?.message ?? req.message, delivery: ctx?.delivery });
      const schema = req.params?.requestedSchema ?? req.requestedSchema;
      return { action: 'accept', content: fill(schema) };
    },
    sampling: async () => {
      throw new Error('no sampling');
    },
    roots: async () => ({ roots: [] }),
  }),
});

// 1. Automatic: call, poll, answer through tasks/update, settle.
{
  const exec = await session.callTool('deploy_to_production', { service: 'billing' });
  check('deploy_to_production is a task', exec.kind === 'task', exec.kind);
  const statuses = [];
  const { outcome } = await exec.settle({ onEvent: (e) => e.type === 'task' && statuses.push(e.task.status) });
  const result = resultFromTaskOutcome(outcome);
  const text = result.content?.map((c) => c.text).join(' ') ?? '';
  check('the task waited for input', statuses.includes('input_required'), statuses);
  check('the deploy form reached the person through the task', asked.length === 1 && /deploy/i.test(asked[0].message ?? ''), asked);
  check('the answered task completed with the deploy', statuses.at(-1) === 'completed' && /^Deployed billing@/.test(text), { statuses, text });
}

// 2. By hand: snapshot, decline with tasks/update, read the result.
{
  const exec = await session.callTool('deploy_to_production', { service: 'billing' });
  check('a second call is a task', exec.kind === 'task', exec.kind);
  if (exec.kind === 'task') {
    await exec.detach();
    const task = session.task(exec.handle.taskId);
    const view = await task.snapshot();
    const keys = Object.keys(view.raw?.inputRequests ?? {});
    check('tasks/get shows the form among inputRequests', view.status === 'input_required' && keys.length === 1, view.raw);
    check('no requestState on the task wire', !('requestState' in (view.raw ?? {})), view.raw);
    await task.update({ [keys[0]]: { action: 'decline' } });
    const done = await task.result();
    const text = JSON.stringify(done);
    check('a decline completes the task without deploying', done.status === 'completed' && text.includes('Not deployed'), done);
  }
}

// 3. Cancel a waiting task.
{
  const exec = await session.callTool('deploy_to_production', { service: 'billing' });
  if (exec.kind === 'task') {
    await exec.detach();
    const task = session.task(exec.handle.taskId);
    await task.cancel();
    const done = await task.result();
    check('a cancelled task ends cancelled', done.status === 'cancelled', done);
  } else {
    check('a third call is a task', false, exec.kind);
  }
}
await session.close();
await client.close();

// 4. A client without the extension is asked as before.
{
  const plain = new Client(clientInfo, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } });
  plain.setRequestHandler('elicitation/create', async (req) => ({ action: 'accept', content: fill(req.params.requestedSchema) }));
  await plain.connect(new StreamableHTTPClientTransport(new URL(url)));
  const res = await plain.callTool({ name: 'deploy_to_production', arguments: { service: 'billing' } });
  const text = res.content?.map((c) => c.text).join(' ') ?? '';
  check('without the extension: no task, the form is asked and the deploy runs', !('taskId' in res) && /^Deployed billing@/.test(text), res);
  await plain.close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
