/** contracts/broker/BrokerClient.ts on its own: templated links, and what it says when a broker answers something it cannot use. */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { BrokerClient, BrokerError, expand } from '../../../contracts/broker/BrokerClient.ts';
import { refusedOrigin, startScriptedServer } from '../support/scriptedServer.ts';

const TOKEN = 'tok-never-in-a-message';

async function brokerError(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(BrokerError);
    return (error as Error).message;
  }
  throw new Error('expected a BrokerError');
}

test('templated links are expanded with each value percent-encoded (a + in a version, a / in a branch)', () => {
  expect(
    expand('https://b/pacticipants/{pacticipant}/branches/{branch}/versions/{version}', {
      pacticipant: 'store-commerce-api',
      branch: 'feat/x',
      version: 'abc+twin',
    }),
  ).toBe('https://b/pacticipants/store-commerce-api/branches/feat%2Fx/versions/abc%2Btwin');
});

test('a refused token, a broker without the relation, a non-JSON answer and no broker at all are each said, never with the token', async () => {
  let reply: { status?: number; json?: unknown; text?: string } = { status: 401, json: { error: 'no' } };
  const server = await startScriptedServer(() => reply, { contentType: 'application/hal+json', headersOf: () => ({}) });
  try {
    const client = () => new BrokerClient(server.origin, { token: TOKEN });
    const refused = await brokerError(() => client().pactsForVerification('store-commerce-api', [{ mainBranch: true }]));
    expect(refused).toMatch(/answered GET .* with 401: check PACT_BROKER_TOKEN/);
    reply = { json: { _links: {} } };
    expect(await brokerError(() => client().pactsForVerification('store-commerce-api', []))).toMatch(
      /no "pb:provider-pacts-for-verification" link.*2\.82 or later/,
    );
    reply = { text: '<html>login</html>' };
    expect(await brokerError(() => client().index())).toMatch(/not JSON: is PACT_BROKER_BASE_URL a Pact Broker/);
    const nowhere = await refusedOrigin();
    expect(await brokerError(() => new BrokerClient(nowhere, { token: TOKEN }).index())).toMatch(/did not answer GET .*check PACT_BROKER_BASE_URL/);
    for (const message of [refused]) expect(message).not.toContain(TOKEN);
  } finally {
    await server.close();
  }
});

test('recording a deployment to an environment the broker does not know names it and the fix', async () => {
  let origin = '';
  const server = await startScriptedServer(
    (request) => {
      if (request.url === '/') return { json: { _links: { 'pb:pacticipant': { href: `${origin}/pacticipants/{pacticipant}`, templated: true } } } };
      if (request.url === '/pacticipants/store-commerce-api')
        return { json: { _links: { 'pb:version': { href: `${origin}/pacticipants/store-commerce-api/versions/{version}` } } } };
      return { json: { _links: { 'pb:record-deployment': [{ name: 'production', href: `${origin}/deployed/production` }] } } };
    },
    { contentType: 'application/hal+json', headersOf: () => ({}) },
  );
  origin = server.origin;
  try {
    const message = await brokerError(() => new BrokerClient(origin, {}).recordDeployment('store-commerce-api', 'abc+twin', 'twin-gate', 'twin'));
    expect(message).toMatch(/no "pb:record-deployment" link named "twin-gate": create the environment "twin-gate" in the broker/);
    expect(server.requests.map((r) => r.url)).toEqual(['/', '/pacticipants/store-commerce-api', '/pacticipants/store-commerce-api/versions/abc%2Btwin']);
  } finally {
    await server.close();
  }
});
