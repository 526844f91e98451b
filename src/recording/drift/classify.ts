/**
 * How a fresh cassette differs from the stored one, as findings: interactions
 * paired in order by request line, then per pair the status, the headers and
 * the body, each difference classified as a contract break or an observation.
 */
import { requestLine, type Interaction } from '../cassette.ts';
import type { NormalisationRules } from '../normalise.ts';
import type { RouteSchemas } from '../../schemas/schemaBreaches.ts';
import type { DriftFinding } from './findings.ts';
import { diffJson, fieldMessage, jsonPath, pairInOrder, pointer, preview, renamedFields, type FieldDiff } from './jsonDiff.ts';
import type { Loaded } from './load.ts';
import { interactionBreach, schemaFindings, type InteractionBreach, type SchemaIssueLine } from './schemaCheck.ts';

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

interface Side {
  normalised: Interaction;
  /** The raw fresh interaction, for the schema check. */
  raw?: Interaction;
}

type Base = { route: string; interaction: number };

/** Another status is an observation; another status class (2xx → 4xx) is a contract break. */
function statusFindings(s: Interaction, f: Interaction, base: Base): DriftFinding[] {
  if (s.status === f.status) return [];
  const moved = statusClass(s.status) !== statusClass(f.status);
  return [
    {
      kind: moved ? 'contract-break' : 'observation',
      change: 'status',
      ...base,
      stored: String(s.status),
      fresh: String(f.status),
      message: `status ${s.status} → ${f.status}`,
      ...(moved ? { rule: `the status moved from ${statusClass(s.status)} to ${statusClass(f.status)}` } : {}),
    },
  ];
}

/** Headers added, changed or removed: observations, but a contract header removed is a break. */
function headerFindings(s: Interaction, f: Interaction, base: Base, rules: NormalisationRules): DriftFinding[] {
  const findings: DriftFinding[] = [];
  for (const name of [...new Set([...Object.keys(s.rawHeaders), ...Object.keys(f.rawHeaders)])].sort()) {
    const [sv, fv] = [s.rawHeaders[name], f.rawHeaders[name]];
    if (sv === fv) continue;
    if (sv === undefined) {
      findings.push({ kind: 'observation', change: 'header-added', ...base, subject: name, fresh: fv, message: `header ${name} added (${fv})` });
    } else if (fv === undefined) {
      const contract = rules.contractHeaders.includes(name);
      findings.push({
        kind: contract ? 'contract-break' : 'observation',
        change: 'header-removed',
        ...base,
        subject: name,
        stored: sv,
        message: `header ${name} removed (was ${sv})`,
        ...(contract
          ? { rule: `${name} is a contract header (contractHeaders of contracts/${rules.api}/normalisation.json): it must stay where it appeared` }
          : {}),
      });
    } else {
      findings.push({ kind: 'observation', change: 'header-changed', ...base, subject: name, stored: sv, fresh: fv, message: `header ${name}: ${sv} → ${fv}` });
    }
  }
  return findings;
}

/**
 * Body differences field by field: a difference is a contract break when a schema issue of the fresh
 * answer lies at it or inside it. The issues it accounts for are taken out of `unexplained`. (Longer
 * than most: classifying, folding enclosing issues in and capping share the list of differences.)
 */
function bodyFindings(
  s: Interaction,
  f: Interaction,
  base: Base,
  breach: InteractionBreach | undefined,
  unexplained: SchemaIssueLine[],
  maxFields: number,
): DriftFinding[] {
  const diffs: FieldDiff[] = [];
  diffJson(s.response, f.response, [], diffs);
  const renames = renamedFields(diffs);
  const classified = diffs.map((d) => {
    const at = pointer(d.segments);
    const issues = unexplained.filter((i) => i.pointer !== undefined && (i.pointer === at || i.pointer.startsWith(`${at}/`)));
    for (const i of issues) unexplained.splice(unexplained.indexOf(i), 1);
    const path = jsonPath(d.segments);
    const finding: DriftFinding = {
      kind: issues.length > 0 ? 'contract-break' : 'observation',
      change: d.op,
      ...base,
      subject: path,
      ...(d.op === 'field-added' ? {} : { stored: preview(d.stored) }),
      ...(d.op === 'field-removed' ? {} : { fresh: preview(d.fresh) }),
      message: fieldMessage(d, path),
      ...(issues.length > 0 ? { rule: issues.map((i) => `${breach?.schema ?? 'schema'}: ${i.pointer || '(root)'}: ${i.message}`).join('\n') } : {}),
      ...(renames.has(d) ? { note: renames.get(d) } : {}),
    };
    return finding;
  });
  // An issue about an enclosing member (`/data` is no list of resources) is the same break as the one found inside it: said once.
  for (const issue of [...unexplained]) {
    if (issue.pointer === undefined) continue;
    const inside = classified.find((c, n) => c.kind === 'contract-break' && pointer(diffs[n]!.segments).startsWith(`${issue.pointer}/`));
    if (!inside) continue;
    inside.rule = `${inside.rule}\n${breach?.schema ?? 'schema'}: ${issue.pointer || '(root)'}: ${issue.message}`;
    unexplained.splice(unexplained.indexOf(issue), 1);
  }
  // Contract breaks first, so the cap never hides one.
  const ordered = [...classified.filter((c) => c.kind === 'contract-break'), ...classified.filter((c) => c.kind === 'observation')];
  const shown = ordered.slice(0, maxFields);
  if (ordered.length > maxFields) {
    shown.push({ kind: 'observation', change: 'fields-omitted', ...base, message: `${ordered.length - maxFields} more body differences not listed` });
  }
  return shown;
}

