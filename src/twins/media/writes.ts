/**
 * Creates and updates: the record as it would be stored (a draft), its 422
 * checks (types, required members, targets that exist, the resource's own
 * rules) and the save.
 */
import { activityFor, addActivity } from './activities.ts';
import { isJsonObject } from '../serving/requestBody.ts';
import type { ValidationIssue } from './jsonapi/errors.ts';
import type { ResourceWrite } from './jsonapi/requestDocument.ts';
import type { MediaState } from './mediaState.ts';
import { refOf, type MediaRecord, type Ref, type StoredLink, type Viewer } from './model.ts';
import type { AttributeSpec, Draft, ResourceDefinition, WriteContext } from './resources/define.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

function isValidDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** The record a create or update would store: defaults, then the previous values, then what the client wrote. */
export function buildDraft(definition: ResourceDefinition, write: ResourceWrite, previous: MediaRecord | undefined, viewer: Viewer): Draft {
  const attributes: Record<string, unknown> = {};
  const secrets: Record<string, string> = { ...previous?.secrets };
  const links: Record<string, StoredLink> = {};
  if (previous) {
    Object.assign(attributes, structuredClone(previous.attributes));
    for (const [name, value] of Object.entries(previous.links)) links[name] = Array.isArray(value) ? [...value] : value;
  } else {
    for (const [name, spec] of Object.entries(definition.attributes)) {
      if (spec.default !== undefined && !spec.compute) attributes[name] = structuredClone(spec.default);
    }
    // The owner defaults to the viewer: `POST /library-entries` without a user is the viewer's entry.
    if (definition.owner && definition.owner !== '$self' && !write.relationships.has(definition.owner) && viewer.user) {
      links[definition.owner] = refOf(viewer.user);
    }
  }
  for (const [name, value] of write.attributes) {
    if (definition.attributes[name]?.writeOnly) {
      if (typeof value === 'string') secrets[name] = value;
      else attributes[name] = value; // checked (and dropped) by validation
    } else {
      attributes[name] = value;
    }
  }
  for (const [name, value] of write.relationships) links[name] = value;
  const draft: Draft = { id: previous?.id, attributes, links, secrets, written: new Set([...write.attributes.keys(), ...write.relationships.keys()]) };
  definition.prepare?.(draft);
  return draft;
}

/** The draft seen as a record, for policies. */
export function draftRecord(definition: ResourceDefinition, draft: Draft): MediaRecord {
  return { type: definition.type, id: draft.id ?? '', attributes: draft.attributes, links: draft.links, secrets: draft.secrets };
}

// Stored values are rendered again on every read: keep them shallow enough to serialise.
const MAX_NESTING = 16;

function nestingOf(value: unknown, depth = 0): number {
  if (depth > MAX_NESTING || typeof value !== 'object' || value === null) return depth;
  let deepest = depth;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, nestingOf(child, depth + 1));
    if (deepest > MAX_NESTING) break;
  }
  return deepest;
}

function attributeIssue(spec: AttributeSpec, value: unknown): string | undefined {
  if (value === null) return spec.nullable === false ? "can't be blank" : undefined;
  if (nestingOf(value) > MAX_NESTING) return `is nested too deeply (at most ${MAX_NESTING} levels)`;
  switch (spec.kind) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (spec.maxLength !== undefined && value.length > spec.maxLength) return `is too long (maximum is ${spec.maxLength} characters)`;
      return undefined;
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'is not a number';
      if (spec.kind === 'integer' && !Number.isInteger(value)) return 'must be an integer';
      if (spec.min !== undefined && value < spec.min) return `must be greater than or equal to ${spec.min}`;
      if (spec.max !== undefined && value > spec.max) return `must be less than or equal to ${spec.max}`;
      return undefined;
    case 'decimal':
      return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? undefined : 'is not a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'date':
      return typeof value === 'string' && isValidDate(value) ? undefined : 'is not a valid date (YYYY-MM-DD)';
    case 'datetime':
      return typeof value === 'string' && DATETIME.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'is not a valid date-time (ISO 8601)';
    case 'object':
      return isJsonObject(value) ? undefined : 'must be an object';
    case 'stringArray':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? undefined : 'must be a list of strings';
    case 'enum':
      return typeof value === 'string' && (spec.values ?? []).includes(value) ? undefined : 'is not included in the list';
    case 'json':
      return undefined;
  }
}

