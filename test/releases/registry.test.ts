import { GATE_DEFAULTS } from '../../src/control-plane/_gates';
import {
  atLeast, defaultRelease, gateDefaults, parseRelease, releaseName, supportedText,
} from '../../src/releases/registry';

describe('parseRelease', () => {
  test.each([
    ['1.8', '1.8.4', true],
    ['1.8.2', '1.8.2', false],
    ['v1.8.2', '1.8.2', false],
    [' 1.7 ', '1.7.4', true],
    ['1.9', '1.9.1', true],
    ['v1.9.0', '1.9.0', false],
    ['1.9.1', '1.9.1', false],
  ])('OpenKruise %s is %s', (text, version, lineOnly) => {
    const r = parseRelease('openkruise', text, 'test');
    expect(r.version).toBe(version);
    expect(r.lineOnly).toBe(lineOnly);
  });

  test('Kruise Rollouts lines and releases', () => {
    expect(parseRelease('rollouts', '0.5', 'test').version).toBe('0.5.5');
    expect(parseRelease('rollouts', 'v0.6.1', 'test').version).toBe('0.6.1');
  });

  test.each([
    ['1.6', 'x: OpenKruise 1.6 is not a line this library models; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)'],
    ['1.8.9', 'x: OpenKruise 1.8.9 is not a release of the 1.8 line, whose releases are 1.8.0, 1.8.1, 1.8.2, 1.8.3, 1.8.4; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)'],
    ['latest', 'x: \'latest\' is not an OpenKruise version; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)'],
    ['1.7.5', 'x: OpenKruise 1.7.5 is not 1.7 code: its tag is the commit of 1.8.3 (the 1.7 line ends at 1.7.4), so give 1.8.3 for a manager built from it; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)'],
    ['2.0.0', 'x: OpenKruise 2.0.0 is not a release of a line this library models; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)'],
  ])('%s is refused, listing the supported versions', (text, message) => {
    expect(() => parseRelease('openkruise', text, 'x')).toThrow(message);
  });

  test('Kruise Rollouts lists its own', () => {
    expect(supportedText('rollouts')).toBe('0.5 (0.5.0 to 0.5.5) or 0.6 (0.6.0 to 0.6.2)');
    expect(() => parseRelease('rollouts', '0.4', 'x')).toThrow('x: Kruise Rollouts 0.4 is not a line this library models');
  });
});

test('atLeast compares by the registry order, lines by their first release', () => {
  const r = parseRelease('openkruise', '1.8.2', 'x');
  expect(atLeast(r, '1.8')).toBe(true);
  expect(atLeast(r, '1.8.3')).toBe(false);
  expect(atLeast(r, '1.9')).toBe(false);
  expect(atLeast(r, '1.7.4')).toBe(true);
  expect(atLeast(parseRelease('openkruise', '1.8', 'x'), '1.8.3')).toBe(true);
  expect(() => atLeast(r, '1.6')).toThrow('OpenKruise 1.6 is not a modelled release');
});

test('names: a line as a line, a release as a release', () => {
  expect(releaseName(parseRelease('openkruise', '1.8', 'x'))).toBe('OpenKruise 1.8');
  expect(releaseName(parseRelease('rollouts', '0.5.3', 'x'))).toBe('Kruise Rollouts 0.5.3');
  expect(defaultRelease('openkruise').version).toBe('1.9.1');
  expect(defaultRelease('rollouts').version).toBe('0.6.2');
});

describe('gate defaults per release (pkg/features of each release)', () => {
  test('1.9 is the control plane\'s table', () => {
    expect(gateDefaults(defaultRelease('openkruise'))).toEqual(GATE_DEFAULTS);
  });

  test('1.8 lacks the two gates 1.9 added', () => {
    const g = gateDefaults(parseRelease('openkruise', '1.8', 'x'));
    expect(Object.keys(g)).toHaveLength(32);
    expect(g.EnableSortSidecarContainerByName).toBeUndefined();
    expect(g.InPlacePodVerticalScaling).toBeUndefined();
    expect(g.ResourcesDeletionProtection).toBe(false);
  });

  test('1.7 lacks four more, and protects deletion by default', () => {
    const g = gateDefaults(parseRelease('openkruise', '1.7.0', 'x'));
    expect(Object.keys(g)).toHaveLength(28);
    for (const gone of ['EnablePodProbeMarkerOnServerless', 'ForceDeleteTimeoutExpectationGate', 'InPlaceWorkloadVerticalScaling', 'StatefulSetAutoResizePVCGate']) {
      expect(g[gone]).toBeUndefined();
    }
    expect(g.ResourcesDeletionProtection).toBe(true);
  });

  test('Kruise Rollouts: 0.5.4 and 0.5.5 have a gate 0.5.3 and 0.6 do not', () => {
    expect(gateDefaults(parseRelease('rollouts', '0.5.5', 'x'))).toEqual({ AdvancedDeployment: false, RolloutHistory: false, AppendPodSelector: false, KeepWorkloadPausedOnRolloutDeletion: false });
    expect(gateDefaults(parseRelease('rollouts', '0.5.3', 'x'))).toEqual({ AdvancedDeployment: false, RolloutHistory: false, AppendPodSelector: false });
    expect(gateDefaults(parseRelease('rollouts', '0.6', 'x'))).toEqual({ AdvancedDeployment: false, RolloutHistory: false, AppendPodSelector: false });
  });
});
