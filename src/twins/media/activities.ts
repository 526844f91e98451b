/**
 * Activities: what the feeds show. The seed writes some; creating a post, a
 * comment, a like, a follow, a library entry or a group invite through the
 * API adds one, as the real service's stream does.
 */
import { randomUUID } from 'node:crypto';
import { refOf, storedOne, type MediaRecord, type Ref, type SeedTarget } from './model.ts';

export interface ActivityInput {
  readonly verb: string;
  readonly actor: Ref;
  readonly subject: Ref;
  readonly target?: Ref | null;
  readonly media?: Ref | null;
  readonly progress?: number | null;
  readonly time: string;
}

/** Model names as the stream's foreign ids write them (`Post:1`). */
const MODEL_NAMES: Readonly<Record<string, string>> = {
  posts: 'Post',
  comments: 'Comment',
  follows: 'Follow',
  postLikes: 'PostLike',
  commentLikes: 'CommentLike',
  libraryEntries: 'LibraryEntry',
  groupInvites: 'GroupInvite',
  mediaReactions: 'MediaReaction',
};

export function addActivity(state: SeedTarget, input: ActivityInput, id: string = randomUUID()): MediaRecord {
  return state.put(
    'activities',
    id,
    {
      createdAt: input.time,
      updatedAt: input.time,
      status: null,
      verb: input.verb,
      time: input.time,
      streamId: null,
      foreignId: `${MODEL_NAMES[input.subject.type] ?? input.subject.type}:${input.subject.id}`,
      rating: null,
      progress: input.progress ?? null,
      replyToType: null,
      replyToUser: null,
      nineteenScale: false,
      mentionedUsers: [],
    },
    { actor: input.actor, subject: input.subject, target: input.target ?? null, media: input.media ?? null, unit: null },
  );
}

/**
 * The activity a newly created record makes, if its type makes one. Kept whole, one switch: each case is the rule for one
 * type, and side by side they show which types make activities at all.
 */
export function activityFor(record: MediaRecord): ActivityInput | undefined {
  const time = String(record.attributes['createdAt']);
  const user = storedOne(record, 'user');
  switch (record.type) {
    case 'posts':
      return user
        ? {
            verb: 'post',
            actor: user,
            subject: refOf(record),
            target: storedOne(record, 'targetGroup') ?? storedOne(record, 'targetUser'),
            media: storedOne(record, 'media'),
            time,
          }
        : undefined;
    case 'comments': {
      const post = storedOne(record, 'post');
      return user && post ? { verb: 'comment', actor: user, subject: refOf(record), target: post, time } : undefined;
    }
    case 'postLikes': {
      const post = storedOne(record, 'post');
      return user && post ? { verb: 'like', actor: user, subject: refOf(record), target: post, time } : undefined;
    }
    case 'follows': {
      const follower = storedOne(record, 'follower');
      return follower ? { verb: 'follow', actor: follower, subject: refOf(record), target: storedOne(record, 'followed'), time } : undefined;
    }
    case 'libraryEntries': {
      const media = storedOne(record, 'media');
      return user && media
        ? { verb: 'updated', actor: user, subject: refOf(record), target: media, media, progress: Number(record.attributes['progress'] ?? 0), time }
        : undefined;
    }
    case 'groupInvites': {
      const sender = storedOne(record, 'sender');
      return sender ? { verb: 'invited', actor: sender, subject: refOf(record), target: storedOne(record, 'user'), time } : undefined;
    }
    default:
      return undefined;
  }
}
