import type { ErrorObject } from 'ajv/dist/2020.js';
import { schemaRegistry } from './schemaRegistry.ts';

/** One way a value breaks a schema, readable on its own. */
export interface SchemaIssue {
  /**
   * JSON Pointer to what is wrong ('' is the root). For a bad key it points at
   * that key; for a missing member, at where the member should be.
   */
  readonly path: string;
  /** What is wrong, with the value seen: `must match the contract timestamp format ... (got "...")`. */
  readonly message: string;
  /** The JSON Schema keyword that failed (`pattern`, `type`, `required`, ...). */
  readonly keyword: string;
  /** Where in the schema it failed, as Ajv reports it. */
  readonly schemaPath: string;
}

export interface ValidationResult {
  readonly valid: boolean;
  readonly errors: SchemaIssue[];
}

/**
 * Validates `data` against the schema named `schemaId` (`store/category`: the file
 * contracts/store/schemas/category.schema.json). Throws if no such schema exists.
 */
export function validate(schemaId: string, data: unknown): ValidationResult {
  const validator = schemaRegistry().compile(schemaId);
  const valid = validator(data) === true;
  return { valid, errors: valid ? [] : toIssues(validator.errors ?? []) };
}

/** One line per issue, `<path>: <message>`, the root shown as `(root)`. Empty when there are none. */
export function formatIssues(errors: readonly SchemaIssue[]): string {
  return errors.map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`).join('\n');
}

/** Turns Ajv's errors into issues: one per fault, wrapper errors folded into the error they wrap. */
function toIssues(errors: readonly ErrorObject[]): SchemaIssue[] {
  const alternatives = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // propertyNames: the inner error already names the key.
    if (error.keyword === 'propertyNames') continue;
    // anyOf/oneOf: its own error says what was expected; the failures of each branch are noise.
    if (alternatives.some((alt) => alt !== error && error.schemaPath.startsWith(`${alt.schemaPath}/`))) continue;
    const issue = toIssue(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/**
 * One schema error as a path and a message. One switch, one case per Ajv keyword: side by side they show how each
 * keyword is worded (kept whole for that), and the propertyNames step after them applies to every case.
 */
function toIssue(error: ErrorObject): SchemaIssue {
  const params = error.params as Record<string, unknown>;
  const title = titleOf(error.parentSchema);
  const got = `(got ${describe(error.data)})`;
  let path = error.instancePath;
  let message: string;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      path = `${path}/${escapePointer(missing)}`;
      const required = Array.isArray(error.schema) ? ` (${title ?? 'the object'} requires ${error.schema.join(', ')})` : '';
      message = `required member is missing${required}`;
      break;
    }
    case 'type': {
      const types = Array.isArray(error.schema) ? error.schema.join(' or ') : String(params.type);
      message = `must be ${title ?? types} ${got}`;
      break;
    }
    case 'pattern':
      message = `must match ${title ?? `pattern ${String(params.pattern)}`} (got ${JSON.stringify(error.data)})`;
      break;
    case 'format':
      message = `must be a valid ${String(params.format)} ${got}`;
      break;
    case 'minProperties':
    case 'minItems': {
      const unit = error.keyword === 'minItems' ? 'item' : 'member';
      const limit = Number(params.limit);
      message = `must have at least ${limit} ${unit}${limit === 1 ? '' : 's'}${title ? `: ${title}` : ''} ${got}`;
      break;
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      path = `${path}/${escapePointer(extra)}`;
      message = `member is not allowed${title ? ` in ${title}` : ''}`;
      break;
    }
    case 'not':
      message = `must not be ${titleOf(error.schema) ?? 'valid against the "not" schema'} ${got}`;
      break;
    case 'anyOf':
    case 'oneOf':
      message = `must be ${title ?? `valid against ${error.keyword === 'anyOf' ? 'at least one' : 'exactly one'} of its alternatives`} ${got}`;
      break;
    case 'enum':
      message = `must be one of ${JSON.stringify(params.allowedValues)} ${got}`;
      break;
    case 'const':
      message = `must be ${JSON.stringify(params.allowedValue)} ${got}`;
      break;
    default:
      message = `${error.message ?? `fails ${error.keyword}`} ${got}`;
  }
  // A propertyNames failure is about a key, not a value: point at the key.
  if (error.propertyName !== undefined) {
    path = `${error.instancePath}/${escapePointer(error.propertyName)}`;
    message = `key ${message}`;
  }
  return { path, message, keyword: error.keyword, schemaPath: error.schemaPath };
}

function titleOf(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const title = (schema as { title?: unknown }).title;
  return typeof title === 'string' ? title : undefined;
}

const PREVIEW_LENGTH = 80;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  const kind = Array.isArray(value) ? 'array' : typeof value;
  let text = JSON.stringify(value) ?? String(value);
  if (text.length > PREVIEW_LENGTH) text = `${text.slice(0, PREVIEW_LENGTH - 1)}…`;
  return `${kind} ${text}`;
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
