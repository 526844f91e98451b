/**
 * A plan of outside pacts (outsidePacts.ts: a team's --pact files, or what a broker selected) verified in one
 * process: what `npx api-contract-harness pact-verify` waits for on every pull request, so no test runner starts
 * and no worker loads the harness again (verifyPlanProcess.ts runs it; scripts/pactVerify.ts starts the twins).
 * Each interaction goes through the same steps as under Playwright (verifyListed.ts); what it found goes to the
 * reports (planReports.ts). On live, several sandboxes are verified in lane processes instead (verifyInLanes.ts).
 */
import { outsideDeclarations } from './outsideDeclared.ts';
import { planSandboxes, type VerificationPlan } from './outsidePacts.ts';
import { PlanReports } from './planReports.ts';
import { verifySandboxes } from './verifySandboxes.ts';

/**
 * Verifies every interaction of the plan, each sandbox's pacts in order and the sandboxes side by side; 0 when each
 * was verified or skipped with its reason, 1 when one failed or the live budget was exceeded. `twinsReady` resolves
 * once the twins the plan needs answer (scripts/pactVerify.ts starts them beside this process while it loads);
 * `print` takes the console's lines.
 */
export async function runPactPlan(
  plan: VerificationPlan,
  run: string,
  options: { twinsReady: Promise<unknown>; print?: (line: string) => void },
): Promise<number> {
  const reports = new PlanReports(run, options.print);
  const declare = outsideDeclarations(plan);
  const { read, sandboxes } = planSandboxes(plan);
  await options.twinsReady;
  reports.begin(
    read.reduce((sum, pact) => sum + pact.count, 0),
    plan.pacts.length,
  );
  await verifySandboxes(sandboxes, (n) => ({ pact: plan.pacts[n]!, declared: declare(plan.pacts[n]!), read: read[n]! }), run, {
    verdict: (verdict, sandbox) => reports.add(verdict, sandbox),
    done: (sandbox, seconds) => reports.sandboxDone(sandbox, seconds),
  });
  return reports.end();
}