function compareInteraction(stored: Side, fresh: Side, position: number, rules: NormalisationRules, routes: RouteSchemas, maxFields: number): DriftFinding[] {
  const route = requestLine(fresh.normalised);
  const [s, f] = [stored.normalised, fresh.normalised];
  const base = { route, interaction: position };
  const breach = fresh.raw ? interactionBreach(fresh.raw, routes) : undefined;
  const unexplained = [...(breach?.issues ?? [])];
  return [
    ...statusFindings(s, f, base),
    ...headerFindings(s, f, base, rules),
    // Another status means another kind of body: the status finding says it, a field-by-field list would only be noise.
    ...(s.status === f.status ? bodyFindings(s, f, base, breach, unexplained, maxFields) : []),
    ...schemaFindings(breach, unexplained, route, position),
  ];
}

/**
 * The findings of a cassette in the fresh recording's order: removed, paired and added interactions placed where they fall.
 * (Longer than most: the three kinds go on one timeline, keyed by the fresh recording's positions, and are sorted together.)
 */
export function compareCassettes(stored: Loaded, fresh: Loaded, rules: NormalisationRules, routes: RouteSchemas, maxFields: number): DriftFinding[] {
  const si = stored.normalised.interactions;
  const fi = fresh.normalised.interactions;
  const { pairs, removed, added } = pairInOrder(si.map(requestLine), fi.map(requestLine));
  const findings: DriftFinding[] = [];
  const events: { at: number; findings: DriftFinding[] }[] = [];
  for (const n of removed) {
    // Placed after the fresh interaction paired with the stored one before it, so the report reads in order.
    const before = pairs.filter(([a]) => a < n).at(-1);
    events.push({
      at: (before ? before[1] : -1) + 0.5,
      findings: [
        {
          kind: 'observation',
          change: 'route-removed',
          route: requestLine(si[n]!),
          interaction: n + 1,
          message: `no longer requested (stored interaction ${n + 1})`,
        },
      ],
    });
  }
  for (const [a, b] of pairs) {
    events.push({
      at: b,
      findings: compareInteraction({ normalised: si[a]! }, { normalised: fi[b]!, raw: fresh.raw?.interactions[b] }, b + 1, rules, routes, maxFields),
    });
  }
  for (const n of added) {
    const raw = fresh.raw?.interactions[n];
    const route = requestLine(fi[n]!);
    const breach = raw ? interactionBreach(raw, routes) : undefined;
    events.push({
      at: n,
      findings: [
        { kind: 'observation', change: 'route-added', route, interaction: n + 1, message: `newly requested, answered ${fi[n]!.status}` },
        ...schemaFindings(breach, breach?.issues ?? [], route, n + 1),
      ],
    });
  }
  // In the order of the fresh recording.
  for (const e of events.sort((x, y) => x.at - y.at)) findings.push(...e.findings);
  return findings;
}

/** Schema findings of a cassette only the fresh side has: its answers are held to the contract all the same. */
export function freshOnlyFindings(fresh: Loaded, routes: RouteSchemas): DriftFinding[] {
  const findings: DriftFinding[] = [{ kind: 'observation', change: 'cassette-added', message: 'recorded afresh only: a new test, or one not recorded before' }];
  fresh.raw?.interactions.forEach((raw, n) => {
    const breach = interactionBreach(raw, routes);
    findings.push(...schemaFindings(breach, breach?.issues ?? [], requestLine(fresh.normalised.interactions[n]!), n + 1));
  });
  return findings;
}
