import { STATUS_CODES } from '../../http/nodeHttp.ts';
import type { TwinResponse } from './responses.ts';

/** The real service's usual error body (rule store.errors.error-body-shape). */
export interface StandardErrorBody {
  readonly code: number;
  readonly message: string;
  readonly description: string | null;
}

export function errorBody(status: number, description: string | null = null): StandardErrorBody {
  return { code: status, message: STATUS_CODES[status] ?? 'Error', description };
}

/** Descriptions of 404s for one resource, as the real service words them (store.errors.missing-resource-404). */
export const MISSING = {
  product: 'Product with such id does not exist',
  productSku: 'Product with such sku does not exist',
  category: 'Category with such id does not exist',
  webhook: 'Webhook with such id does not exist',
} as const;

/**
 * An answer the Store API gives instead of the happy path. Thrown anywhere in
 * the pipeline, turned into a response in one place, so every error carries
 * the same headers (X-Main-Language, rate headers).
 */
export class StoreApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}) {
    super(`Store API answers ${status}`);
    this.name = 'StoreApiError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  /** An error in the standard `{code, message, description}` shape. */
  static standard(status: number, description: string | null, headers?: Readonly<Record<string, string>>): StoreApiError {
    return new StoreApiError(status, errorBody(status, description), headers);
  }

  toResponse(): TwinResponse {
    return { status: this.status, body: this.body, headers: this.headers };
  }
}

/**
 * Collects 422 messages per field (rule store.errors.validation-422):
 * exactly `{"name":["can't be blank"]}` (store.errors.field-error-body-exact). Variant errors use the real
 * service's mixed form, `{"code":422,...,"description":"Validation error","price":[...]}`.
 */
export class FieldErrors {
  readonly #byField = new Map<string, string[]>();
  #mixed = false;

  add(field: string, message: string): void {
    const messages = this.#byField.get(field);
    if (messages) messages.push(message);
    else this.#byField.set(field, [message]);
  }

  /** Switches the body to the mixed form the real service uses for variant fields. */
  useMixedShape(): void {
    this.#mixed = true;
  }

  has(field: string): boolean {
    return this.#byField.has(field);
  }

  get isEmpty(): boolean {
    return this.#byField.size === 0;
  }

  throwIfAny(): void {
    if (this.isEmpty) return;
    const fields = Object.fromEntries(this.#byField);
    const body = this.#mixed ? { ...errorBody(422, 'Validation error'), ...fields } : fields;
    throw new StoreApiError(422, body);
  }
}
