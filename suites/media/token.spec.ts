import { OAuthError } from '../../src/clients/media/errors.ts';
import type { OAuthGrant } from '../../src/clients/media/types.ts';
import { refusalStatuses, RFC6749_ERRORS } from '../../src/rules/oauth2.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import { says } from '../../src/testing/ruleTest.ts';
import { expect, test, verifies } from '../fixtures/mediaFixtures.ts';

// The token endpoint's refusals, by OAuth 2 (RFC 6749 5.2): the spec says the service uses it.

/** The refusal of `grant` as the client met it; a token given for it fails the rule. */
async function refusalOf(grant: OAuthGrant, what: string, client: { token(grant: OAuthGrant): Promise<unknown> }, rule: Rule): Promise<OAuthError> {
  try {
    await client.token(grant);
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error(says(rule, `${what} was given a token`));
}

test(
  ...verifies('media.auth.token-errors-rfc6749', 'a wrong password and a refresh token never issued are invalid_grant, 400', async ({ media, rule }) => {
    const cases: [string, OAuthGrant][] = [
      ['a password grant for an account nobody has', { username: 'nobody-by-this-name@example.invalid', password: 'not-the-password' }],
      ['a refresh grant with a token never issued', { refreshToken: 'harness-refresh-token-never-issued' }],
    ];
    for (const [what, grant] of cases) {
      const refused = await refusalOf(grant, what, media.client(), rule);
      const allowed = refusalStatuses(refused.error);
      expect(allowed, says(rule, `${what} answered ${refused.status} ${refused.error ?? '(no error member)'}, not ${allowed.join(' or ')}`)).toContain(
        refused.status,
      );
      expect(RFC6749_ERRORS, says(rule, `${what}: error ${JSON.stringify(refused.error)} is none of RFC 6749's codes`)).toContain(refused.error);
      // A client the provider does not authenticate is refused before the grant is read: what the standard allows.
      if (refused.error !== 'invalid_client') expect(refused.error, says(rule, `${what}: the error code`)).toBe('invalid_grant');
    }
  }),
);
