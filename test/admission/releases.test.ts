/**
 * The per-release corpus (test/fixtures/admission/releases.ts): our admission
 * gives each difference between the releases the verdict the corpus records
 * for each release, with the exact first error line. The cluster tier sends
 * the same objects to each release's real webhooks (test/cluster/releases/).
 */
import { judgeManifest, manifestWarnings } from '../../src/admission/judge';
import { contextFromFlags } from '../../src/releases/flags';
import {
  OPENKRUISE_RELEASES, RELEASE_JUDGE_GATES, ROLLOUTS_RELEASES, ReleaseCase, openKruiseReleaseCases, rolloutsReleaseCases,
} from '../fixtures/admission/releases';

function verdicts(c: ReleaseCase, releases: readonly string[], flag: 'openkruise' | 'rollouts'): Record<string, true | string> {
  return Object.fromEntries(releases.map(r => {
    const { errors } = judgeManifest(c.manifest, contextFromFlags({ [flag]: r, featureGates: RELEASE_JUDGE_GATES }));
    return [r, errors.length === 0 ? true : errors[0]];
  }));
}

describe('OpenKruise: each difference gets its verdict on 1.7.4, 1.8.4 and 1.9.0', () => {
  test.each(openKruiseReleaseCases.map(c => [c.id, c] as const))('%s', (_id, c) => {
    expect(verdicts(c, OPENKRUISE_RELEASES, 'openkruise')).toEqual(c.verdicts);
  });
});

describe('OpenKruise: the warnings of each difference on the releases that admit it', () => {
  const withWarnings = openKruiseReleaseCases.filter(c => c.warnings !== undefined);
  test.each(withWarnings.map(c => [c.id, c] as const))('%s', (_id, c) => {
    const admitted = OPENKRUISE_RELEASES.filter(r => c.verdicts[r] === true);
    const warned = Object.fromEntries(admitted.map(r => {
      const ctx = contextFromFlags({ openkruise: r, featureGates: RELEASE_JUDGE_GATES });
      return [r, manifestWarnings(c.manifest, ctx, { objects: () => [] })];
    }));
    expect(warned).toEqual(Object.fromEntries(admitted.map(r => [r, c.warnings![r] ?? []])));
  });
});

describe('Kruise Rollouts: each difference gets its verdict on 0.5.5 and 0.6.2', () => {
  test.each(rolloutsReleaseCases.map(c => [c.id, c] as const))('%s', (_id, c) => {
    expect(verdicts(c, ROLLOUTS_RELEASES, 'rollouts')).toEqual(c.verdicts);
  });
});

test('every case is a difference: its verdict differs between releases, or the case says why not', () => {
  const same = [...openKruiseReleaseCases, ...rolloutsReleaseCases].filter(c => new Set(Object.values(c.verdicts).map(v => v === true)).size === 1);
  expect(same.filter(c => !c.sameVerdict).map(c => c.id)).toEqual([]);
  expect(same.map(c => c.id).sort()).toEqual(['AdvancedCronJob/v1alpha1-image-list-pull-job-template', 'CloneSet/pre-stop-sleep-beyond-grace', 'SidecarSet/resources-policy']);
});
