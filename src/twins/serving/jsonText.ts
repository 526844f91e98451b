/**
 * JSON already serialised: a handler can answer bytes it rendered once (see
 * renderCache.ts) instead of objects the writer serialises on every answer.
 * Both twins' writers send a JsonText's bytes as they are; anything else that
 * serialises one (JSON.stringify, an OpenAPI example) gets its value back
 * through toJSON, so a JsonText never changes what is written.
 */
export class JsonText {
  #bytes: Buffer | undefined;
  /** The pieces not yet joined: a text built of others keeps their pieces, so a document is copied once, when written, if ever. */
  #parts: readonly Buffer[] | undefined;
  /** `,` then the bytes, in one buffer the bytes are a view of: as an array item after the first, the text is one piece, not two. */
  #afterComma: Buffer | undefined;

  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  static of(value: unknown): JsonText {
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError('JsonText.of: the value has no JSON (undefined, a function or a symbol)');
    const afterComma = Buffer.from(`,${json}`, 'utf8');
    const text = new JsonText(afterComma.subarray(1));
    text.#afterComma = afterComma;
    return text;
  }

  /** The text made of `parts` in order, joined only when its bytes are asked for. */
  static joined(parts: readonly Buffer[]): JsonText {
    const text = new JsonText(EMPTY);
    text.#bytes = undefined;
    text.#parts = parts;
    return text;
  }

  get bytes(): Buffer {
    if (this.#bytes === undefined) {
      this.#bytes = Buffer.concat(this.#parts ?? []);
      this.#parts = undefined;
    }
    return this.#bytes;
  }

  /** Adds the buffers the text is made of to `parts`, in order, without joining them. */
  appendTo(parts: Buffer[]): void {
    if (this.#bytes !== undefined) parts.push(this.#bytes);
    else for (const part of this.#parts ?? []) parts.push(part);
  }

  /** Adds `,` and the text to `parts`. */
  appendAfterCommaTo(parts: Buffer[]): void {
    if (this.#afterComma !== undefined) {
      parts.push(this.#afterComma);
      return;
    }
    parts.push(COMMA);
    this.appendTo(parts);
  }

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8')) as unknown;
  }
}

const EMPTY = Buffer.alloc(0);
const COMMA = Buffer.from(',');
const OPEN_ARRAY = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from(']');
const OPEN_OBJECT = Buffer.from('{');
const CLOSE_OBJECT = Buffer.from('}');

/** `[a,b,…]` of serialised items, joined without parsing them again. */
export function jsonArray(items: readonly JsonText[]): JsonText {
  const parts: Buffer[] = [OPEN_ARRAY];
  items.forEach((item, index) => (index === 0 ? item.appendTo(parts) : item.appendAfterCommaTo(parts)));
  parts.push(CLOSE_ARRAY);
  return JsonText.joined(parts);
}

/** `{"key":` or `,"key":`, the same few keys on every answer: kept rather than encoded each time. */
const keyPrefixes = new Map<string, readonly [Buffer, Buffer]>();
const MAX_KEY_PREFIXES = 256;

function keyPrefix(key: string, first: boolean): Buffer {
  let prefixes = keyPrefixes.get(key);
  if (!prefixes) {
    const quoted = `${JSON.stringify(key)}:`;
    prefixes = [Buffer.from(`{${quoted}`, 'utf8'), Buffer.from(`,${quoted}`, 'utf8')];
    if (keyPrefixes.size < MAX_KEY_PREFIXES) keyPrefixes.set(key, prefixes);
  }
  return prefixes[first ? 0 : 1];
}

/**
 * `{"key":value,…}` in the order given; a value may be a JsonText (written as
 * is) or anything JSON-serialisable, and undefined values are left out, as
 * JSON.stringify leaves them out.
 */
export function jsonObject(entries: readonly (readonly [string, unknown])[]): JsonText {
  const parts: Buffer[] = [];
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    parts.push(keyPrefix(key, parts.length === 0));
    if (value instanceof JsonText) value.appendTo(parts);
    else parts.push(Buffer.from(JSON.stringify(value), 'utf8'));
  }
  if (parts.length === 0) parts.push(OPEN_OBJECT);
  parts.push(CLOSE_OBJECT);
  return JsonText.joined(parts);
}

/**
 * The buffers a response body is written as, in order and not joined: a
 * writer that sends them as they are (writeParts.ts) skips copying the
 * document into one buffer, which was a quarter of the CPU of a 50 KB list page.
 */
export function jsonPayloadParts(body: unknown): Buffer[] {
  if (!(body instanceof JsonText)) return [Buffer.from(JSON.stringify(body), 'utf8')];
  const parts: Buffer[] = [];
  body.appendTo(parts);
  return parts;
}

/** The plain value of a body, for code that reads its fields rather than writing it. */
export function plainJson(body: unknown): unknown {
  return body instanceof JsonText ? body.toJSON() : body;
}
