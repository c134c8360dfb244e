import { ApiObject, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { Warnings, fieldError } from '../../src';
import { _registerGateSource, _requireGates } from '../../src/validation/gates';

test('fieldError names the field, the value, the problem and the fix', () => {
  expect(fieldError('spec.replicas', -1, 'is negative', 'use 0 or more')).toBe('spec.replicas: -1 is negative; use 0 or more');
  expect(fieldError('spec.selector', undefined, 'is missing', 'set a selector')).toBe('spec.selector: (unset) is missing; set a selector');
});

describe('Warnings', () => {
  test('are printed once per app at synth and listed by Warnings.of', () => {
    const chart = Testing.chart();
    const c = new Construct(chart, 'thing');
    new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    Warnings.add(c, 'raising partition does not roll pods back');
    const spy = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    Testing.synth(chart);
    Testing.synth(chart);
    expect(spy.mock.calls).toEqual([['[cdk8s-kruise] warning: [test/thing] raising partition does not roll pods back']]);
    spy.mockRestore();
    expect(Warnings.of(chart)).toEqual(['[test/thing] raising partition does not roll pods back']);
  });

  test('fail synth when treated as errors', () => {
    const chart = Testing.chart();
    Warnings.add(new Construct(chart, 'thing'), 'something surprising');
    Warnings.treatAsErrors(chart);
    expect(() => Testing.synth(chart)).toThrow('[] warning treated as error: [test/thing] something surprising');
  });

  test('are computed at synth by producers', () => {
    const chart = Testing.chart();
    let n = 0;
    Warnings._addProducer(new Construct(chart, 'late'), () => (n > 0 ? [`n is ${n}`] : []));
    expect(Warnings.of(chart)).toEqual([]);
    n = 2;
    expect(Warnings.of(chart)).toEqual(['[test/late] n is 2']);
  });
});

describe('feature gates', () => {
  const source = (on: string[]) => ({
    path: 'test/kruise',
    isEnabled: (g: string) => on.includes(g),
    howToEnable: (g: string) => `set featureGates ${g}=true`,
  });

  test('a required gate that is off in the app\'s control plane fails synth', () => {
    const chart = Testing.chart();
    _registerGateSource(chart, source([]));
    _requireGates(new Construct(chart, 'ws'), 'WorkloadSpread', ['WorkloadSpread']);
    expect(() => Testing.synth(chart)).toThrow(
      "[test/ws] WorkloadSpread needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane at 'test/kruise' (the webhook refuses every WorkloadSpread then); set featureGates WorkloadSpread=true",
    );
  });

  test('any-of gates pass when one is on, fail when none is', () => {
    const ok = Testing.chart();
    _registerGateSource(ok, source(['PodUnavailableBudgetUpdateGate']));
    _requireGates(new Construct(ok, 'pub'), 'PodUnavailableBudget', [], ['PodUnavailableBudgetDeleteGate', 'PodUnavailableBudgetUpdateGate']);
    expect(() => Testing.synth(ok)).not.toThrow();

    const bad = Testing.chart();
    _registerGateSource(bad, source([]));
    _requireGates(new Construct(bad, 'pub'), 'PodUnavailableBudget', [], ['PodUnavailableBudgetDeleteGate', 'PodUnavailableBudgetUpdateGate']);
    expect(() => Testing.synth(bad)).toThrow('PodUnavailableBudget needs one of the OpenKruise feature gates PodUnavailableBudgetDeleteGate or PodUnavailableBudgetUpdateGate');
  });

  test('without a control plane in the app nothing is checked', () => {
    const chart = Testing.chart();
    _requireGates(new Construct(chart, 'ws'), 'WorkloadSpread', ['WorkloadSpread']);
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});
