// Drives the elicitgen example server over stdio from a client built on
// the official TypeScript SDK (@modelcontextprotocol/sdk, pinned in
// package.json), answering every form of every tool with accept, decline
// and cancel, and with invalid content (asked once more, saying what was
// wrong by title; the same answer again is refused with an isError result
// naming title and key), and checking each tool's
// structured "outcome".
//
//   node interop.mjs /path/to/example-server-binary
//
// The SDK's own checks run on every exchange: it validates each
// elicitation/create request it receives against its schema before the
// handler sees it, and callTool validates structuredContent against the
// tool's outputSchema (cached by listTools). The TypeScript SDK 1.x speaks
// 2025-11-25, so the server pushes its questions as elicitation/create.
//
// Prints one line per check and a closing "N passed, N failed"; exits 1
// on any failure.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { scaled } from './scale.mjs';

const serverPath = process.argv[2];
if (!serverPath) {
  console.error('usage: node interop.mjs SERVER_BINARY');
  process.exit(2);
}
const deadline = setTimeout(() => {
  console.error(`interop: timed out after ${scaled(90_000) / 1000}s`);
  process.exit(1);
}, scaled(90_000));
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

// connect starts a server process and connects a client declaring caps.
async function connect(name, caps, env) {
  const client = new Client({ name: `ts-interop-${name}`, version: '1.0.0' }, { capabilities: caps });
  const session = { client, questions: [], answer: null };
  if (caps.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      session.questions.push(req.params);
      if (!session.answer) throw new McpError(ErrorCode.InternalError, 'no answer scripted');
      return session.answer(req.params);
    });
  }
  await client.connect(new StdioClientTransport({ command: serverPath, args: [], stderr: 'inherit', ...(env ? { env } : {}) }));
  session.tools = (await client.listTools()).tools; // also caches the output-schema validators
  return session;
}

const prop = (q, name) => q?.requestedSchema?.properties?.[name] ?? {};
const consts = (p) => (p.oneOf ?? []).map((o) => o.const);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Every tool: its arguments, question mode, accepting answer, what an
// accepted result must hold, and content its form must refuse.
const cases = [
  {
    tool: 'deploy_to_production', args: { service: 'billing' }, mode: 'form',
    accept: (q) => ({ action: 'accept', content: { branch: prop(q, 'branch').default, environment: 'production', confirmed: true } }),
    accepted: (out, q) => [
      ['branch pre-filled with the current branch', prop(q, 'branch').default === 'release/2.4', prop(q, 'branch')],
      ['environment is a titled enum', same(consts(prop(q, 'environment')), ['staging', 'production']), prop(q, 'environment')],
      ['deployed', out.deployed === true && out.branch === 'release/2.4' && out.environment === 'production', out],
    ],
    invalid: { branch: 'main', environment: 'moon', confirmed: true },
  },
  {
    tool: 'book_table', args: { date: '2026-12-24', party_size: 4 }, mode: 'form',
    accept: (q) => ({ action: 'accept', content: { try_another_date: true, preferred_date: prop(q, 'preferred_date').default } }),
    accepted: (out, q) => [
      ['next free date pre-filled', prop(q, 'preferred_date').default === '2026-12-27' && prop(q, 'preferred_date').format === 'date', prop(q, 'preferred_date')],
      ['booked on the other date', out.booked === true && out.booked_date === '2026-12-27' && same(out.tried, ['2026-12-24', '2026-12-27']), out],
    ],
    invalid: { try_another_date: true, preferred_date: '27/12/2026' },
  },
  {
    tool: 'kr_dashboard', args: { org: 'acme' }, mode: 'form',
    accept: () => ({ action: 'accept', content: { kr: 'kr-churn' } }),
    accepted: (out, q) => [
      ["only the org's key results offered", same(consts(prop(q, 'kr')), ['kr-activation', 'kr-churn', 'kr-nps']), prop(q, 'kr')],
      ['records returned', out.kr === 'kr-churn' && Array.isArray(out.records) && out.records.length === 2, out],
    ],
    invalid: { kr: 'kr-latency' },
  },
  {
    tool: 'send_campaign', args: { campaign: 'Spring sale', recipients: ['ana@example.com', 'bo@example.com', 'cy@example.com'] }, mode: 'form',
    accept: () => ({ action: 'accept', content: { approved: true, send_window: 'tomorrow' } }),
    accepted: (out, q) => [
      ['message names the count', /\b3 recipients\b/.test(q.message), q.message],
      ['send window default now', prop(q, 'send_window').default === 'now', prop(q, 'send_window')],
      ['scheduled', out.scheduled === true && out.recipients === 3 && out.send_window === 'tomorrow', out],
    ],
    invalid: { approved: true, send_window: 'yesterday' },
  },
  {
    tool: 'connect_account', args: { provider: 'github' }, mode: 'url',
    accept: () => ({ action: 'accept' }),
    accepted: (out, q) => [
      ['URL-mode request with an elicitationId', typeof q.url === 'string' && q.url.startsWith('https://accounts.example.com/connect/github?flow=') && typeof q.elicitationId === 'string' && q.elicitationId.length > 0, q],
      ['result names the page', out.url === q.url && q.url.endsWith(out.flow_id), out],
    ],
  },
];

