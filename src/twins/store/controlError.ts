/** A control API refusal: `{"error": "..."}` saying what is wrong and how to fix it. */
export class ControlError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ControlError';
    this.status = status;
  }
}
