/**
 * Who must act on a failed interaction: the consumer, whose pact expects something the contract does not
 * promise, or the provider, whose answer breaks the contract. Decided by the contract's own schema for the
 * route (src/schemas/), the one the suites hold every answer to; where the mismatch is outside what a
 * schema covers (a status, a header), by the target: the twins are held to the contract by the harness's gate.
 */
import { CONTRACT_ROUTES } from '../../src/schemas/contractRoutes.ts';
import { pathAfterBase } from '../../src/schemas/schemaBreaches.ts';
import { formatIssues, validate } from '../../src/schemas/validate.ts';
import type { VerifierMismatch } from './mismatchSummary.ts';

export interface ProviderAnswer {
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
}

/** The contract schema for the answer, from the path below the API's base (/v1/{store_id} or /api/edge). */
function contractSchema(api: 'store' | 'media', answer: ProviderAnswer): string | undefined {
  const { basePath, schemaFor } = CONTRACT_ROUTES[api];
  const below = pathAfterBase(answer.path, basePath);
  return below === undefined ? undefined : schemaFor(answer.method, below, answer.status);
}

/** One or two lines that start with who acts and say why. */
export function whoActs(api: 'store' | 'media', target: 'twin' | 'live', mismatches: readonly VerifierMismatch[], answer: ProviderAnswer | undefined): string {
  const schema = answer ? contractSchema(api, answer) : undefined;
  if (answer && schema && answer.body !== undefined) {
    const { valid, errors } = validate(schema, answer.body);
    if (!valid) {
      const issues = formatIssues(errors.slice(0, 3)).split('\n').join('; ');
      return `Who acts: the provider. Its answer breaks the contract (the ${schema} schema): ${issues}`;
    }
    if (mismatches.every((m) => m.type === 'BodyMismatch' || m.type === 'BodyTypeMismatch')) {
      return `Who acts: the consumer. The provider's answer keeps the contract (it validates against the ${schema} schema), so the pact expects something the contract does not promise: change the consumer test, or the contract first.`;
    }
  }
  if (target === 'twin') {
    return "Who acts: the consumer. The twin answers as the contract reads (the harness's own gate holds it there), so the pact expects something the contract does not promise: change the consumer test.";
  }
  return 'Who acts: not decided by the contract schemas (the mismatch is in what they do not cover): compare the pact with the spec, and run the same pact on the twins (--target twin): if it holds there, the provider differs from the contract.';
}

/**
 * Who acts on a message that does not hold. The store twin's delivery is what the store sends (its body
 * `{store_id, event, id}` and the signature header, store.webhooks.hmac-signature; the harness's gate holds the
 * twin there), so a pact that expects more or other than a delivery carries is the consumer's to change.
 */
export function whoActsOnMessage(mismatches: readonly VerifierMismatch[]): string {
  const metadata = mismatches.some((m) => m.type === 'MetadataMismatch');
  return `Who acts: the consumer. The twin's delivery is the store's (a body of store_id, event and id, signed in X-Linkedstore-HMAC-SHA256), so the pact expects ${metadata ? 'a header or member' : 'a member or value'} a delivery does not carry: change the consumer test (a handler that needs more reads it from the API, with the delivery's id).`;
}
