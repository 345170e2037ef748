// Drives the elicitgen example server over streamable HTTP from a client
// built on the official TypeScript SDK v2 (@modelcontextprotocol/client,
// pinned in package.json), on two protocol eras against the one URL:
//
//   - 2026-07-28, negotiated with versionNegotiation { mode: 'auto' }
//     (server/discover): every question arrives in an input_required
//     result, and the SDK answers it through the same elicitation/create
//     handler and retries the call with inputResponses and the echoed
//     requestState;
//   - the client's default era (versionNegotiation 'legacy': initialize,
//     2025-11-25): the server pushes elicitation/create on the session.
//
// On each era every tool's question is answered with accept, decline and
// cancel, and once with invalid content (refused with an isError result
// the model can act on); the deploy question is also asked in Japanese
// (SEP-2792 acceptLanguage), and clients that cannot be asked get outcome
// "unavailable". The SDK's own checks run on every exchange: it validates
// each elicitation request against its schema before the handler sees it,
// and callTool validates structuredContent against the tool's outputSchema
// (cached by listTools).
//
//   node interop-v2.mjs http://127.0.0.1:PORT/mcp
//
// Prints one line per check and a closing "N passed, N failed"; exits 1
// on any failure.

import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { scaled } from './scale.mjs';

const url = process.argv[2];
if (!url) {
  console.error('usage: node interop-v2.mjs http://127.0.0.1:PORT/mcp');
  process.exit(2);
}
const deadline = setTimeout(() => {
  console.error(`interop-v2: timed out after ${scaled(90_000) / 1000}s`);
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

const eras = [
  { name: '2026-07-28', negotiation: { mode: 'auto' }, version: '2026-07-28', era: 'modern' },
  { name: 'default era', negotiation: undefined, version: '2025-11-25', era: 'legacy' },
];

// connect opens a client on era declaring caps.
async function connect(era, who, caps) {
  const client = new Client(
    { name: `ts-v2-interop-${who}`, version: '1.0.0' },
    { capabilities: caps, ...(era.negotiation ? { versionNegotiation: era.negotiation } : {}) },
  );
  const session = { client, questions: [], answer: null };
  if (caps.elicitation) {
    client.setRequestHandler('elicitation/create', async (req) => {
      session.questions.push(req.params);
      if (!session.answer) throw new ProtocolError(-32603, 'no answer scripted');
      return session.answer(req.params);
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  session.tools = (await client.listTools()).tools; // also caches the output-schema validators
  return session;
}

const prop = (q, name) => q?.requestedSchema?.properties?.[name] ?? {};
const consts = (p) => (p.oneOf ?? []).map((o) => o.const);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Every tool: its arguments, question mode, accepting answer, what an
// accepted result must hold, and content its form must refuse (with the
// field the refusal must name).
const cases = [
  {
    tool: 'deploy_to_production', args: { service: 'billing' }, mode: 'form',
    accept: (q) => ({ action: 'accept', content: { branch: prop(q, 'branch').default, environment: 'production', confirmed: true } }),
    accepted: (out, q) => [
      ['branch pre-filled with the current branch', prop(q, 'branch').default === 'release/2.4', prop(q, 'branch')],
      ['environment is a titled enum', same(consts(prop(q, 'environment')), ['staging', 'production']), prop(q, 'environment')],
      ['deployed', out.deployed === true && out.branch === 'release/2.4' && out.environment === 'production', out],
    ],
    invalid: { branch: 'main', environment: 'moon', confirmed: true }, invalidField: 'environment',
  },
  {
    tool: 'book_table', args: { date: '2026-12-24', party_size: 4 }, mode: 'form',
    accept: (q) => ({ action: 'accept', content: { try_another_date: true, preferred_date: prop(q, 'preferred_date').default } }),
    accepted: (out, q) => [
      ['next free date pre-filled', prop(q, 'preferred_date').default === '2026-12-27' && prop(q, 'preferred_date').format === 'date', prop(q, 'preferred_date')],
      ['booked on the other date', out.booked === true && out.booked_date === '2026-12-27' && same(out.tried, ['2026-12-24', '2026-12-27']), out],
    ],
    invalid: { try_another_date: true, preferred_date: '27/12/2026' }, invalidField: 'preferred_date',
  },
  {
    tool: 'kr_dashboard', args: { org: 'acme' }, mode: 'form',
    accept: () => ({ action: 'accept', content: { kr: 'kr-churn' } }),
    accepted: (out, q) => [
      ["only the org's key results offered", same(consts(prop(q, 'kr')), ['kr-activation', 'kr-churn', 'kr-nps']), prop(q, 'kr')],
      ['records returned', out.kr === 'kr-churn' && Array.isArray(out.records) && out.records.length === 2, out],
    ],
    invalid: { kr: 'kr-latency' }, invalidField: 'kr',
  },
  {
    tool: 'send_campaign', args: { campaign: 'Spring sale', recipients: ['ana@example.com', 'bo@example.com', 'cy@example.com'] }, mode: 'form',
    accept: () => ({ action: 'accept', content: { approved: true, send_window: 'tomorrow' } }),
    accepted: (out, q) => [
      ['message names the count', /\b3 recipients\b/.test(q.message), q.message],
      ['send window default now', prop(q, 'send_window').default === 'now', prop(q, 'send_window')],
      ['scheduled', out.scheduled === true && out.recipients === 3 && out.send_window === 'tomorrow', out],
    ],
    invalid: { approved: true, send_window: 'yesterday' }, invalidField: 'send_window',
  },
  {
    tool: 'connect_account', args: { provider: 'github' }, mode: 'url',
    accept: () => ({ action: 'accept' }),
    // elicitationId is a 2025-11-25 field, removed in 2026-07-28.
    accepted: (out, q, era) => [
      ['URL-mode request ' + (era.era === 'legacy' ? 'with' : 'without') + ' an elicitationId',
        typeof q.url === 'string' && q.url.startsWith('https://accounts.example.com/connect/github?flow=') &&
          (era.era === 'legacy' ? typeof q.elicitationId === 'string' && q.elicitationId.length > 0 : !('elicitationId' in q)), q],
      ['result names the page', out.url === q.url && q.url.endsWith(out.flow_id), out],
    ],
  },
];

const outcomes = { accept: 'accepted', decline: 'declined', cancel: 'cancelled' };

async function runEra(era) {
  const tag = `[${era.name}]`;
  const s = await connect(era, 'form+url', { elicitation: { form: {}, url: {} } });
  check(`${tag} negotiated ${era.version} (${era.era})`,
    s.client.getNegotiatedProtocolVersion() === era.version && s.client.getProtocolEra() === era.era,
    { version: s.client.getNegotiatedProtocolVersion(), era: s.client.getProtocolEra() });
  check(`${tag} server lists every tool with an outputSchema`,
    cases.every((c) => s.tools.some((t) => t.name === c.tool && t.outputSchema?.properties?.outcome)),
    s.tools.map((t) => t.name));

  for (const c of cases) {
    for (const action of ['accept', 'decline', 'cancel']) {
      const name = `${tag} ${c.tool} ${action}`;
      s.questions = [];
      s.answer = action === 'accept' ? c.accept : () => ({ action });
      try {
        const res = await s.client.callTool({ name: c.tool, arguments: c.args });
        const out = res.structuredContent ?? {};
        const q = s.questions[0];
        check(`${name}: one ${c.mode}-mode question`, s.questions.length === 1 && q.mode === c.mode, s.questions);
        check(`${name}: outcome ${outcomes[action]}`, out.outcome === outcomes[action] && !res.isError, res);
        if (action === 'accept' && q) {
          for (const [what, ok, detail] of c.accepted(out, q, era)) check(`${name}: ${what}`, ok, detail);
        }
      } catch (e) {
        check(name, false, String(e?.stack ?? e));
      }
    }
    if (c.invalid) {
      const name = `${tag} ${c.tool} invalid content`;
      s.questions = [];
      s.answer = () => ({ action: 'accept', content: c.invalid });
      try {
        const res = await s.client.callTool({ name: c.tool, arguments: c.args });
        const text = res.content?.[0]?.text ?? '';
        check(`${name}: refused with an isError result naming ${c.invalidField}`,
          res.isError === true && (text.startsWith('The answer was invalid: ') || text.startsWith("The user's client sent the same invalid answer twice (")) && text.includes(c.invalidField), res);
        check(`${name}: asked once more (WithRetries(1)), then refused`, s.questions.length === 2, s.questions.length);
        // The words the person and the model get: elicitgen's own ("is
        // not one of ...") or the SDK's schema validator's.
        console.log(`note ${name}: ${JSON.stringify(text)}`);
      } catch (e) {
        check(`${name}: refused`, false, String(e?.stack ?? e));
      }
    }
  }

  // The same question in Japanese: the request's acceptLanguage picks
  // forms/elicit.ja.json and the handler's Japanese message.
  {
    const name = `${tag} deploy_to_production in Japanese`;
    s.questions = [];
    s.answer = () => ({ action: 'decline' });
    try {
      const res = await s.client.callTool({
        name: 'deploy_to_production', arguments: { service: 'billing' },
        _meta: { 'io.modelcontextprotocol/acceptLanguage': 'ja-JP, en;q=0.5' },
      });
      const q = s.questions[0];
      check(`${name}: titles, options and message in Japanese`,
        prop(q, 'branch').title === 'ブランチ' && prop(q, 'environment').oneOf?.[1]?.title === '本番' &&
          /をデプロイしますか/.test(q?.message ?? ''), q);
      check(`${name}: contentLanguage ja`, q?._meta?.['io.modelcontextprotocol/contentLanguage'] === 'ja', q?._meta);
      check(`${name}: outcome declined`, res.structuredContent?.outcome === 'declined', res);
    } catch (e) {
      check(name, false, String(e?.stack ?? e));
    }
  }
  await s.client.close();

  // A client that cannot be asked: every tool answers outcome
  // "unavailable" as an isError result telling the model what to ask.
  const none = await connect(era, 'none', {});
  const formOnly = await connect(era, 'form-only', { elicitation: { form: {} } });
  formOnly.answer = () => ({ action: 'accept' });
  for (const c of cases) {
    const who = c.mode === 'url' ? formOnly : none;
    const name = `${tag} ${c.tool} unavailable (${c.mode === 'url' ? 'no URL mode' : 'no elicitation'})`;
    try {
      const res = await who.client.callTool({ name: c.tool, arguments: c.args });
      const text = res.content?.[0]?.text ?? '';
      check(name, res.isError === true && res.structuredContent?.outcome === 'unavailable' && text.includes('cannot ask'), res);
    } catch (e) {
      check(name, false, String(e?.stack ?? e));
    }
  }
  check(`${tag} no question reached a client that cannot answer it`, formOnly.questions.length === 0, formOnly.questions);
  await none.client.close();
  await formOnly.client.close();
}

for (const era of eras) {
  try {
    await runEra(era);
  } catch (e) {
    check(`[${era.name}] interop run`, false, e?.stack ?? String(e));
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