const outcomes = { accept: 'accepted', decline: 'declined', cancel: 'cancelled' };

async function main() {
  const s = await connect('form+url', { elicitation: { form: {}, url: {} } });
  check('server lists every tool with an outputSchema',
    cases.every((c) => s.tools.some((t) => t.name === c.tool && t.outputSchema?.properties?.outcome)),
    s.tools.map((t) => t.name));

  for (const c of cases) {
    for (const action of ['accept', 'decline', 'cancel']) {
      const name = `${c.tool} ${action}`;
      s.questions = [];
      s.answer = action === 'accept' ? c.accept : () => ({ action });
      try {
        const res = await s.client.callTool({ name: c.tool, arguments: c.args });
        const out = res.structuredContent ?? {};
        const q = s.questions[0];
        check(`${name}: one ${c.mode}-mode question`, s.questions.length === 1 && q.mode === c.mode, s.questions);
        check(`${name}: outcome ${outcomes[action]}`, out.outcome === outcomes[action] && !res.isError, res);
        if (action === 'accept' && q) {
          for (const [what, ok, detail] of c.accepted(out, q)) check(`${name}: ${what}`, ok, detail);
        }
      } catch (e) {
        check(name, false, String(e));
      }
    }
    if (c.invalid) {
      const name = `${c.tool} invalid content`;
      s.questions = [];
      s.answer = () => ({ action: 'accept', content: c.invalid });
      try {
        const res = await s.client.callTool({ name: c.tool, arguments: c.args });
        const text = res.content?.[0]?.text ?? '';
        check(`${name}: asked once more, saying what was wrong`,
          s.questions.length === 2 && (s.questions[1].message ?? '').includes('The previous answer was not accepted: '), s.questions.map((q) => q.message));
        check(`${name}: refused with an isError result the model can act on`,
          res.isError === true && text.startsWith("The user's client sent the same invalid answer twice ("), res);
      } catch (e) {
        check(`${name}: refused`, false, String(e));
      }
    }
  }

  // Missing tool arguments: asked when the model leaves them out, and
  // only those; a complete call asks nothing. Input schemas mark them
  // optional and carry no nullable type unions.
  const schemaOf = (name) => s.tools.find((t) => t.name === name)?.inputSchema ?? {};
  check('book_table: date and party_size optional in the input schema', !(schemaOf('book_table').required ?? []).length, schemaOf('book_table'));
  check('kr_dashboard: only org required in the input schema', same(schemaOf('kr_dashboard').required, ['org']), schemaOf('kr_dashboard'));
  check('no input schema has a null type', !JSON.stringify(s.tools.map((t) => t.inputSchema)).includes('"null"'), s.tools.map((t) => t.inputSchema));
  for (const m of [
    { name: 'kr_dashboard with kr: no question', args: { org: 'acme', kr: 'kr-nps' }, asks: [], content: {}, ok: (out) => out.kr === 'kr-nps' },
    { name: 'kr_dashboard without kr: kr asked', args: { org: 'acme' }, asks: ['kr'], content: { kr: 'kr-churn' }, ok: (out) => out.kr === 'kr-churn' },
    { name: 'book_table without party_size: party_size asked', args: { date: '2026-12-27' }, asks: ['party_size'], content: { party_size: 2 }, ok: (out) => out.booked === true && out.party_size === 2 },
  ]) {
    s.questions = [];
    s.answer = () => ({ action: 'accept', content: m.content });
    try {
      const res = await s.client.callTool({ name: m.name.split(' ')[0], arguments: m.args });
      const out = res.structuredContent ?? {};
      const asked = s.questions.map((q) => Object.keys(q.requestedSchema?.properties ?? {}).sort().join(','));
      check(`${m.name}`, same(asked, m.asks.length ? [m.asks.join(',')] : []) && !res.isError && m.ok(out), { asked, res });
    } catch (e) {
      check(m.name, false, String(e));
    }
  }

  // The same invalid answer twice: the server stops asking and tells the
  // model which field this client could not fill.
  s.questions = [];
  s.answer = () => ({ action: 'accept', content: { kr: 'kr-latency' } });
  try {
    const res = await s.client.callTool({ name: 'kr_dashboard', arguments: { org: 'acme' } });
    const text = res.content?.[0]?.text ?? '';
    check('kr_dashboard invalid answer: elicitgen\'s message, not the SDK\'s', res.isError === true && text.includes('"Key result" (kr): "kr-latency" is not one of') && !text.includes('validating'), res);
  } catch (e) {
    check('kr_dashboard invalid answer', false, String(e));
  }
  await s.client.close();

  // A client that cannot be asked: every tool answers outcome
  // "unavailable" as an isError result telling the model what to ask.
  const none = await connect('none', {});
  const formOnly = await connect('form-only', { elicitation: { form: {} } });
  formOnly.answer = () => ({ action: 'accept' });
  for (const c of cases) {
    const who = c.mode === 'url' ? formOnly : none;
    const name = `${c.tool} unavailable (${c.mode === 'url' ? 'no URL mode' : 'no elicitation'})`;
    try {
      const res = await who.client.callTool({ name: c.tool, arguments: c.args });
      const text = res.content?.[0]?.text ?? '';
      check(name, res.isError === true && res.structuredContent?.outcome === 'unavailable' && text.includes('cannot ask'), res);
    } catch (e) {
      check(name, false, String(e));
    }
  }
  check('no question reached a client that cannot answer it', formOnly.questions.length === 0, formOnly.questions);
  await none.client.close();
  await formOnly.client.close();
}

