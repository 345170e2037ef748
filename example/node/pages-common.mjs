// Helpers of the hosted-page scripts (pages-link.mjs, pages-url-v2.mjs):
// a check counter and a page answered the way a browser posts it (GET for
// the CSRF token and cookie, then a form post), with plain fetch.

export function checker() {
  const c = { passed: 0, failed: 0 };
  c.check = (name, ok, detail) => {
    if (ok) {
      c.passed++;
      console.log(`ok   ${name}`);
    } else {
      c.failed++;
      console.log(`FAIL ${name}${detail === undefined ? '' : ': ' + (typeof detail === 'string' ? detail : JSON.stringify(detail))}`);
    }
  };
  c.done = () => {
    console.log(`${c.passed} passed, ${c.failed} failed`);
    process.exit(c.failed ? 1 : 0);
  };
  return c;
}

// linkIn returns the first URL under base in text, or ''.
export function linkIn(text, base) {
  const i = text.indexOf(base);
  if (i < 0) return '';
  const m = /^[^\s")]+/.exec(text.slice(i));
  return m ? m[0] : '';
}

// answerPage opens link as user (the trusted header) and posts values
// with action; returns the post's status, or the GET's when it showed no
// form.
export async function answerPage(link, header, user, action, values) {
  const get = await fetch(link, { headers: { [header]: user }, redirect: 'manual' });
  const html = await get.text();
  const m = /name="csrf" value="([^"]*)"/.exec(html);
  if (get.status !== 200 || !m) return get.status;
  const cookie = (get.headers.get('set-cookie') ?? '').split(';')[0];
  const body = new URLSearchParams({ ...values, csrf: m[1].replaceAll('&#43;', '+').replaceAll('&amp;', '&'), action });
  const post = await fetch(link, {
    method: 'POST',
    headers: { [header]: user, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  });
  await post.text();
  return post.status;
}

export const textOf = (res) => (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