function refs(value: StoredLink | undefined): Ref[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** Every 422 issue of a draft (media.writes.validation-422): written values, required members on create, targets that exist, then the resource's own checks. */
export function validateDraft(definition: ResourceDefinition, draft: Draft, context: WriteContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const name of draft.written) {
    const spec = definition.attributes[name];
    if (!spec) continue;
    // A write-only value that is not a string stays in attributes (buildDraft): check it, not the secret an update kept.
    const value = spec.writeOnly && !Object.hasOwn(draft.attributes, name) ? draft.secrets[name] : draft.attributes[name];
    const message = attributeIssue(spec, value);
    if (message) issues.push({ field: name, message });
  }
  if (context.action === 'create') {
    for (const [name, spec] of Object.entries(definition.attributes)) {
      if (!spec.required || issues.some((issue) => issue.field === name)) continue;
      const value = spec.writeOnly ? draft.secrets[name] : draft.attributes[name];
      if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) issues.push({ field: name, message: "can't be blank" });
    }
    for (const [name, spec] of Object.entries(definition.relationships)) {
      if (spec.kind === 'one' && spec.required && !draft.links[name]) issues.push({ field: name, message: 'must exist', relationship: true });
    }
  }
  for (const name of draft.written) {
    if (!definition.relationships[name]) continue;
    if (refs(draft.links[name]).some((ref) => !/^\d+$/.test(ref.id) || context.state.get(ref.type, ref.id) === undefined)) {
      issues.push({ field: name, message: 'must exist', relationship: true });
    }
  }
  if (issues.length > 0) return issues;
  return definition.validate ? definition.validate(draft, context) : [];
}

/** Normalizes written values for storage: date-times in ISO form (UTC, milliseconds). */
function normalize(definition: ResourceDefinition, draft: Draft): void {
  for (const name of draft.written) {
    const spec = definition.attributes[name];
    const value = draft.attributes[name];
    if (spec?.kind === 'datetime' && typeof value === 'string') draft.attributes[name] = new Date(value).toISOString();
    if (spec?.writeOnly) delete draft.attributes[name];
  }
}

/**
 * Stores a checked draft: a new record with the next id, or the updated record with a new updatedAt, so a
 * later read shows what was written (media.writes.create-destroy-applied, media.writes.update-applied). A create adds one
 * record with the links posted (media.writes.create-adds-one, media.writes.create-linkage-as-sent); an update keeps what
 * it was not sent and createdAt (media.writes.update-keeps-the-rest). Nothing is stored before the draft was checked, so a
 * refused write changes nothing (media.writes.refused-changes-nothing).
 */
export function saveDraft(state: MediaState, definition: ResourceDefinition, draft: Draft, context: WriteContext): MediaRecord {
  normalize(definition, draft);
  definition.beforeSave?.(draft, context);
  for (const [name, spec] of Object.entries(definition.attributes)) if (spec.compute) delete draft.attributes[name];
  if (!context.previous) {
    const record = state.create(definition.type, draft.attributes, draft.links, draft.secrets);
    definition.afterCreate?.(record, context);
    const activity = activityFor(record);
    if (activity) addActivity(state, activity);
    return record;
  }
  const record = context.previous;
  record.attributes = { ...draft.attributes, createdAt: record.attributes['createdAt'], updatedAt: state.nowIso() };
  record.links = draft.links;
  record.secrets = draft.secrets;
  return record;
}