// Human time is not tool time: a person who takes longer than the
// client's request timeout keeps the form, because the server sends
// notifications/progress while it waits (here every 200 ms) and the
// client resets its timeout on progress. Without the reset, the same
// wait times out: the check can fail.
async function progress() {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? '', ELICIT_PROGRESS_INTERVAL: '200ms' };
  const s = await connect('progress', { elicitation: { form: {} } }, env);
  const slowAnswer = (q) => new Promise((resolve) => setTimeout(() => resolve({
    action: 'accept', content: { branch: prop(q, 'branch').default, environment: 'staging', confirmed: true },
  }), 1500));
  s.answer = slowAnswer;
  let heard = 0;
  try {
    const res = await s.client.callTool({ name: 'deploy_to_production', arguments: { service: 'billing' } }, undefined,
      { timeout: 1000, resetTimeoutOnProgress: true, onprogress: () => { heard++; } });
    check('a slow person keeps the form past the 1 s timeout (progress resets it)', res.structuredContent?.deployed === true && heard >= 3, { heard, res });
  } catch (e) {
    check('a slow person keeps the form past the 1 s timeout (progress resets it)', false, String(e));
  }
  try {
    await s.client.callTool({ name: 'deploy_to_production', arguments: { service: 'billing' } }, undefined,
      { timeout: 1000, onprogress: () => {} });
    check('without resetTimeoutOnProgress the same wait times out', false, 'completed');
  } catch (e) {
    check('without resetTimeoutOnProgress the same wait times out', String(e).includes('timed out'), String(e));
  }
  await s.client.close();
}

try {
  await main();
  await progress();
} catch (e) {
  check('interop run', false, e?.stack ?? String(e));
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
