/**
 * The classes of disagreement the generated cases found
 * (test/fixtures/admission/found.ts): our verdict on every modelled line of
 * each named case, as the releases tier's real API servers and webhooks
 * judged it. A case with an old object is an update, as `check --live`
 * judges it.
 */
import { asApplied } from '../../src/admission/apply';
import { judgeManifest } from '../../src/admission/judge';
import { AdmissionApp } from '../../src/admission/types';
import { judgeUpdate } from '../../src/admission/update';
import { contextFromFlags } from '../../src/releases/flags';
import { FOUND_CLASSES, FoundCase, foundCases, foundRolloutCases } from '../fixtures/admission/found';
import { RELEASE_JUDGE_GATES } from '../fixtures/admission/releases';

const verdictOn = (c: FoundCase, line: string): true | string => {
  const ctx = c.manifest.apiVersion.startsWith('rollouts.kruise.io/')
    ? contextFromFlags({ rollouts: line }) : contextFromFlags({ openkruise: line, featureGates: RELEASE_JUDGE_GATES });
  // judged as `check` judges a document alone: the rules that read other objects find none
  const alone: AdmissionApp = { objects: () => [] };
  const { errors } = c.old ? judgeUpdate(asApplied(c.old), c.manifest, ctx, alone) : judgeManifest(c.manifest, ctx, alone);
  return errors.length === 0 ? true : errors[0];
};

const all = [...foundCases, ...foundRolloutCases];

test.each(all.map(c => [c.id, c] as const))('%s: our verdict on every line', (_id, c) => {
  const got = Object.fromEntries(Object.keys(c.verdicts).map(line => [line, verdictOn(c, line)]));
  expect(got).toEqual(c.verdicts);
});

test('every case names its class, the generated case that found it and the released source line that decides it; every class has a case', () => {
  expect(new Set(all.map(c => c.id)).size).toBe(all.length);
  for (const c of all) {
    expect(c.source).toMatch(/:\d+|\(/);
    expect(c.foundBy).toMatch(/KRUISE_GEN_SEED=\d+/);
  }
  const classes = new Set(all.map(c => c.class));
  expect(Object.keys(FOUND_CLASSES).filter(k => k !== 'undeclared-stricter' && !classes.has(k as any))).toEqual([]);
});
