/**
 * Bodies the field notes quote as the real service's where the contract names another shape for their status: on
 * live, record and replay such an answer is an observation, never a schema breach; on the twins the contract's own
 * shape stays required (the twin never answers them). Every other body the field notes quote is taken by the
 * contract schema its route has (tests/unit/schemas/fieldNotesBodies.test.ts passes each one through).
 */
import { validate } from './validate.ts';

export interface FieldNotesShape {
  /** What the field notes say the real service answers, in words, for the observation. */
  readonly says: string;
  readonly status: number;
  /** Whether a body is this shape. */
  readonly matches: (body: unknown) => boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A body that is {code, message, description} and nothing more: no member holds field messages. */
const standardOnly = (status: number) => (body: unknown) =>
  isObject(body) && body['code'] === status && validate('store/error-standard', body).valid && Object.values(body).every((value) => !Array.isArray(value));

export const STORE_FIELD_NOTES_SHAPES: readonly FieldNotesShape[] = [
  {
    // Field notes, Error bodies: "Seen for ... 422 limit errors (Store has reached maximum limit of 5000 allowed
    // categories)". The contract's 422 is for a field in the body: its keys are field names.
    says: '422 in the {code, message, description} form for a limit of the store (field notes: "Store has reached maximum limit of 5000 allowed categories"); the contract names the field-keys form for an invalid field',
    status: 422,
    matches: standardOnly(422),
  },
];

/** The field-notes shape an answer is, where the contract names another: undefined for any other answer. */
export function fieldNotesShapeOf(shapes: readonly FieldNotesShape[], status: number, body: unknown): FieldNotesShape | undefined {
  return shapes.find((shape) => shape.status === status && shape.matches(body));
}

/**
 * A write the provider refused in a field-notes shape (a sandbox at one of its limits): the test that sent it could
 * not do its work, so it is not verified, with this reason; undefined when no answer was such a refusal.
 */
export function refusalInFieldNotesShape(
  shapes: readonly FieldNotesShape[],
  exchanges: readonly { request: { method: string; url: string }; response?: { status: number; body: string } | undefined }[],
): string | undefined {
  for (const { request, response } of exchanges) {
    if (!response) continue;
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      continue;
    }
    const shape = fieldNotesShapeOf(shapes, response.status, body);
    if (!shape) continue;
    const description = isObject(body) && typeof body['description'] === 'string' ? ` "${body['description']}"` : '';
    return `the provider refused ${request.method} ${new URL(request.url).pathname} with ${response.status}${description}, a limit of the sandbox (${shape.says}). Make room in the sandbox (delete what it holds too many of) to verify this test`;
  }
  return undefined;
}
