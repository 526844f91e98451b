/**
 * What the Allure report shows about a test, worked out in one place from what
 * the test already says: the rules it is named after, its project and its file.
 * epic = the API, feature = the area of the spec, story = the rule; severity
 * from where the rule comes from; a link to the rule's section of the spec;
 * the target as a parameter (so a twin run and a replay of the same test keep
 * separate histories).
 */
import { CATALOGUES } from '../rules/catalogues.ts';
import type { Rule } from '../rules/Rule.ts';
import { ruleSpecLink } from './specLinks.ts';
import { processEnv } from '../config/env.ts';

export const API_EPICS: Readonly<Record<string, string>> = {
  store: 'Store Commerce API',
  media: 'Media Tracking API',
};
/** Tests of the harness itself (its unit tests), not of an API. */
export const HARNESS_EPIC = 'Harness (own tests)';

/** The area of a rule id (`<api>.<area>.<rule>`) as a QA engineer looks for it. */
export const AREA_FEATURES: Readonly<Record<string, string>> = {
  'store.auth': 'Authentication',
  'store.oauth': 'Authentication',
  'store.http': 'Requests and headers',
  'store.json': 'Response format',
  'store.timestamps': 'Response format',
  'store.versioning': 'Routes and versions',
  'store.headers': 'Localization',
  'store.localized': 'Localization',
  'store.pagination': 'Pagination',
  'store.ratelimit': 'Rate limiting',
  'store.errors': 'Errors',
  'store.suspension': 'Suspension',
  'store.webhooks': 'Webhooks',
  'store.categories': 'Resources',
  'store.products': 'Resources',
  'store.writes': 'Resources',
  'store.scope': 'Authentication',
  'store.client': 'Typed client',
  'store.storefront': 'Storefront script event',
  'media.auth': 'Authentication',
  'media.errors': 'Errors',
  'media.jsonapi': 'JSON:API documents',
  'media.pagination': 'Pagination',
  'media.relationships': 'Relationships',
  'media.routes': 'Routes',
  'media.special': 'Routes',
  'media.visibility': 'Adult content',
  'media.writes': 'Writes',
};

export const CONTRACTS_FEATURE = 'Contracts';
/** The target as a label too, so the report's categories can tell a twin run from a real provider's. */
export const TARGET_LABEL = 'target';
export const PROPERTIES_FEATURE = 'Properties';

export type Severity = 'blocker' | 'critical' | 'normal' | 'minor' | 'trivial';

/** Who a test is about, as the runner knows it. */
export interface TestIdentity {
  /** Playwright project name. */
  project: string;
  /** Test file, relative to the repository (forward slashes). */
  file: string;
  /** The test's own title. */
  title: string;
  /** Rule ids from the test's `rule` annotations. */
  ruleIds: readonly string[];
}

export interface AllureMeta {
  labels: { name: string; value: string }[];
  links: { name: string; url: string }[];
  parameters: { name: string; value: string }[];
  /** Markdown: what the rule says and where it comes from. */
  description?: string;
}

export function ruleOf(id: string): Rule | undefined {
  return CATALOGUES[id.split('.')[0]!]?.[id];
}

/** The feature of a rule; an area missing from AREA_FEATURES is a gap a unit test catches. */
export function featureOf(ruleId: string): string {
  const area = ruleId.split('.').slice(0, 2).join('.');
  return AREA_FEATURES[area] ?? area;
}

/** Contract and reliance rules are critical (they fail on every target); the twin's choices from the field notes are normal. */
export function severityOf(rule: Rule): Severity {
  return rule.source === 'field-notes' ? 'normal' : 'critical';
}

/** The API a test is about: its first rule's, else the `<api>` folder of its file. */
function apiOf(test: TestIdentity): string | undefined {
  const fromRule = test.ruleIds[0]?.split('.')[0];
  if (fromRule && API_EPICS[fromRule]) return fromRule;
  if (test.project === 'storefront') return 'store';
  const folder = test.file.split('/').find((part) => API_EPICS[part]);
  return folder;
}

/** What kind of check a project runs, as Allure's `layer`. */
function layerOf(project: string): string {
  if (project.startsWith('contracts')) return 'contract';
  if (project === 'properties') return 'property';
  if (project === 'storefront') return 'browser';
  if (project === 'unit') return 'unit';
  return 'api';
}

function describeRule(rule: Rule): string {
  const from =
    rule.source === 'contract'
      ? 'the contract'
      : rule.source === 'reliance'
        ? `what the harness relies on (${rule.reliedOnBy ?? 'the typed clients and the pacts'}), where the contract leaves it open`
        : "the field notes (the twin's choice where the contract says “not shown”)";
  const known = rule.knownDefect ? `\n\nKnown defect of the real service: ${rule.knownDefect.text}` : '';
  return `**${rule.id}**: ${rule.text}\n\nFrom ${from}, section “${rule.section}”.${known}`;
}

export function allureMetaFor(test: TestIdentity, target: string, env: NodeJS.ProcessEnv = processEnv()): AllureMeta {
  const rules = test.ruleIds.map(ruleOf).filter((rule): rule is Rule => rule !== undefined);
  const api = apiOf(test);
  const layer = layerOf(test.project);
  const labels: AllureMeta['labels'] = [
    { name: 'layer', value: layer },
    { name: TARGET_LABEL, value: target },
  ];

  if (test.project === 'unit' || !api) {
    // The harness's own tests: grouped by the folder under tests/unit (clients, recording, twins, ...).
    const folder = test.file.split('/').slice(2, -1).join('/') || 'general';
    labels.push({ name: 'epic', value: HARNESS_EPIC }, { name: 'feature', value: folder }, { name: 'story', value: test.file.split('/').pop()! });
    labels.push({ name: 'severity', value: 'minor' });
    return { labels, links: [], parameters: [{ name: 'target', value: target }] };
  }

  labels.push({ name: 'epic', value: API_EPICS[api]! });
  const feature = layer === 'contract' ? CONTRACTS_FEATURE : layer === 'property' ? PROPERTIES_FEATURE : undefined;
  const features = feature ? [feature] : [...new Set(rules.map((rule) => featureOf(rule.id)))];
  for (const value of features.length > 0 ? features : ['Other checks']) labels.push({ name: 'feature', value });
  // A pact interaction is its own story; a suite or property test tells the rule(s) it checks.
  const stories = rules.length > 0 && layer !== 'contract' ? rules.map((rule) => rule.id) : [test.title];
  for (const value of stories) labels.push({ name: 'story', value });
  const severities: Severity[] = rules.map(severityOf);
  labels.push({ name: 'severity', value: severities.includes('critical') || rules.length === 0 ? 'critical' : 'normal' });

  return {
    labels,
    links: rules.map((rule) => ruleSpecLink(rule, env)),
    parameters: [{ name: 'target', value: target }],
    ...(rules.length > 0 ? { description: rules.map(describeRule).join('\n\n') } : {}),
  };
}
