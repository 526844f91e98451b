/** What a control route is given, and how it refuses: shared by the control API and the install flow's control routes. */
import type { TwinState } from './twinState.ts';

export interface ControlContext {
  readonly twin: TwinState;
  readonly body: Readonly<Record<string, unknown>>;
  /** `http://{host}`, for the baseUrl of stores. */
  readonly origin: string;
}

/** A control API refusal: `{"error": "..."}` saying what is wrong and how to fix it. */
export class ControlError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ControlError';
    this.status = status;
  }
}
