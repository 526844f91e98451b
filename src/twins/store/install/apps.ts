/**
 * The apps a store owner can install on the twin: what a partner registers in
 * the partner panel (Authentication 4), here registered through the control API.
 */
import { randomBytes } from 'node:crypto';
import { isAcceptedWebhookUrl } from '../resources/webhooks.ts';

import { SCOPES, type Scope } from '../../../rules/storeScopes.ts';

export { SCOPES, type Scope };

export interface TwinApp {
  readonly id: number;
  name: string;
  readonly secret: string;
  /** Where approving the install sends the store owner, with `code` and `state`. */
  redirectUrl: string;
  scopes: readonly Scope[];
}

/** The app present at start and after a reset; `npm run twins` prints it. */
export const SEEDED_APP = {
  id: 4001,
  name: 'Twin Sample App',
  secret: 'twin-app-4001-client-secret',
  redirectUrl: 'http://localhost:3000/oauth/callback',
  scopes: SCOPES,
} as const satisfies TwinApp;

/** Apps registered through the control API get ids from here up; never reused within one run. */
const FIRST_CREATED_APP_ID = 4101;

/** What registering or changing an app takes; each field checked with a message naming it (control API). */
export interface AppInput {
  readonly name?: string;
  readonly redirectUrl?: string;
  readonly scopes?: readonly Scope[];
}

/** Why `body` is not a valid app registration, or the input it holds. */
export function readAppInput(body: Readonly<Record<string, unknown>>, creating: boolean): AppInput | string {
  const { name, redirectUrl, scopes } = body;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 100))
    return 'name must be a non-empty string of at most 100 characters';
  if (creating && redirectUrl === undefined)
    return 'redirectUrl is required: where the store owner lands after approving, e.g. "http://127.0.0.1:3000/callback"';
  // The same allowance as webhook URLs: https, or plain http on loopback so an app under test can run locally.
  if (redirectUrl !== undefined && (typeof redirectUrl !== 'string' || !isAcceptedWebhookUrl(redirectUrl)))
    return 'redirectUrl must be an https URL, or http on 127.0.0.1, localhost or [::1]';
  if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((scope) => (SCOPES as readonly unknown[]).includes(scope))))
    return `scopes must be a list of ${SCOPES.join(', ')}; omit it for both`;
  return {
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof redirectUrl === 'string' ? { redirectUrl } : {}),
    ...(Array.isArray(scopes) ? { scopes: [...new Set(scopes as Scope[])] } : {}),
  };
}

/** The registered apps of one running twin. */
export class AppRegistry {
  readonly #apps = new Map<number, TwinApp>();
  #nextId = FIRST_CREATED_APP_ID;

  constructor() {
    this.reset();
  }

  /** Back to the seeded app alone. */
  reset(): void {
    this.#apps.clear();
    this.#apps.set(SEEDED_APP.id, { ...SEEDED_APP, scopes: [...SEEDED_APP.scopes] });
  }

  register(input: AppInput): TwinApp {
    const id = this.#nextId;
    this.#nextId += 1;
    const app: TwinApp = {
      id,
      name: input.name ?? `Twin App ${id}`,
      secret: `twin-app-${id}-${randomBytes(8).toString('hex')}`,
      redirectUrl: input.redirectUrl ?? SEEDED_APP.redirectUrl,
      scopes: input.scopes ?? [...SCOPES],
    };
    this.#apps.set(id, app);
    return app;
  }

  /** The app a client_id or a path segment names: digits only. */
  find(raw: string | undefined): TwinApp | undefined {
    return raw !== undefined && /^\d{1,9}$/.test(raw) ? this.#apps.get(Number(raw)) : undefined;
  }

  list(): TwinApp[] {
    return [...this.#apps.values()];
  }
}
