/**
 * Static: every pact the consumer tests wrote promises only what the JSON
 * Schemas allow. Runs after the pacts are written and before any provider is
 * verified, so a disagreement between the two shows up without a server.
 */
import { relative } from 'node:path';
import { expect, test } from '../src/testing/harnessTest.ts';
import { PACT_APIS, pactSchemaBreaches } from './pactSchemaCheck.ts';
import { readPact } from './verification/pactFile.ts';

for (const api of PACT_APIS) {
  test(`the ${api.name} pact promises nothing the ${api.name} schemas forbid`, async ({}, testInfo) => {
    const file = relative(process.cwd(), api.pactFile);
    const report = pactSchemaBreaches(readPact(api.pact), api.routes);

    // Interactions no schema covers pass unchecked: say which, rather than pass in silence.
    for (const line of report.notCovered) testInfo.annotations.push({ type: 'not-schema-checked', description: line });

    expect(
      report.breaches,
      `${report.breaches.length} interaction(s) of ${file} promise a body the ${api.name} schemas forbid. ` +
        `Fix the example or matcher in the consumer test (contracts/${api.name}/*.pact.spec.ts) so it follows the schema, ` +
        `or, if the contract allows the value, fix the schema under contracts/${api.name}/schemas/:\n\n${report.breaches.join('\n\n')}\n`,
    ).toEqual([]);
    // A check that validated nothing (a wrong base path, a renamed route) would pass vacuously.
    expect(report.checked.length, `no interaction of ${file} was checked against a schema:\n${report.notCovered.join('\n')}`).toBeGreaterThan(0);
  });
}
