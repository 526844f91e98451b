/**
 * What the two OpenAPI documents (storeOpenApi.ts, mediaOpenApi.ts) share:
 * the version, the loose shapes they are built from, and the naming rules
 * that turn a route of a table into an operation.
 */
import { STATUS_CODES } from '../http/nodeHttp.ts';

export const OPENAPI_VERSION = '3.1.0';

export type JsonObject = { [key: string]: unknown };

/** An Operation Object; only the members the generators fill are typed. */
export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly parameters?: readonly JsonObject[];
  readonly requestBody?: JsonObject;
  readonly responses: Readonly<Record<string, JsonObject>>;
  readonly servers?: readonly JsonObject[];
  readonly security?: readonly JsonObject[];
}

/** Path → lower-case method → operation. */
export type Paths = Record<string, Record<string, Operation>>;

export interface OpenApiDocument extends JsonObject {
  readonly openapi: string;
  readonly paths: Paths;
  readonly components: JsonObject;
}

export function addOperation(paths: Paths, path: string, method: string, operation: Operation): void {
  const item = (paths[path] ??= {});
  const key = method.toLowerCase();
  if (item[key]) throw new Error(`openapi: ${method} ${path} is generated twice`);
  item[key] = operation;
}

/** `{id}`, `{namespace}`, ... of a path template, in order. */
export function placeholders(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
}

/** The template with every placeholder filled by `value`: a path a route table's matchers can test. */
export function samplePath(path: string, value: string): string {
  return path.replace(/\{[^}]+\}/g, value);
}

function pascal(words: string): string {
  return words
    .split(/[-_\s]+/)
    .filter((word) => word !== '')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

/**
 * `get` + the path in PascalCase, placeholders as `By<Name>`: `getAnimeById`,
 * `putLibraryEntriesBulk`. Method and path are unique per route, so the id is too.
 */
export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment.startsWith('{') ? `By${pascal(segment.slice(1, -1))}` : pascal(segment)));
  return `${method.toLowerCase()}${words.join('')}`;
}

/** `Product` from `products`, `Category` from `categories`: names from a collection segment. */
export function singular(collection: string): string {
  return collection.replace(/ies$/, 'y').replace(/s$/, '');
}

/** The reason phrase of a status (`201 Created`), or of a range (`2XX`). */
export function statusText(status: string): string {
  const phrase = STATUS_CODES[Number(status)];
  return phrase ? `${status} ${phrase}` : status;
}

export function sentence(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
