import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { admitOutsideDispatcher } from '../../../src/http/outsideAdmission.ts';
import { requestStack } from '../../../src/http/requestStack.ts';

// The interceptor stack: guards composed around one dispatcher, asked first to last, and the same guards for what cannot pass undici.

let server: Server;
let origin: string;
let arrived: string[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    arrived.push(`${req.method} ${req.url}`);
    res.end('ok');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => server.close());
test.beforeEach(() => void (arrived = []));

test('every request on the stack asks each guard, in the order given, before it leaves', async () => {
  const asked: string[] = [];
  const stack = requestStack([(method, path) => void asked.push(`first ${method} ${path}`), (method, path) => void asked.push(`second ${method} ${path}`)]);
  const answer = await request(`${origin}/things?page=2`, { dispatcher: stack });
  expect(await answer.body.text()).toBe('ok');
  expect(asked).toEqual(['first GET /things?page=2', 'second GET /things?page=2']);
  expect(arrived).toEqual(['GET /things?page=2']);
});

test('a guard that throws refuses the request before it leaves: the later guards are not asked, nothing arrives', async () => {
  const asked: string[] = [];
  const refusal = Object.assign(new Error('refused by the first guard'), { code: 'TEST_REFUSED' });
  const stack = requestStack([
    () => {
      throw refusal;
    },
    () => void asked.push('second'),
  ]);
  await expect(request(`${origin}/things`, { method: 'POST', body: 'x', dispatcher: stack })).rejects.toBe(refusal);
  expect(asked).toEqual([]);
  expect(arrived).toEqual([]);
});

test('what cannot pass undici asks the same guards through admitOutsideDispatcher', () => {
  const asked: string[] = [];
  const stack = requestStack([(method, path) => void asked.push(`first ${method} ${path}`), (method) => void asked.push(`second ${method}`)]);
  admitOutsideDispatcher(stack, 'PUT', '/v1/1/categories/1');
  expect(asked).toEqual(['first PUT /v1/1/categories/1', 'second PUT']);
  // A dispatcher without a stack has no guards to ask.
  expect(() => admitOutsideDispatcher(undefined, 'PUT', '/x')).not.toThrow();
});
