/**
 * How a resource of the registry is described: attributes, relationships,
 * filters, sort, policies, and the bases every resource inherits (spec,
 * "Inheritance"): the base resource, the sluggable base, the episodic base and
 * the Media base shared by anime and manga.
 */
import { MEDIA_CONTRACT } from '../../../rules/mediaContract.ts';
import { foldText } from '../../../text/foldText.ts';
import type { ValidationIssue } from '../jsonapi/errors.ts';
import type { MediaState } from '../mediaState.ts';
import { storedOne, type MediaRecord, type Ref, type StoredLink, type Viewer } from '../model.ts';

export type AttributeKind = 'string' | 'integer' | 'number' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'object' | 'stringArray' | 'enum' | 'json';

export interface AttributeSpec {
  readonly kind: AttributeKind;
  /** Allowed values of an enum. */
  readonly values?: readonly string[];
  /** Writable on create only, or on create and update; absent: read-only. */
  readonly write?: 'create' | 'always';
  /** Must be given (and not blank) on create. */
  readonly required?: boolean;
  /** Writes may set null (default true). */
  readonly nullable?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly maxLength?: number;
  /** Rendered only to the owner and admins (a user's email, sfwFilter). */
  readonly ownerOnly?: boolean;
  /** Never rendered (a password). */
  readonly writeOnly?: boolean;
  readonly sortable?: boolean;
  /** The value a create stores when the client gives none. */
  readonly default?: unknown;
  /** Derived on every read instead of stored. */
  readonly compute?: (record: MediaRecord, state: MediaState) => unknown;
}

export type RelationshipSpec =
  | {
      readonly kind: 'one';
      /** Target type, or the types a polymorphic relationship may point at. */
      readonly target: string | readonly string[];
      readonly write?: 'create' | 'always';
      readonly required?: boolean;
      /** Derived instead of stored (a library entry's `anime` is its `media` when that is an anime). */
      readonly resolve?: (record: MediaRecord, state: MediaState) => Ref | null;
    }
  | {
      readonly kind: 'many';
      readonly target: string | readonly string[];
      /** The to-one relationship on the target that points back here; absent: stored on this record. */
      readonly inverse?: string;
      readonly resolve?: (record: MediaRecord, state: MediaState) => Ref[];
      readonly write?: 'create' | 'always';
    }
  /** Kept only as an empty relationship marked deprecated (spec, "Relationships between resources"). */
  | { readonly kind: 'deprecated'; readonly replacedBy: string | null };

export interface FilterContext {
  readonly state: MediaState;
  readonly viewer: Viewer;
}

export interface FilterSpec {
  /**
   * How a value is checked: `id` values must be numeric (400 Invalid field
   * value), others are checked by `accepts` (400 Invalid filter value).
   */
  readonly values: 'id' | 'other';
  readonly accepts?: (token: string) => boolean;
  /** `tokens`: the comma list, `null` for `_none`. */
  readonly match: (record: MediaRecord, tokens: readonly (string | null)[], context: FilterContext) => boolean;
}

/** One check of a policy: whether the viewer may do this to the record (a Pundit policy method, not a rule of src/rules/). */
export type PolicyCheck = (viewer: Viewer, record: MediaRecord, state: MediaState) => boolean;

export interface Policy {
  /** Whether the viewer may see the record at all (a Pundit scope): hidden records are 404 and left out of lists. */
  readonly read: PolicyCheck;
  readonly create: PolicyCheck;
  readonly update: PolicyCheck;
  readonly destroy: PolicyCheck;
}

/** A create or update in progress: the record as it would be stored. */
export interface Draft {
  readonly id: string | undefined;
  readonly attributes: Record<string, unknown>;
  readonly links: Record<string, StoredLink>;
  readonly secrets: Record<string, string>;
  /** Member names the client wrote. */
  readonly written: Set<string>;
}

export interface WriteContext {
  readonly state: MediaState;
  readonly viewer: Viewer;
  readonly action: 'create' | 'update';
  /** The stored record, on update. */
  readonly previous: MediaRecord | undefined;
}

export interface ResourceHooks {
  /** Reshapes what the client wrote before policies and checks (a library entry's `anime` becomes its `media`). */
  readonly prepare?: (draft: Draft) => void;
  /** Business rules beyond types (uniqueness, ranges); 422 issues. */
  readonly validate?: (draft: Draft, context: WriteContext) => ValidationIssue[];
  /** Derived values before saving (timestamps such as progressedAt). */
  readonly beforeSave?: (draft: Draft, context: WriteContext) => void;
  /** Side effects after a create (the creator of a group becomes its owner). */
  readonly afterCreate?: (record: MediaRecord, context: WriteContext) => void;
}

