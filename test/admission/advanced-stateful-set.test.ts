/**
 * The Advanced StatefulSet admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { Testing } from 'cdk8s';
import { AdvancedStatefulSet } from '../../src';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/advanced-stateful-set';
import { expectCase } from '../util/admission';

const KIND = 'StatefulSet';
const GROUP = 'apps.kruise.io';

/** A message the schema gives (`Kind "name" (apiVersion) field: ...`), or undefined for a rule's message. */
const schemaLine = (c: typeof cases[number]): string | undefined => {
  const prefix = `${KIND} "${c.manifest.metadata?.name}" (${c.manifest.apiVersion}) `;
  return c.message?.startsWith(prefix) ? c.message.slice(prefix.length) : undefined;
};

describe.each(cases.map(c => [c.id, c] as const))('%s', (_id, c) => {
  test('gets its verdict and exact message on the L1, raw and included-YAML paths', () => {
    expectCase(c);
  });

  test('passes the JSON schema, or fails it with the case\'s message when that is what it tests', () => {
    const issues = validateManifest(c.manifest).map(formatIssue);
    const line = schemaLine(c);
    if (line === undefined) expect(issues).toEqual([]);
    else expect(issues.some(i => i.startsWith(line))).toBe(true);
  });
});

test('the corpus covers every served version with a valid object, and explains every stricter or skipped case', () => {
  for (const apiVersion of servedVersions(GROUP, KIND)) {
    expect({ apiVersion, valid: cases.some(c => c.allowed && c.manifest.apiVersion === apiVersion) }).toEqual({ apiVersion, valid: true });
  }
  for (const c of cases) {
    expect(c.id.startsWith(`${KIND}/`)).toBe(true);
    expect(c.manifest.kind).toBe(KIND);
    if (!c.allowed) expect(c.message).toMatch(/\S/);
    // eslint-disable-next-line @stylistic/max-len
    if (c.stricter !== undefined) expect({ id: c.id, allowed: c.allowed, reason: c.stricter.length > 10 }).toEqual({ id: c.id, allowed: false, reason: true });
    if (c.clusterSkip !== undefined) expect(c.clusterSkip.length).toBeGreaterThan(10);
  }
  expect(new Set(cases.map(c => c.id)).size).toBe(cases.length);
});

describe('a container image with surrounding whitespace (the API server refuses every pod)', () => {
  test.each([' nginx:1.27', 'nginx:1.27 ', 'nginx:1.27\n'])('the L2 refuses %j with the field, the value and the fix', img => {
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'w', { containers: [{ image: img, portNumber: 8080 }] });
    expect(() => Testing.synth(chart)).toThrow(`[test/w] spec.template.spec.containers[0].image: ${JSON.stringify(img)} has leading or trailing whitespace, which the API server refuses in a pod; remove the spaces around the image name`);
  });

  test('an image without whitespace around it passes', () => {
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'w', { containers: [{ image: 'registry.example.com/team/nginx:1.27', portNumber: 8080 }] });
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});
