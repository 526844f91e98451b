/**
 * What drift reports: findings, per cassette and per API, and the stored
 * recordings that break the contract. A finding is a contract break (the fresh
 * answer breaks its route's JSON Schema, a contract header was lost, a status
 * moved to another class) or an observation (everything else).
 */
import type { NormalisationRules } from '../normalise.ts';
import type { RecordingApi } from '../cassette.ts';

export const DRIFT_FORMAT = 'harness-drift/1';

export type FindingKind = 'contract-break' | 'observation';

export type DriftChange =
  | 'cassette-added'
  | 'cassette-missing'
  | 'route-added'
  | 'route-removed'
  | 'status'
  | 'header-added'
  | 'header-removed'
  | 'header-changed'
  | 'field-added'
  | 'field-removed'
  | 'field-type'
  | 'field-value'
  | 'fields-omitted'
  | 'schema';

export interface DriftFinding {
  kind: FindingKind;
  change: DriftChange;
  /** `METHOD /path` of the interaction, normalised (ids as <id:n>); absent for a whole cassette. */
  route?: string;
  /** Position of the interaction (1-based) in the fresh cassette, or in the stored one when the route was removed. */
  interaction?: number;
  /** The header name or the JSON path of the field. */
  subject?: string;
  /** The stored and fresh values, as (shortened) JSON text. */
  stored?: string;
  fresh?: string;
  /** What changed, in one line. */
  message: string;
  /** Why it is a contract break: the schema message or the rule broken. */
  rule?: string;
  /** A hint for the reader, e.g. that a removed field came back under another name. */
  note?: string;
}

export interface CassetteDrift {
  suite: string;
  test: string;
  /** The cassette's path under the recordings root, without .raw.json / .json. */
  file: string;
  presence: 'both' | 'stored-only' | 'fresh-only';
  findings: DriftFinding[];
}

export interface ApiDrift {
  api: RecordingApi;
  storedCassettes: number;
  freshCassettes: number;
  /** Cassettes recorded on both sides. */
  compared: number;
  contractBreaks: number;
  observations: number;
  /** Only the cassettes with findings. */
  cassettes: CassetteDrift[];
}

/** A stored recorded answer that breaks its route's schema: a finding about the service as it was recorded. */
export interface RecordingBreach {
  api: RecordingApi;
  suite: string;
  test: string;
  file: string;
  interaction: number;
  route: string;
  status: number;
  schema?: string;
  /** As schemaBreaches words it: request line, status, schema, then one line per issue. */
  message: string;
}

export interface DriftReport {
  format: typeof DRIFT_FORMAT;
  generatedAt: string;
  storedRoot: string;
  freshRoot: string;
  /** A filtered fresh recording: cassettes it does not have were not compared. */
  freshOnly: boolean;
  contractBreaks: number;
  observations: number;
  apis: ApiDrift[];
  /** Stored recordings that break the contract (checkRecordings of the stored root). */
  storedBreaches: RecordingBreach[];
}

export interface DriftOptions {
  /** Rules per API; default contracts/<api>/normalisation.json. */
  rules?: Partial<Record<RecordingApi, NormalisationRules>>;
  /** Body field differences listed per interaction; the rest are counted (default 20). */
  maxFieldDifferences?: number;
  /** Compare only the cassettes the fresh recording has (a record run filtered to some tests). */
  freshOnly?: boolean;
  now?: Date;
}

export class DriftError extends Error {}
