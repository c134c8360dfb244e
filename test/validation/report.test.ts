import { ApiObject, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { Warnings, fieldError } from '../../src';
import { gateProblems } from '../../src/admission/app-wide';

test('fieldError names the field, the value, the problem and the fix', () => {
  expect(fieldError('spec.replicas', -1, 'is negative', 'use 0 or more')).toBe('spec.replicas: -1 is negative; use 0 or more');
  expect(fieldError('spec.selector', undefined, 'is missing', 'set a selector')).toBe('spec.selector: (unset) is missing; set a selector');
});

describe('Warnings', () => {
  const surprise = 'ConfigMap "settings" (v1) data.mode: "fast" is read only at start; restart the pods after a change';

  test('are printed once per app at synth and listed by Warnings.of', () => {
    const chart = Testing.chart();
    const c = new Construct(chart, 'thing');
    new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    Warnings.add(c, surprise);
    const spy = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    Testing.synth(chart);
    Testing.synth(chart);
    expect(spy.mock.calls).toEqual([[`[cdk8s-kruise] warning: [test/thing] ${surprise}`]]);
    spy.mockRestore();
    expect(Warnings.of(chart)).toEqual([`[test/thing] ${surprise}`]);
  });

  test('fail synth when treated as errors: each under its own construct, as its line and why it fails', () => {
    const chart = Testing.chart();
    Warnings.add(new Construct(chart, 'thing'), surprise);
    Warnings.add(new Construct(chart, 'other'), surprise);
    Warnings.treatAsErrors(chart);
    expect(() => Testing.synth(chart)).toThrow([
      'Validation failed with the following errors:',
      `  [test/thing] ${surprise} (a warning, treated as an error)`,
      `  [test/other] ${surprise} (a warning, treated as an error)`,
    ].join('\n'));
    // every synth fails the same way
    expect(() => Testing.synth(chart)).toThrow(`[test/thing] ${surprise} (a warning, treated as an error)\n  [test/other]`);
  });

  test('a warning about the app itself fails under the app', () => {
    const app = Testing.app();
    Warnings.add(app, surprise);
    Warnings.treatAsErrors(app);
    expect(() => app.synth()).toThrow(`[] ${surprise} (a warning, treated as an error)`);
  });

  test('are computed at synth by producers', () => {
    const chart = Testing.chart();
    let n = 0;
    Warnings._addProducer(new Construct(chart, 'late'), () => (n > 0 ? [`ConfigMap "settings" (v1) data.replicas: ${n} is read only at start; restart the pods after a change`] : []));
    expect(Warnings.of(chart)).toEqual([]);
    n = 2;
    expect(Warnings.of(chart)).toEqual(['[test/late] ConfigMap "settings" (v1) data.replicas: 2 is read only at start; restart the pods after a change']);
  });
});

describe('feature gates', () => {
  const source = (on: string[]) => ({
    place: "at 'test/kruise'",
    isEnabled: (g: string) => on.includes(g),
    howToEnable: (g: string) => `set featureGates ${g}=true`,
  });
  const spread = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'spread' } };
  const budget = { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'budget' } };

  test('a required gate that is off in a control plane names the kind', () => {
    expect(gateProblems(spread, [source([])])).toEqual([
      'kind: "WorkloadSpread" needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane at \'test/kruise\' (the webhook refuses every WorkloadSpread then); set featureGates WorkloadSpread=true',
    ]);
  });

  test('a gate a field needs names the field and its value', () => {
    const cron = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob', metadata: { name: 'pull' }, spec: { template: { imageListPullJobTemplate: { spec: { images: ['a:1'] } } } } };
    expect(gateProblems(cron, [source(['KruiseDaemon'])])).toEqual([
      'spec.template.imageListPullJobTemplate.spec.images: ["a:1"] needs the OpenKruise feature gate ImagePullJobGate, which is off in the control plane at \'test/kruise\' (the webhook refuses the ImageListPullJob each run creates then); set featureGates ImagePullJobGate=true',
    ]);
  });

  test('any-of gates pass when one is on, fail when none is', () => {
    expect(gateProblems(budget, [source(['PodUnavailableBudgetUpdateGate'])])).toEqual([]);
    expect(gateProblems(budget, [source([])])).toEqual([
      'kind: "PodUnavailableBudget" needs one of the OpenKruise feature gates PodUnavailableBudgetDeleteGate or PodUnavailableBudgetUpdateGate, all off in the control plane at \'test/kruise\'; set featureGates PodUnavailableBudgetDeleteGate=true',
    ]);
  });

  test('without a control plane nothing is checked', () => {
    expect(gateProblems(spread, [])).toEqual([]);
  });
});
