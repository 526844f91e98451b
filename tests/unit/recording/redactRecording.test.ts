import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { Interaction } from '../../../src/recording/cassette.ts';
import { patternsFromEnv, redactInteraction, standIn } from '../../../src/recording/redactRecording.ts';

const TOKEN = 'planted-store-token-5f0c9e2a7b';

function interaction(overrides: Partial<Interaction> = {}): Interaction {
  return {
    scope: 'https://api.example.test',
    method: 'POST',
    path: `/v1/1/products?access_token=${TOKEN}&page=2`,
    reqheaders: { authentication: `bearer ${TOKEN}`, cookie: 'session=abc123; theme=dark', 'user-agent': 'app (ops@example.com)' },
    body: { name: 'x', password: 'hunter22', note: `echo ${encodeURIComponent(TOKEN)}` },
    status: 200,
    rawHeaders: { 'set-cookie': 'sid=s3cr3t; Path=/; HttpOnly', 'x-echo': TOKEN },
    response: { owner: { email: 'jane.doe@shop.example' }, access_token: 'fresh-access-token-1', text: `"${TOKEN}"` },
    ...overrides,
  };
}

test('a recorded interaction keeps its shape but holds no secret: tokens, credentials, cookies, e-mails, encoded forms', () => {
  const out = redactInteraction(interaction(), { secrets: [TOKEN], patterns: [] });
  const text = JSON.stringify(out);
  for (const secret of [TOKEN, encodeURIComponent(TOKEN), 'hunter22', 'abc123', 's3cr3t', 'jane.doe@shop.example', 'ops@example.com', 'fresh-access-token-1']) {
    expect(text, `${secret} must not survive redaction`).not.toContain(secret);
  }
  // Shapes stay: the scheme of the credential header, cookie names and attributes, an e-mail that is still an e-mail.
  expect(out.reqheaders.authentication).toBe(`bearer ${standIn(TOKEN)}`);
  expect(out.reqheaders.cookie).toMatch(/^session=redacted-[0-9a-f]{8}; theme=redacted-[0-9a-f]{8}$/);
  expect(out.rawHeaders['set-cookie']).toMatch(/^sid=redacted-[0-9a-f]{8}; Path=\/; HttpOnly$/);
  expect((out.response as { owner: { email: string } }).owner.email).toMatch(/^redacted-[0-9a-f]{8}@example\.invalid$/);
  expect(out.path).toBe(`/v1/1/products?access_token=${standIn(TOKEN)}&page=2`);
});

test('redaction is deterministic and idempotent, so a replayed stand-in matches its recording', () => {
  const redaction = { secrets: [TOKEN], patterns: [] };
  const once = redactInteraction(interaction(), redaction);
  expect(redactInteraction(interaction(), redaction)).toEqual(once);
  expect(redactInteraction(once, redaction)).toEqual(once);
  expect(redactInteraction(once, { secrets: [], patterns: [] })).toEqual(once);
  expect(standIn(TOKEN)).not.toBe(standIn(`${TOKEN}x`));
});

test('configured patterns redact what no rule knows; a bad pattern is an error that names it', () => {
  const out = redactInteraction(interaction({ response: { card: '4111-1111-1111-1111' } }), {
    secrets: [],
    patterns: patternsFromEnv({ RECORD_REDACT_PATTERNS: '\\d{4}(-\\d{4}){3}' }),
  });
  expect(JSON.stringify(out)).not.toContain('4111');
  expect(() => patternsFromEnv({ RECORD_REDACT_PATTERNS: 'ok\n(unclosed' })).toThrow(/RECORD_REDACT_PATTERNS holds "\(unclosed"/);
});
