import type { Dispatcher } from 'undici';

/** Headers as undici hands them to a handler: lower-case names, a repeated one as an array. */
export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** What a controller does to the request behind it; each is optional (an answer already read whole has nothing to pause). */
export interface ControlHooks {
  abort?: (reason: Error) => void;
  pause?: () => void;
  resume?: () => void;
}

/**
 * The DispatchController an interceptor hands its handler when the answer does
 * not come from undici's own client: a replayed answer (retry.ts), one read with
 * node:http (withoutLength.ts), or an error before anything left (a guard's
 * refusal, admission.ts; a gate that failed, pacing.ts).
 */
export class Controller implements Dispatcher.DispatchController {
  readonly #hooks: ControlHooks;
  #aborted = false;
  #paused = false;
  #reason: Error | null = null;

  constructor(hooks: ControlHooks = {}) {
    this.#hooks = hooks;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get paused(): boolean {
    return this.#paused;
  }

  get reason(): Error | null {
    return this.#reason;
  }

  abort(reason: Error): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#hooks.abort?.(reason);
  }

  pause(): void {
    this.#paused = true;
    this.#hooks.pause?.();
  }

  resume(): void {
    this.#paused = false;
    this.#hooks.resume?.();
  }
}