export type PageLimits = { readonly kind: 'offset'; readonly defaultLimit: number; readonly maxLimit: number } | { readonly kind: 'unpaginated' };

export interface ResourceDefinition extends ResourceHooks {
  /** Dasherized path segment: `library-entries`. */
  readonly collection: string;
  /** camelCase plural JSON:API type: `libraryEntries`. */
  readonly type: string;
  /** Human singular for messages: `library entry`. */
  readonly singular: string;
  /**
   * `standard`: set C; `read-only`: GET only (the spec's read-only set, and
   * types reached only through relationships); `none`: rendered but no route.
   */
  readonly routes: 'standard' | 'read-only' | 'none';
  readonly attributes: Readonly<Record<string, AttributeSpec>>;
  readonly relationships: Readonly<Record<string, RelationshipSpec>>;
  readonly filters: Readonly<Record<string, FilterSpec>>;
  /** Sortable member names (id and sortable attributes). */
  readonly sortable: readonly string[];
  readonly page: PageLimits;
  readonly policy: Policy;
  /** The to-one relationship naming the owning user (ownerOnly attributes, default owner on create). */
  readonly owner?: string;
  /** The index answers 400 "No filter provided" without any filter (library entries). */
  readonly requiresFilter?: boolean;
  /** Extra collection meta computed from the filtered records (statusCounts). */
  readonly collectionMeta?: (records: readonly MediaRecord[]) => Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// Attributes

const w = (spec: AttributeSpec, extra: Partial<AttributeSpec>): AttributeSpec => ({ ...spec, ...extra });

export const attr = {
  string: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'string', maxLength: 20_000 }, extra),
  integer: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'integer' }, extra),
  number: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'number' }, extra),
  /** A number written as a string, as `averageRating: "88.54"`. */
  decimal: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'decimal' }, extra),
  boolean: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'boolean' }, extra),
  date: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'date' }, extra),
  datetime: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'datetime' }, extra),
  object: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'object' }, extra),
  strings: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'stringArray' }, extra),
  enum: (values: readonly string[], extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'enum', values }, extra),
  json: (extra: Partial<AttributeSpec> = {}): AttributeSpec => w({ kind: 'json' }, extra),
};

// ---------------------------------------------------------------------------
// Relationships

export const rel = {
  one: (target: string | readonly string[], extra: Partial<Omit<Extract<RelationshipSpec, { kind: 'one' }>, 'kind'>> = {}): RelationshipSpec => ({
    kind: 'one',
    target,
    ...extra,
  }),
  /** A to-many relationship read from the target's to-one `inverse`. */
  inverse: (target: string | readonly string[], inverse: string): RelationshipSpec => ({ kind: 'many', target, inverse }),
  /** A to-many relationship stored on the record. */
  many: (target: string | readonly string[], extra: Partial<Omit<Extract<RelationshipSpec, { kind: 'many' }>, 'kind'>> = {}): RelationshipSpec => ({
    kind: 'many',
    target,
    ...extra,
  }),
  deprecated: (replacedBy: string | null): RelationshipSpec => ({ kind: 'deprecated', replacedBy }),
};

/** The types a relationship may point at. */
export function targetTypes(spec: RelationshipSpec): readonly string[] {
  if (spec.kind === 'deprecated') return [];
  return typeof spec.target === 'string' ? [spec.target] : spec.target;
}

// ---------------------------------------------------------------------------
// Filters

const NUMERIC_ID = /^\d{1,30}$/;
// Kitsu's NUMERIC_RANGE: `80`, `80..`, `..90`, `80..90`, `80...90` (exclusive end).
const NUMERIC_RANGE = /^(\d+(?:\.\d+)?)?(\.{2,3})?(\d+(?:\.\d+)?)?$/;

function numericValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** Whether `value` falls in a range token such as `80..`. */
export function inRange(value: number | undefined, token: string): boolean {
  const match = NUMERIC_RANGE.exec(token);
  if (!match || value === undefined) return false;
  const [, low, dots, high] = match;
  if (!dots) return low !== undefined && value === Number(low);
  if (low !== undefined && value < Number(low)) return false;
  if (high !== undefined && (dots === '...' ? value >= Number(high) : value > Number(high))) return false;
  return true;
}

