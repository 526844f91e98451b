/**
 * JSON already serialised: a handler can answer bytes it rendered once (see
 * renderCache.ts) instead of objects the writer serialises on every answer.
 * Both twins' writers send a JsonText's bytes as they are; anything else that
 * serialises one (JSON.stringify, an OpenAPI example) gets its value back
 * through toJSON, so a JsonText never changes what is written.
 */
export class JsonText {
  readonly bytes: Buffer;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  static of(value: unknown): JsonText {
    return new JsonText(Buffer.from(JSON.stringify(value), 'utf8'));
  }

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8')) as unknown;
  }
}

const COMMA = Buffer.from(',');
const OPEN_ARRAY = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_OBJECT = Buffer.from('}');

/** `[a,b,…]` of serialised items, joined without parsing them again. */
export function jsonArray(items: readonly JsonText[]): JsonText {
  const parts: Buffer[] = [OPEN_ARRAY];
  items.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(item.bytes);
  });
  parts.push(CLOSE_ARRAY);
  return new JsonText(Buffer.concat(parts));
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
    const text = value instanceof JsonText ? value.bytes : Buffer.from(JSON.stringify(value), 'utf8');
    parts.push(Buffer.from(`${parts.length === 0 ? '{' : ','}${JSON.stringify(key)}:`, 'utf8'), text);
  }
  if (parts.length === 0) parts.push(Buffer.from('{'));
  parts.push(CLOSE_OBJECT);
  return new JsonText(Buffer.concat(parts));
}

/** The bytes a response body is written as. */
export function jsonPayload(body: unknown): Buffer {
  return body instanceof JsonText ? body.bytes : Buffer.from(JSON.stringify(body), 'utf8');
}

/** The plain value of a body, for code that reads its fields rather than writing it. */
export function plainJson(body: unknown): unknown {
  return body instanceof JsonText ? body.toJSON() : body;
}
