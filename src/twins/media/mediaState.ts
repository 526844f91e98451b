import { VirtualClock, systemClock, type Clock } from '../../clock/Clock.ts';
import { type MediaRecord, type SeedTarget, type StoredLink } from './model.ts';
import { seedMediaData, SEED_CLOCK_START_MS } from './seed.ts';
import { TokenStore } from './tokens.ts';
import { RenderCache } from '../serving/renderCache.ts';
import type { MediaTwinBreak } from './twinBreaks.ts';

export type ClockMode = 'real' | 'virtual';

/** Read and seen marks of one user on one activity group. */
export interface FeedMark {
  read: boolean;
  seen: boolean;
}

/**
 * Every record of one running twin, by type, in id order, plus the issued
 * tokens and the clock.
 */
export class MediaState implements SeedTarget {
  readonly clockMode: ClockMode;
  readonly clock: Clock;
  /** A deliberate break (twinBreaks.ts): only tests that prove the properties can fail set one. */
  readonly twinBreak: MediaTwinBreak | undefined;
  readonly tokens = new TokenStore();
  /** Rendered resource objects until the next write (server.ts empties it around every request that is not a GET). */
  readonly rendered = new RenderCache<MediaRecord>();
  /** `${userId}|${activityGroupId}` → marks. */
  readonly feedMarks = new Map<string, FeedMark>();
  readonly #tables = new Map<string, Map<string, MediaRecord>>();
  readonly #nextIds = new Map<string, number>();

  constructor(clockMode: ClockMode, twinBreak?: MediaTwinBreak) {
    this.clockMode = clockMode;
    this.twinBreak = twinBreak;
    this.clock = clockMode === 'virtual' ? new VirtualClock(SEED_CLOCK_START_MS) : systemClock;
    this.reset();
  }

  /** Back to the seed: data, issued tokens, feed marks and a virtual clock. */
  reset(): void {
    this.#tables.clear();
    this.#nextIds.clear();
    this.feedMarks.clear();
    this.tokens.clear();
    if (this.clock instanceof VirtualClock) this.clock.set(SEED_CLOCK_START_MS);
    seedMediaData(this);
  }

  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  put(
    type: string,
    id: string,
    attributes: Record<string, unknown>,
    links: Record<string, StoredLink> = {},
    secrets: Record<string, string> = {},
  ): MediaRecord {
    const record: MediaRecord = { type, id, attributes, links, secrets };
    this.#table(type).set(id, record);
    if (/^\d+$/.test(id)) this.#nextIds.set(type, Math.max(this.#nextIds.get(type) ?? 1, Number(id) + 1));
    return record;
  }

  /** The id the next `create` of a type will get. */
  peekId(type: string): string {
    return String(this.#nextIds.get(type) ?? 1);
  }

  /** Stores a new record with the next id of its type and both timestamps at now. */
  create(type: string, attributes: Record<string, unknown>, links: Record<string, StoredLink>, secrets: Record<string, string> = {}): MediaRecord {
    const id = this.peekId(type);
    const now = this.nowIso();
    return this.put(type, id, { ...attributes, createdAt: now, updatedAt: now }, links, secrets);
  }

  get(type: string, id: string): MediaRecord | undefined {
    return this.#tables.get(type)?.get(id);
  }

  /** Records of a type in id order (insertion order is id order: the seed and `create` count up). */
  all(type: string): MediaRecord[] {
    return [...(this.#tables.get(type)?.values() ?? [])];
  }

  remove(type: string, id: string): boolean {
    return this.#tables.get(type)?.delete(id) ?? false;
  }

  #table(type: string): Map<string, MediaRecord> {
    let table = this.#tables.get(type);
    if (!table) {
      table = new Map();
      this.#tables.set(type, table);
    }
    return table;
  }
}
