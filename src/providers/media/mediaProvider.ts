/**
 * The media service under test, one way for every caller: the suites'
 * fixtures, the properties' arenas and the pact provider states are adapters
 * over it. It alone decides how a media client is made (User-Agent, secrets,
 * clock, and on live the worker's guard: the request budget and the write
 * flag), how a seeded user signs in on the twin, and how the twin is reset.
 */
import { MediaClient } from '../../clients/media/MediaClient.ts';
import type { Exchange, RetryOptions } from '../../clients/media/types.ts';
import { replayClock, type Clock } from '../../clock/Clock.ts';
import { HARNESS_USER_AGENT, type LiveMediaConfig, type Target, type TwinMediaConfig } from '../../config/harnessConfig.ts';
import { MediaTwinControl } from '../../testing/MediaTwinControl.ts';
import { MEDIA_SEED } from '../../twins/media/seedFacts.ts';
import { clientStack } from '../clientStack.ts';

export type SeedUser = keyof typeof MEDIA_SEED.users;

/** What a caller may choose of one client; the rest is the provider's. */
export interface MediaClientChoices {
  /** Signed in with this token; anonymous without. */
  readonly token?: string;
  readonly retry?: RetryOptions;
}

export interface MediaProviderOptions {
  /** Sees every exchange of every client the provider makes, with the client that sent it (its user deletes what it made). */
  readonly onExchange?: (exchange: Exchange, sender: MediaClient) => void;
  /** Instead of the harness's own (the properties name themselves). */
  readonly userAgent?: string;
  /** Secrets to redact beyond the tokens the provider knows; the provider adds the tokens and passwords it signs in with. */
  readonly secrets?: string[];
}

export interface MediaProvider {
  readonly kind: 'twin' | 'live';
  readonly target: Target;
  /** {base_url}/api/edge */
  readonly apiUrl: string;
  readonly allowWrites: boolean;
  /** A client made the one way: anonymous, or signed in with `choices.token`. */
  client(choices?: MediaClientChoices): MediaClient;
  /** Live: a client with KITSU_ACCESS_TOKEN, undefined without one. Twin: undefined (sign a seeded user in instead). */
  readonly signedIn: MediaClient | undefined;
  /** Twin only: a seeded user signed in with the password grant, as a real integration signs in. */
  readonly signIn: ((user: SeedUser) => Promise<MediaClient>) | undefined;
  /** Twin only: back to the seed. */
  readonly control: MediaTwinControl | undefined;
}

function provider(
  apiUrl: string,
  target: Target,
  allowWrites: boolean,
  clock: Clock | undefined,
  options: MediaProviderOptions,
  live: { token: string | undefined } | undefined,
): Omit<MediaProvider, 'kind' | 'signIn' | 'control'> {
  const secrets = options.secrets ?? [];
  if (live?.token) secrets.push(live.token);
  const client = (choices: MediaClientChoices = {}): MediaClient => {
    const made: MediaClient = new MediaClient({
      baseUrl: apiUrl,
      userAgent: options.userAgent ?? HARNESS_USER_AGENT,
      // One list, shared: a token one client signs in with is redacted from every client's exchanges.
      secrets,
      ...(choices.token ? { token: choices.token } : {}),
      ...(choices.retry ? { retry: choices.retry } : {}),
      ...(clock ? { clock } : {}),
      // The stack every media request passes (live and record: the worker's guard, the write flag and the request budget).
      ...clientStack<Exchange>('media', live ? 'service' : 'twin', (exchange) => options.onExchange?.(exchange, made)),
    });
    return made;
  };
  return { target, apiUrl, allowWrites, client, signedIn: live?.token ? client({ token: live.token }) : undefined };
}

/** The twin variant: seeded users sign in; a reset goes back to the seed. */
export function twinMediaProvider(config: Pick<TwinMediaConfig, 'twinUrl' | 'apiUrl'>, target: Target, options: MediaProviderOptions = {}): MediaProvider {
  const made = provider(config.apiUrl, target, true, undefined, options, undefined);
  const secrets = options.secrets;
  return {
    ...made,
    kind: 'twin',
    control: new MediaTwinControl(config.twinUrl),
    signIn: async (user) => {
      const { email, password } = MEDIA_SEED.users[user];
      const signed = made.client();
      const token = await signed.token({ username: email, password });
      secrets?.push(token.access_token, token.refresh_token ?? '', password);
      return signed;
    },
  };
}

/** The live variant: the configured service, anonymous or with KITSU_ACCESS_TOKEN; on replay on a virtual clock. */
export function liveMediaProvider(config: LiveMediaConfig, target: Target, options: MediaProviderOptions = {}): MediaProvider {
  return {
    ...provider(config.apiUrl, target, config.allowWrites, replayClock(target), options, { token: config.token }),
    kind: 'live',
    control: undefined,
    signIn: undefined,
  };
}
