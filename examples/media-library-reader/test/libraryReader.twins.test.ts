/**
 * The library reader against the harness's twins, from the team's own tests: `startTwins()` serves the Media
 * API with its seeded users, whose password grant gives the token the reader sends.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTwins, type Twins } from 'api-contract-harness/twins';
import { findBySlug, readShelf } from '../src/libraryReader.ts';

let twins: Twins;

before(async () => {
  twins = await startTwins();
});
after(() => twins.close());

/** A seeded user's token, as the app gets one: the OAuth password grant. */
async function signIn(user: Twins['media']['users'][number]): Promise<string> {
  const answer = await fetch(twins.media.oauthTokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username: user.email, password: user.password }),
  });
  assert.equal(answer.status, 200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

test("the reader shows a signed-in user's library, each entry with its anime's title", async () => {
  const user = twins.media.users[0]!;
  const shelf = await readShelf({ baseURL: twins.media.url, token: await signIn(user), userId: user.id });
  assert.ok(shelf.length > 0, `user ${user.id} has library entries in the seed`);
  assert.ok(shelf.every((item) => item.title !== '' && Number.isInteger(item.progress)));
});

test('the reader finds a title by its slug, and nothing for a slug nobody has', async () => {
  const found = await findBySlug({ baseURL: twins.media.url, slug: 'cowboy-bebop' });
  assert.equal(found?.title, 'Cowboy Bebop');
  assert.equal(await findBySlug({ baseURL: twins.media.url, slug: 'no-such-anime-anywhere' }), undefined);
});
