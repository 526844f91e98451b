/** The twin's data, shared by the registry, the state and the documents. */

/** A resource identifier: what a relationship points at. */
export interface Ref {
  readonly type: string;
  /** A string, as every id of the twin (media.jsonapi.string-ids). */
  readonly id: string;
}

/** A stored relationship value: to-one (a Ref or null) or to-many. */
export type StoredLink = Ref | null | Ref[];

/** One resource as the twin stores it. */
export interface MediaRecord {
  readonly type: string;
  readonly id: string;
  /** Attribute values by camelCase name, createdAt and updatedAt included. */
  attributes: Record<string, unknown>;
  /** Relationships the record stores itself (inverse ones are computed from the other side). */
  links: Record<string, StoredLink>;
  /** Values never rendered (a user's password). */
  secrets: Record<string, string>;
}

/** Where the seed writes its records (MediaState, which runs the seed). */
export interface SeedTarget {
  get(type: string, id: string): MediaRecord | undefined;
  put(type: string, id: string, attributes: Record<string, unknown>, links?: Record<string, StoredLink>, secrets?: Record<string, string>): MediaRecord;
}

/** Who is asking: anonymous, or a signed-in user. */
export interface Viewer {
  readonly user: MediaRecord | undefined;
  readonly isAdmin: boolean;
  /** Adult (R18) media are hidden: anonymous, or a user whose sfwFilter is on. */
  readonly hidesAdult: boolean;
}

export const ANONYMOUS: Viewer = { user: undefined, isAdmin: false, hidesAdult: true };

export function sameRef(a: Ref | null | undefined, b: Ref | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && a.type === b.type && a.id === b.id;
}

export function refOf(record: MediaRecord): Ref {
  return { type: record.type, id: record.id };
}

/** The stored to-one value of a relationship (undefined when absent or to-many). */
export function storedOne(record: MediaRecord, name: string): Ref | null {
  const value = record.links[name];
  return value === undefined || Array.isArray(value) ? null : value;
}

export function storedMany(record: MediaRecord, name: string): Ref[] {
  const value = record.links[name];
  return Array.isArray(value) ? value : [];
}

const NUMERIC_ID = /^\d+$/;

/** Numeric ids sort as numbers; other ids (activity UUIDs) as text. */
export function compareIds(a: string, b: string): number {
  // One pattern for every call: a literal inside would build a new RegExp per comparison.
  if (NUMERIC_ID.test(a) && NUMERIC_ID.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}
