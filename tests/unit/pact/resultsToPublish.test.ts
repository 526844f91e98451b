/**
 * What a broker run leaves for publishing is written while it verifies, under a name the merge does not read, and
 * named as left once the run has its last verdict (scripts/pactVerify.ts): a run that stops leaves nothing to
 * publish, not even what an earlier run left in the same folder.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { setProcessVariablesFor } from '../../../src/config/env.ts';
import {
  findLeftRuns,
  RESULTS_TO_PUBLISH,
  settleResultsToPublish,
  writeResultsToPublish,
  type ResultsToPublish,
} from '../../../contracts/broker/resultsToPublish.ts';

const LEFT: ResultsToPublish = {
  identity: { version: '0123456789ab+live.2026-11-29', branch: 'main', tags: ['live'], target: 'live', environment: 'production' },
  verifier: { version: '17.1.4' },
  pacts: [],
};

test("written unsettled, it is not what the run left until settled; an earlier run's is removed when the next one starts writing", () => {
  const reports = mkdtempSync(join(tmpdir(), 'to-publish-'));
  const putBack = setProcessVariablesFor({ HARNESS_REPORTS_DIR: reports });
  try {
    const earlier = writeResultsToPublish('nightly', LEFT);
    expect(findLeftRuns([reports]).map((run) => run.dir)).toEqual([dirname(earlier)]);

    const unsettled = writeResultsToPublish('nightly', LEFT, { unsettled: true });
    // While it verifies (and if it stops): nothing in the folder for the merge to publish.
    expect(existsSync(earlier)).toBe(false);
    expect(findLeftRuns([reports])).toEqual([]);

    const settled = settleResultsToPublish(unsettled);
    expect(settled).toBe(earlier);
    expect(readdirSync(dirname(settled)).filter((name) => name.startsWith(RESULTS_TO_PUBLISH))).toEqual([RESULTS_TO_PUBLISH]);
    expect(findLeftRuns([reports]).map((run) => run.left.identity.version)).toEqual([LEFT.identity.version]);
  } finally {
    putBack();
  }
});
