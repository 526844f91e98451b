/**
 * Who sees what, and what a relationship points at: every read goes through
 * here, so hidden records (adult media, private entries) never leak through
 * a list, a count, a related route or an include.
 */
import type { MediaState } from './mediaState.ts';
import { refOf, storedMany, storedOne, type MediaRecord, type Ref, type Viewer } from './model.ts';
import { requireDefinition } from './registry.ts';
import type { RelationshipSpec } from './resources/define.ts';

/**
 * Everything about a viewer that what they may see depends on, as a cache key:
 * read policies, owner-only fields and hidden linkage read only these (and
 * the data, which a write invalidates the caches of).
 */
export function viewerKey(viewer: Viewer): string {
  return `${viewer.user?.id ?? ''}\u0000${viewer.isAdmin}\u0000${viewer.hidesAdult}`;
}

/** Whether the viewer may see a record (its definition's read policy). */
export function canRead(state: MediaState, viewer: Viewer, record: MediaRecord): boolean {
  return requireDefinition(record.type).policy.read(viewer, record, state);
}

/** What a relationship points at, before visibility: a Ref, null, or a list. */
export function linkageOf(state: MediaState, record: MediaRecord, name: string, spec: RelationshipSpec): Ref | null | Ref[] {
  switch (spec.kind) {
    case 'deprecated':
      return [];
    case 'one':
      return spec.resolve ? spec.resolve(record, state) : storedOne(record, name);
    case 'many': {
      if (spec.resolve) return spec.resolve(record, state);
      if (spec.inverse === undefined) return storedMany(record, name);
      const inverse = spec.inverse;
      const targets = typeof spec.target === 'string' ? [spec.target] : spec.target;
      return targets.flatMap((type) =>
        state
          .all(type)
          .filter((other) => {
            const back = storedOne(other, inverse);
            return back !== null && back.type === record.type && back.id === record.id;
          })
          .map(refOf),
      );
    }
  }
}

/** The records a relationship points at that the viewer may see: one (or null) for to-one, a list for to-many. */
export function visibleTargets(
  state: MediaState,
  viewer: Viewer,
  record: MediaRecord,
  name: string,
  spec: RelationshipSpec,
): MediaRecord | null | MediaRecord[] {
  const linkage = linkageOf(state, record, name, spec);
  const visible = (ref: Ref): MediaRecord | undefined => {
    const target = state.get(ref.type, ref.id);
    return target && canRead(state, viewer, target) ? target : undefined;
  };
  if (Array.isArray(linkage)) return linkage.flatMap((ref) => visible(ref) ?? []);
  return linkage ? (visible(linkage) ?? null) : null;
}

/** Linkage as a document shows it: hidden targets become null or are left out (media.visibility.adult-include-null). */
export function visibleLinkage(state: MediaState, viewer: Viewer, record: MediaRecord, name: string, spec: RelationshipSpec): Ref | null | Ref[] {
  const targets = visibleTargets(state, viewer, record, name, spec);
  if (Array.isArray(targets)) return targets.map(refOf);
  return targets ? refOf(targets) : null;
}

/** Whether the viewer owns a record: the user itself, or the user its owner relationship names. */
export function ownsRecord(viewer: Viewer, record: MediaRecord): boolean {
  if (viewer.isAdmin) return true;
  if (!viewer.user) return false;
  const owner = requireDefinition(record.type).owner;
  if (owner === '$self') return record.id === viewer.user.id;
  return owner !== undefined && storedOne(record, owner)?.id === viewer.user.id;
}
