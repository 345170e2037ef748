// An independent verifier of elicitgen's signed receipt logs, on the
// jose library (pinned in package.json), sharing no code with the Go
// verifier (runtime/receipt, elicitgen verify): the receipt format is
// only RFC 7515 (flattened JWS JSON, EdDSA over Ed25519), RFC 7638 key
// ids and a SHA-256 hash chain.
//
//   node receipts-verify.mjs --key PUB.pem [--key OLD.pem] RECEIPTS.jsonl
//
// Prints "ok N receipts, head DIGEST" and exits 0, or prints
// "line N: what" for the first bad line and exits 1 (2 on bad usage).
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { importSPKI, exportJWK, calculateJwkThumbprint, flattenedVerify, base64url } from 'jose';

const args = process.argv.slice(2);
const keyFiles = [];
let file;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--key') keyFiles.push(args[++i]);
  else file = args[i];
}
if (!file || keyFiles.length === 0) {
  console.error('usage: node receipts-verify.mjs --key PUB.pem [--key ...] RECEIPTS.jsonl');
  process.exit(2);
}

// Key ids are the keys' RFC 7638 thumbprints (SHA-256, base64url).
const keys = new Map();
for (const f of keyFiles) {
  const pems = readFileSync(f, 'utf8').match(/-----BEGIN PUBLIC KEY-----[^-]+-----END PUBLIC KEY-----/g) ?? [];
  for (const pem of pems) {
    const key = await importSPKI(pem, 'EdDSA', { extractable: true });
    const kid = await calculateJwkThumbprint(await exportJWK(key), 'sha256');
    keys.set(kid, key);
  }
}

function fail(line, what) {
  console.log(`line ${line}: ${what}`);
  process.exit(1);
}

const data = readFileSync(file, 'utf8');
if (data === '') fail(1, 'no receipt');
if (!data.endsWith('\n')) fail(data.split('\n').length, 'the last line is cut short');
const lines = data.slice(0, -1).split('\n');
let seq = 0;
let prev = '';
for (const [i, text] of lines.entries()) {
  const n = i + 1;
  let jws;
  try {
    jws = JSON.parse(text);
  } catch (e) {
    fail(n, `not JSON: ${e.message}`);
  }
  if (JSON.stringify(jws) !== text || Object.keys(jws).join() !== 'protected,payload,signature') {
    fail(n, 'not a receipt line as written');
  }
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(base64url.decode(jws.protected)));
  } catch (e) {
    fail(n, `protected header: ${e.message}`);
  }
  if (header.typ !== 'elicitgen-receipt' || header.alg !== 'EdDSA') fail(n, `typ ${header.typ}, alg ${header.alg}`);
  const key = keys.get(header.kid);
  if (!key) fail(n, `unknown key ${header.kid}`);
  let payload;
  try {
    const res = await flattenedVerify(jws, key, { algorithms: ['EdDSA'] });
    payload = JSON.parse(new TextDecoder().decode(res.payload));
  } catch (e) {
    fail(n, `bad signature: ${e.message}`);
  }
  if (payload.v !== 1) fail(n, `version ${payload.v}`);
  if (!['accept', 'decline', 'cancel', 'expired', 'refused'].includes(payload.action)) fail(n, `unknown action ${payload.action}`);
  // A refused receipt records a post a policy refused: nothing of it may
  // read as an approval.
  if (payload.action === 'refused' &&
      (payload.answer_digest !== '' || payload.confirm === 'ticked' || (payload.approvers ?? []).some((a) => a.action === 'accept'))) {
    fail(n, 'refused receipt reads as an approval');
  }
  if (payload.seq !== seq + 1) fail(n, `receipt ${payload.seq} follows receipt ${seq}`);
  if (payload.prev !== prev) fail(n, `broken chain: prev ${payload.prev}, want ${prev}`);
  seq = payload.seq;
  prev = 'sha256:' + createHash('sha256').update(`${jws.protected}.${jws.payload}.${jws.signature}`).digest('hex');
}
console.log(`ok ${lines.length} receipts, head ${prev}`);
