/**
 * The CloneSet admission corpus through every entry path: each case is
 * synthesized as a `kruise` L1 object, a raw ApiObject and included YAML, and
 * must get its verdict with its exact message on each.
 */
import { Testing } from 'cdk8s';
import { CloneSet } from '../../src';
import { judgeManifest, manifestWarnings } from '../../src/admission/judge';
import { contextFromFlags } from '../../src/releases/flags';
import { formatIssue, servedVersions, validateManifest } from '../../src/validation/schemas';
import { cases } from '../fixtures/admission/clone-set';
import { describeCorpus, expectCase } from '../util/admission';

const KIND = 'CloneSet';
const GROUP = 'apps.kruise.io';

describeCorpus(GROUP, KIND, cases);

describe('a container image with surrounding whitespace (the API server refuses every pod)', () => {
  test.each([' nginx:1.27', 'nginx:1.27 ', 'nginx:1.27\n'])('the L2 refuses %j with the field, the value and the fix', img => {
    const chart = Testing.chart();
    new CloneSet(chart, 'w', { containers: [{ image: img }] });
    expect(() => Testing.synth(chart)).toThrow(`[test/w] CloneSet "test-w-c8a10b81" (apps.kruise.io/v1alpha1) spec.template.spec.containers[0].image: ${JSON.stringify(img)} has leading or trailing whitespace: OpenKruise admits it, but the API server refuses it in every pod created from the template; remove the spaces around the image name`);
  });

  test('an image without whitespace around it passes', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'w', { containers: [{ image: 'registry.example.com/team/nginx:1.27' }] });
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});

describe('a maxSurge or maxUnavailable written as a string without % (read as a percentage before 1.9)', () => {
  const web = (updateStrategy: Record<string, unknown>) => {
    const m = JSON.parse(JSON.stringify(cases.find(c => c.id === 'CloneSet/valid')!.manifest));
    m.spec.updateStrategy = { ...m.spec.updateStrategy, ...updateStrategy };
    return m;
  };
  const on = (release: string, m: Record<string, any>) => {
    const ctx = contextFromFlags({ openkruise: release });
    return { errors: judgeManifest(m, ctx).errors, warnings: manifestWarnings(m, ctx, { objects: () => [] }) };
  };
  test.each(['1.7.4', '1.8.4'])('OpenKruise %s admits it and warns what it means', release => {
    const j = on(release, web({ maxSurge: '2' }));
    expect(j.errors).toEqual([]);
    expect(j.warnings).toContain('spec.updateStrategy.maxSurge: "2" is a string without %, which OpenKruise before 1.9 reads as 2% of the replicas, not as 2 pod(s), '
      + 'and which OpenKruise 1.9 refuses; write 2 for pods or "2%" for a percentage');
  });
  test.each(['1.9.0', '1.9.1'])('OpenKruise %s refuses it', release => {
    expect(on(release, web({ maxUnavailable: '%3' })).errors).toEqual([
      'spec.updateStrategy.maxUnavailable: "%3" is not an integer or a percentage; use an integer or a percentage such as "20%"',
    ]);
  });
  test('a value that is no whole number once its % signs are out is refused on every release', () => {
    for (const release of ['1.7.4', '1.9.1']) {
      expect(on(release, web({ maxSurge: 'one' })).errors).toEqual(['spec.updateStrategy.maxSurge: "one" is not an integer or a percentage; use an integer or a percentage such as "20%"']);
    }
  });
  test('what is written with % or as a number says nothing', () => {
    expect(on('1.7.4', web({ maxSurge: '25%', maxUnavailable: 1 })).warnings.filter(w => w.includes('without %'))).toEqual([]);
  });
});
