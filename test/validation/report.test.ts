import { ApiObject, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { Warnings, fieldError } from '../../src';
import { _registerGateSource, _requireGates } from '../../src/validation/gates';

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
    path: 'test/kruise',
    isEnabled: (g: string) => on.includes(g),
    howToEnable: (g: string) => `set featureGates ${g}=true`,
  });

  const spread = (scope: Construct) => new ApiObject(scope, 'ws', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'spread' } });
  const budget = (scope: Construct) => new ApiObject(scope, 'pub', { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'budget' } });

  test('a required gate that is off in the app\'s control plane fails synth, naming the object and its kind', () => {
    const chart = Testing.chart();
    _registerGateSource(chart, source([]));
    _requireGates(spread(chart), 'WorkloadSpread', ['WorkloadSpread']);
    expect(() => Testing.synth(chart)).toThrow(
      '[test/ws] WorkloadSpread "spread" (apps.kruise.io/v1alpha1) kind: "WorkloadSpread" needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane at \'test/kruise\' '
      + '(the webhook refuses every WorkloadSpread then); set featureGates WorkloadSpread=true',
    );
  });

  test('a gate a field needs names the field and its value', () => {
    const chart = Testing.chart();
    _registerGateSource(chart, source([]));
    _requireGates(spread(chart), 'WorkloadSpread', ['WorkloadSpread'], [], 'the subsets are ignored then', { field: 'spec.subsets', value: () => ['a'] });
    expect(() => Testing.synth(chart)).toThrow(
      '[test/ws] WorkloadSpread "spread" (apps.kruise.io/v1alpha1) spec.subsets: ["a"] needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane at \'test/kruise\' '
      + '(the subsets are ignored then); set featureGates WorkloadSpread=true',
    );
  });

  test('any-of gates pass when one is on, fail when none is', () => {
    const ok = Testing.chart();
    _registerGateSource(ok, source(['PodUnavailableBudgetUpdateGate']));
    _requireGates(budget(ok), 'PodUnavailableBudget', [], ['PodUnavailableBudgetDeleteGate', 'PodUnavailableBudgetUpdateGate']);
    expect(() => Testing.synth(ok)).not.toThrow();

    const bad = Testing.chart();
    _registerGateSource(bad, source([]));
    _requireGates(budget(bad), 'PodUnavailableBudget', [], ['PodUnavailableBudgetDeleteGate', 'PodUnavailableBudgetUpdateGate']);
    expect(() => Testing.synth(bad)).toThrow(
      '[test/pub] PodUnavailableBudget "budget" (policy.kruise.io/v1alpha1) kind: "PodUnavailableBudget" needs one of the OpenKruise feature gates PodUnavailableBudgetDeleteGate or '
      + 'PodUnavailableBudgetUpdateGate, all off in the control plane at \'test/kruise\'; set featureGates PodUnavailableBudgetDeleteGate=true',
    );
  });

  test('without a control plane in the app nothing is checked', () => {
    const chart = Testing.chart();
    _requireGates(spread(chart), 'WorkloadSpread', ['WorkloadSpread']);
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});