function isRangeToken(token: string): boolean {
  const match = NUMERIC_RANGE.exec(token);
  return match !== null && (match[1] !== undefined || match[3] !== undefined);
}

export const filter = {
  /** Equality on an attribute; `values` restricts the accepted tokens (enum). */
  attribute: (name: string, values?: readonly string[]): FilterSpec => ({
    values: 'other',
    ...(values ? { accepts: (token: string) => values.includes(token) } : {}),
    match: (record, tokens) => {
      const value = record.attributes[name];
      return tokens.some((token) => (token === null ? value === null || value === undefined : String(value) === token));
    },
  }),
  boolean: (name: string): FilterSpec => ({
    values: 'other',
    accepts: (token) => token === 'true' || token === 'false',
    match: (record, tokens) => tokens.some((token) => (token === null ? record.attributes[name] == null : record.attributes[name] === (token === 'true'))),
  }),
  /** Numeric ranges (`80..`) or exact numbers on an attribute, or on a derived number. */
  range: (read: string | ((record: MediaRecord) => number | undefined)): FilterSpec => ({
    values: 'other',
    accepts: isRangeToken,
    match: (record, tokens) => {
      const value = typeof read === 'string' ? numericValue(record.attributes[read]) : read(record);
      return tokens.some((token) => (token === null ? value === undefined : inRange(value, token)));
    },
  }),
  /** The id of a to-one relationship (`filter[userId]=1`); `_none` matches no relationship. */
  ref: (relationship: string): FilterSpec => ({
    values: 'id',
    match: (record, tokens) => {
      const target = storedOne(record, relationship);
      return tokens.some((token) => (token === null ? target === null : target?.id === token));
    },
  }),
  /** The type of a polymorphic to-one relationship (`filter[mediaType]=Anime`). */
  refType: (relationship: string, types: readonly string[]): FilterSpec => ({
    values: 'other',
    accepts: (token) => types.includes(token.toLowerCase()),
    match: (record, tokens) => tokens.some((token) => storedOne(record, relationship)?.type === token?.toLowerCase()),
  }),
  /** Case- and accent-insensitive substring search over some texts of the record. */
  text: (texts: (record: MediaRecord) => readonly unknown[]): FilterSpec => ({
    values: 'other',
    match: (record, tokens) => {
      const haystack = foldText(
        texts(record)
          .filter((text): text is string => typeof text === 'string')
          .join('\n'),
      );
      const needle = foldText(tokens.filter((token): token is string => token !== null).join(' ')).trim();
      return needle.split(/\s+/).every((word) => haystack.includes(word));
    },
  }),
  custom: (spec: FilterSpec): FilterSpec => spec,
};

export function isNumericId(token: string): boolean {
  return NUMERIC_ID.test(token);
}

// ---------------------------------------------------------------------------
// Policies

const nobody: PolicyCheck = () => false;
const everyone: PolicyCheck = () => true;
const admin: PolicyCheck = (viewer) => viewer.isAdmin;

/** The viewer is the user a to-one relationship names (or an admin). */
export function ownerIs(relationship: string): PolicyCheck {
  return (viewer, record) => viewer.isAdmin || (viewer.user !== undefined && storedOne(record, relationship)?.id === viewer.user.id);
}

export function anyOf(...alternatives: PolicyCheck[]): PolicyCheck {
  return (viewer, record, state) => alternatives.some((check) => check(viewer, record, state));
}

/** The checks every policy may use as they are. */
export const checks = { nobody, everyone, admin };

export const policies = {
  /** Catalogue data: everyone reads, admins write (Kitsu's admin-only catalogue). */
  catalogue: (read: PolicyCheck = everyone): Policy => ({ read, create: admin, update: admin, destroy: admin }),
  /** Data a user owns: everyone reads (unless `read` says otherwise), the owner writes. */
  owned: (owner: string, read: PolicyCheck = everyone): Policy => ({ read, create: ownerIs(owner), update: ownerIs(owner), destroy: ownerIs(owner) }),
  /** Owned but never edited (likes, follows, votes): create and destroy only. */
  appendOnly: (owner: string, read: PolicyCheck = everyone): Policy => ({ read, create: ownerIs(owner), update: admin, destroy: ownerIs(owner) }),
  /** Private to the owner: the owner alone reads and writes. */
  private: (owner: string): Policy => ({ read: ownerIs(owner), create: ownerIs(owner), update: ownerIs(owner), destroy: ownerIs(owner) }),
  /** Served read-only: no writes reach a handler, but the policy still answers. */
  readOnly: (read: PolicyCheck = everyone): Policy => ({ read, create: nobody, update: nobody, destroy: nobody }),
};

