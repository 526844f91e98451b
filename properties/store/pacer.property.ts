/**
 * The typed client's pacer as a property (store.client.paces-to-bucket): for
 * any sequence of call groups (a pause, then some calls at once) on a bucket
 * that starts empty, no call is refused with 429, and no call leaves later
 * than the reference model says it could have. On the twin, where the pacer's
 * sleeps move the store's virtual clock.
 */
import fc from 'fast-check';
import type { Exchange } from '../../src/clients/store/types.ts';
import { ModelBucket } from './bucketModel.ts';
import { bucketOfPlan, type PlanBucket, type StorePlan } from '../../src/rules/storeContract.ts';
import type { StoreArena } from '../support/storeArena.ts';

export interface CallGroup {
  readonly pauseMs: number;
  readonly calls: number;
}

/** Groups of up to a seventh of the bucket (6 calls on the standard plan), so about seven back to back fill it. */
const groupArbitrary = (plan: PlanBucket): fc.Arbitrary<CallGroup> =>
  fc.record({
    // Mostly back to back, so the bucket fills; sometimes a pause that drains part of it.
    pauseMs: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 4_000 }), weight: 1 }),
    calls: fc.integer({ min: 1, max: Math.ceil(plan.bucketSize / 7) }),
  });

/**
 * The property: a case's groups run one after another on a fresh twin store. Kept in one piece: the model bucket
 * takes each call as it left, so every call's earliest moment depends on all the calls checked before it.
 */
export function pacerProperty(arena: StoreArena, planName: StorePlan = 'standard'): fc.IAsyncProperty<[CallGroup[]]> {
  const plan = bucketOfPlan(planName);
  return fc.asyncProperty(fc.array(groupArbitrary(plan), { minLength: 1, maxLength: 25 }), async (groups) => {
    const store = await arena.openTwinStore({ products: 1, plan: planName });
    try {
      const exchanges: Exchange[] = [];
      const client = store.client({ pace: true, onExchange: (exchange) => exchanges.push(exchange) });
      const start = store.clock.now();
      const model = new ModelBucket(start, 0, 0, plan);
      let leftAt = start;
      for (const [g, group] of groups.entries()) {
        await store.clock.sleep(group.pauseMs);
        const issuedAt = store.clock.now();
        exchanges.length = 0;
        const answers = await Promise.all(
          Array.from({ length: group.calls }, () => client.send({ method: 'GET', path: '/products', query: { per_page: 1 }, retry: false })),
        );
        const refused = answers.filter((res) => res.status === 429).length;
        if (refused > 0) {
          throw new Error(
            `[store.client.paces-to-bucket] group ${g + 1} (${group.calls} calls after ${group.pauseMs} ms): ${refused} paced call(s) answered 429 from a bucket the client has filled alone since it was empty.`,
          );
        }
        const other = answers.find((res) => res.status !== 200);
        if (other) throw new Error(`[store.client.paces-to-bucket] group ${g + 1}: a paced call answered ${other.status}, expected 200.`);
        // The calls of a group leave one after the other; each may leave once the model's bucket has room.
        for (const [i, exchange] of [...exchanges].sort((a, b) => a.startedAt - b.startedAt).entries()) {
          const from = Math.max(issuedAt, leftAt);
          const earliest = from + model.waitToFit(from);
          if (exchange.startedAt > earliest) {
            throw new Error(
              `[store.client.paces-to-bucket] group ${g + 1}, call ${i + 1}: left at +${exchange.startedAt - start} ms, but the model's bucket had room at +${earliest - start} ms: the pacer waited ${exchange.startedAt - earliest} ms longer than it must.`,
            );
          }
          model.request(exchange.startedAt);
          leftAt = exchange.startedAt;
        }
      }
    } finally {
      await store.close();
    }
  });
}
