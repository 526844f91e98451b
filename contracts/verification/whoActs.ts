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
import type { Arrangement } from './pactProvider.ts';

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

/** What the harness arranged, against what the pact names (PactProvider.arrangement), and the status the pact expects. */
export interface ArrangedFor extends Arrangement {
  readonly expectedStatus: number;
}

/** Refusals an arrangement can cause: the wrong store or token (401, 403); a 404 where the pact names two stores. */
function arrangementCould(status: number, arrangement: ArrangedFor): boolean {
  if (status === arrangement.expectedStatus) return false;
  return status === 401 || status === 403 || (status === 404 && arrangement.differs !== undefined);
}

/**
 * One or two lines that start with who acts and say why. The consumer is named only where the answer keeps the
 * contract and what the harness arranged is what the pact names: a refusal the arrangement could have caused says
 * what was arranged, what the pact names, and the fix.
 */
export function whoActs(
  api: 'store' | 'media',
  target: 'twin' | 'live',
  mismatches: readonly VerifierMismatch[],
  answer: ProviderAnswer | undefined,
  arrangement?: ArrangedFor,
): string {
  if (answer && arrangement && arrangementCould(answer.status, arrangement)) {
    if (answer.status === 403 && arrangement.appOf) {
      const scope = arrangement.scopeFor?.(answer.method, answer.path);
      return `Who acts: the consumer's app setup. The request went as ${arrangement.arranged}, and the provider refused it with 403: ${arrangement.appOf}'s app ${scope ? `was not granted ${scope}, which ${answer.method} ${answer.path} needs` : 'lacks a scope this interaction needs'}. Fix: ask for the scope in the app's settings and install it again on the sandbox store, then update its token in STORE_TEAM_SANDBOXES.`;
    }
    if (arrangement.differs)
      return `Who acts: the consumer, whose pact names two things at once: ${arrangement.differs}. The harness arranged ${arrangement.arranged}, and the provider answered ${answer.status}. Fix: make the state and the path name the same store (or have the path read it with fromProviderState).`;
    return target === 'twin'
      ? `Who acts: the harness. It arranged ${arrangement.arranged}, as the pact names it, and the twin refused the request with ${answer.status}: not the consumer's to fix; report it with this pact.`
      : `Who acts: whoever set up the live target. The harness sent the request for ${arrangement.arranged}, and the provider refused it with ${answer.status}: check the credentials and the store (npx api-contract-harness doctor), not the consumer test.`;
  }
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