// ---------------------------------------------------------------------------
// Bases (spec, "Inheritance")

export interface ResourceInput extends ResourceHooks {
  readonly collection: string;
  readonly type: string;
  readonly singular: string;
  readonly routes: ResourceDefinition['routes'];
  readonly bases?: readonly ResourceBase[];
  readonly attributes?: Readonly<Record<string, AttributeSpec>>;
  readonly relationships?: Readonly<Record<string, RelationshipSpec>>;
  readonly filters?: Readonly<Record<string, FilterSpec>>;
  readonly policy: Policy;
  readonly owner?: string;
  readonly requiresFilter?: boolean;
  readonly collectionMeta?: ResourceDefinition['collectionMeta'];
}

/** A reusable set of members: attributes, relationships and filters. */
export interface ResourceBase {
  readonly attributes?: Readonly<Record<string, AttributeSpec>>;
  readonly relationships?: Readonly<Record<string, RelationshipSpec>>;
  readonly filters?: Readonly<Record<string, FilterSpec>>;
}

/** Every resource: timestamps and the root filter `filter[id]` (media.jsonapi.filters: available everywhere). */
export const BASE_RESOURCE: ResourceBase = {
  attributes: { createdAt: attr.datetime({ sortable: true }), updatedAt: attr.datetime({ sortable: true }) },
  filters: {
    id: {
      values: 'id',
      match: (record, tokens) => tokens.some((token) => token === record.id),
    },
  },
};

/** Sluggable resources: `slug` and `filter[slug]`. */
export const SLUGGABLE: ResourceBase = {
  attributes: { slug: attr.string({ write: 'always', maxLength: 200 }) },
  filters: { slug: filter.attribute('slug') },
};

/** Whether a media record is adult-flagged (ageRating R18). */
export function isAdult(record: MediaRecord): boolean {
  return record.attributes['ageRating'] === MEDIA_CONTRACT.adultAgeRating;
}

/** Pagination limits of a collection, from the contract's numbers. */
export function pageLimitsOf(collection: string): PageLimits {
  if (MEDIA_CONTRACT.unpaginatedCollections.includes(collection)) return { kind: 'unpaginated' };
  return { kind: 'offset', defaultLimit: MEDIA_CONTRACT.defaultLimit, maxLimit: MEDIA_CONTRACT.maxLimitByCollection[collection] ?? MEDIA_CONTRACT.maxLimit };
}

/** Builds a definition: bases first, then the resource's own members, in that order (as the real documents show them). */
export function defineResource(input: ResourceInput): ResourceDefinition {
  const layers: ResourceBase[] = [
    BASE_RESOURCE,
    ...(input.bases ?? []),
    { attributes: input.attributes, relationships: input.relationships, filters: input.filters },
  ];
  const attributes: Record<string, AttributeSpec> = {};
  const relationships: Record<string, RelationshipSpec> = {};
  const filters: Record<string, FilterSpec> = {};
  for (const layer of layers) {
    Object.assign(attributes, layer.attributes);
    Object.assign(relationships, layer.relationships);
    Object.assign(filters, layer.filters);
  }
  // createdAt/updatedAt come first in real documents only for some types; keep them first everywhere.
  const sortable = ['id', ...Object.entries(attributes).flatMap(([name, spec]) => (spec.sortable ? [name] : []))];
  return {
    collection: input.collection,
    type: input.type,
    singular: input.singular,
    routes: input.routes,
    attributes,
    relationships,
    filters,
    sortable,
    page: pageLimitsOf(input.collection),
    policy: input.policy,
    ...(input.owner ? { owner: input.owner } : {}),
    ...(input.requiresFilter ? { requiresFilter: true } : {}),
    ...(input.collectionMeta ? { collectionMeta: input.collectionMeta } : {}),
    ...(input.prepare ? { prepare: input.prepare } : {}),
    ...(input.validate ? { validate: input.validate } : {}),
    ...(input.beforeSave ? { beforeSave: input.beforeSave } : {}),
    ...(input.afterCreate ? { afterCreate: input.afterCreate } : {}),
  };
}
