/**
 * The declared layering (LAYERS in eslint.config.js) refuses what it says it
 * refuses: each sample file below, linted as if it lived where its path says,
 * breaks one line of the table, and `npm run lint` would fail on it. A sample
 * that keeps to its layer passes, so the rules are not simply refusing everything.
 */
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function problemsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, filePath) });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const SAMPLES: { file: string; code: string; refused: RegExp }[] = [
  { file: 'src/http/sample.ts', code: "import { x } from '../../suites/fixtures/storeChecks.ts';\nvoid x;\n", refused: /src\/\*\* may not import from suites/ },
  { file: 'src/testing/sample.ts', code: "import { x } from '../../tests/unit/support/x.ts';\nvoid x;\n", refused: /may not import from .*tests/ },
  { file: 'src/reporting/sample.ts', code: "import { x } from '../../scripts/lib/runTool.ts';\nvoid x;\n", refused: /may not import from .*scripts/ },
  { file: 'src/config/sample.ts', code: "import { x } from '../recording/cassette.ts';\nvoid x;\n", refused: /imports nothing above its own folder/ },
  { file: 'suites/store/sample.spec.ts', code: "import { x } from '../../tests/unit/support/x.ts';\nvoid x;\n", refused: /may not import from tests/ },
  {
    file: 'contracts/verification/sample.ts',
    code: "import { x } from '../../scripts/lib/runTool.ts';\nvoid x;\n",
    refused: /may not import from tests, scripts/,
  },
  {
    file: 'scripts/sample.ts',
    code: "import { x } from '../tests/unit/support/x.ts';\nvoid x;\n",
    refused: /scripts\/\*\*, bench\/\*\* may not import from tests/,
  },
  {
    file: 'playwright.config.sample.ts',
    code: "import { x } from './properties/support/propertyRun.ts';\nvoid x;\n",
    refused: /may not import from suites, properties/,
  },
];

for (const { file, code, refused } of SAMPLES) {
  test(`the layering refuses ${file} importing ${/'([^']+)'/.exec(code)![1]}`, async () => {
    const problems = await problemsOf(file === 'playwright.config.sample.ts' ? 'playwright.config.ts' : file, code);
    expect(problems.join('\n')).toMatch(refused);
  });
}

test('the environment is read in src/config only: a read anywhere else fails the lint, naming the fix', async () => {
  for (const file of ['src/testing/sample.ts', 'suites/store/sample.spec.ts', 'scripts/sample.ts', 'playwright.config.ts']) {
    expect((await problemsOf(file, 'export const x = process.env.HARNESS_TARGET;\n')).join('\n'), file).toMatch(/Read the environment in src\/config only/);
  }
  expect(await problemsOf('src/config/sample.ts', 'export const x = process.env.HARNESS_TARGET;\n')).toEqual([]);
  expect(await problemsOf('src/testing/sample.ts', "import { targetName } from '../config/env.ts';\nexport const x = targetName();\n")).toEqual([]);
});

test('a file that keeps to its layer passes', async () => {
  expect(await problemsOf('src/testing/sample.ts', "import { x } from '../http/transport.ts';\nvoid x;\n")).toEqual([]);
  expect(await problemsOf('src/config/sample.ts', "import { x } from './harnessConfig.ts';\nvoid x;\n")).toEqual([]);
  expect(await problemsOf('suites/store/sample.spec.ts', "import { x } from '../../src/rules/storeRules.ts';\nvoid x;\n")).toEqual([]);
});

test("node:http's values come through src/http/nodeHttp.ts: an ES import of them fails the lint, a type import passes", async () => {
  for (const file of ['src/twins/sample.ts', 'contracts/verification/sample.ts', 'scripts/sample.ts']) {
    expect((await problemsOf(file, "import { createServer } from 'node:http';\nvoid createServer;\n")).join('\n'), file).toMatch(/src\/http\/nodeHttp\.ts/);
  }
  expect(await problemsOf('src/twins/sample.ts', "import type { Server } from 'node:http';\nexport type S = Server;\n")).toEqual([]);
  expect(await problemsOf('src/twins/sample.ts', "import { createServer } from '../http/nodeHttp.ts';\nvoid createServer;\n")).toEqual([]);
});
