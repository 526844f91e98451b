import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { REDACTED, redactHeaders, redactText, redactUrl } from '../../../../src/http/redact.ts';

// src/http/redact.ts: what reports and error messages may show.

const TOKEN = 'tok-9f8e7d6c';

test('credential headers are redacted whatever their case; the scheme stays visible', () => {
  const out = redactHeaders(
    {
      Authentication: `bearer ${TOKEN}`,
      authorization: 'Bearer abc.def',
      Cookie: 'session=1',
      'set-cookie': ['a=1', 'b=2'],
      'X-Access-Token': 'zzz',
      'User-Agent': 'App (x@example.com)',
      'X-Echo': `got ${TOKEN}`,
      'X-Missing': undefined,
    },
    [TOKEN],
  );
  expect(out).toEqual({
    Authentication: `bearer ${REDACTED}`,
    authorization: `Bearer ${REDACTED}`,
    Cookie: REDACTED,
    'set-cookie': REDACTED,
    'X-Access-Token': REDACTED,
    'User-Agent': 'App (x@example.com)',
    'X-Echo': `got ${REDACTED}`,
  });
  expect(redactHeaders({ Authentication: TOKEN })).toEqual({ Authentication: REDACTED });
});

test('URLs lose user info, credential parameters and configured secrets, and keep the rest as written', () => {
  expect(redactUrl('https://user:pw@api.example/v1/1/products?page=2&access_token=abc&fields=id,name')).toBe(
    `https://%5BREDACTED%5D:%5BREDACTED%5D@api.example/v1/1/products?page=2&access_token=${REDACTED}&fields=id,name`,
  );
  expect(redactUrl(`https://api.example/cb?state=${encodeURIComponent('x y')}&x=${TOKEN}`, [TOKEN])).toBe(`https://api.example/cb?state=x%20y&x=${REDACTED}`);
  expect(redactUrl('not a url with tok', ['tok'])).toBe(`not a url with ${REDACTED}`);
});

test('text loses configured secrets in every encoding, credential members and bearer tokens', () => {
  const secret = 'a"b/c d';
  expect(redactText(`raw ${secret} json ${JSON.stringify(secret)} url ${encodeURIComponent(secret)}`, [secret])).toBe(
    `raw ${REDACTED} json "${REDACTED}" url ${REDACTED}`,
  );
  expect(redactText('{"access_token":"abc","token_type":"bearer","scope":"read_products","user_id":"789"}')).toBe(
    `{"access_token":"${REDACTED}","token_type":"bearer","scope":"read_products","user_id":"789"}`,
  );
  expect(redactText('client_id=1&client_secret=s3cr3t&grant_type=authorization_code')).toBe(
    `client_id=1&client_secret=${REDACTED}&grant_type=authorization_code`,
  );
  expect(redactText('header was Authentication: bearer abc123')).toBe(`header was Authentication: bearer ${REDACTED}`);
  expect(redactText('nothing secret here', ['', 'absent'])).toBe('nothing secret here');
});

test('a secret inside a longer secret is replaced whole', () => {
  expect(redactText('key=abcdef', ['abc', 'abcdef'])).toBe(`key=${REDACTED}`);
});
