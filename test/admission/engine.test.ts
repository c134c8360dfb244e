import { ApiObject, JsonPatch, Testing } from 'cdk8s';
import { CloneSet, KruiseControlPlane, Warnings, kruise } from '../../src';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } };
const cloneSet = (spec: Record<string, unknown>, name = 'web') => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name },
  spec: { selector: { matchLabels: { app: 'web' } }, template, ...spec },
});
const errorOf = (f: () => unknown): string => {
  try { f(); } catch (e: any) { return e.message; }
  return '';
};

test('a raw object is judged by the kind rules as soon as anything of the library is in the app', () => {
  const chart = Testing.chart();
  new CloneSet(chart, 'l2', { containers: [{ image: 'nginx:1.27' }] });
  new ApiObject(chart, 'raw', cloneSet({ replicas: 2, selector: { matchLabels: { app: 'other' } } }));
  expect(errorOf(() => Testing.synth(chart))).toBe([
    'Validation failed with the following errors:',
    '  [test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.template.metadata.labels: {"app":"web"} do not match spec.selector {"matchLabels":{"app":"other"}}; add the selected labels to the labels of the pod template, or select labels the pods carry',
  ].join('\n'));
});

test('an L1 object gets the same verdict as the raw object, under its own path', () => {
  const chart = Testing.chart();
  const l1 = new kruise.KubeCloneSet(chart, 'l1', { metadata: { name: 'web' } });
  l1.addJsonPatch(JsonPatch.add('/spec', cloneSet({ updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '12.5%' } }).spec));
  expect(errorOf(() => Testing.synth(chart))).toBe([
    'Validation failed with the following errors:',
    '  [test/l1] CloneSet "web" (apps.kruise.io/v1alpha1) spec.updateStrategy.maxUnavailable: "12.5%" is not a whole percentage; the webhook admits it but the CloneSet controller reads it as 0; use a whole percentage such as 12% or 13%, or an absolute number',
  ].join('\n'));
});

test('an L2 reports once, under the L2 path (not its Resource child)', () => {
  const chart = Testing.chart();
  const cs = new CloneSet(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
  ApiObject.of(cs).addJsonPatch(JsonPatch.add('/spec/scaleStrategy', { podsToDelete: ['a', 'a'] }));
  expect(errorOf(() => Testing.synth(chart))).toBe([
    'Validation failed with the following errors:',
    '  [test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.scaleStrategy.podsToDelete: ["a"] are listed more than once; list each pod once',
  ].join('\n'));
});

test('a schema error stops there: the rules see only objects that decode, as in the API server', () => {
  const chart = Testing.chart();
  new kruise.KubeCloneSet(chart, 'l1', { metadata: { name: 'web' } })
    .addJsonPatch(JsonPatch.add('/spec', { ...cloneSet({}).spec, replicas: -1.5, selector: { matchLabels: { app: 'other' } } }));
  expect(errorOf(() => Testing.synth(chart))).toBe([
    'Validation failed with the following errors:',
    '  [test/l1] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: -1.5 is not an integer; give an integer',
  ].join('\n'));
});

test('defaults are applied in memory only: the output holds what the user wrote', () => {
  const chart = Testing.chart();
  new kruise.KubeCloneSet(chart, 'l1', { metadata: { name: 'web' } }).addJsonPatch(JsonPatch.add('/spec', cloneSet({}).spec));
  expect(Testing.synth(chart)[0].spec).toEqual(cloneSet({}).spec);
});

test('each object is rendered once and judged once per synth, however many checks read it', () => {
  const chart = Testing.chart();
  const objs = [0, 1, 2].map(i => new kruise.KubeCloneSet(chart, `cs${i}`, { metadata: { name: `web${i}` } }));
  for (const o of objs) o.addJsonPatch(JsonPatch.add('/spec', cloneSet({}).spec));
  const spies = objs.map(o => jest.spyOn(o, 'toJson'));
  Testing.synth(chart);
  // one render for the checks and one for the output
  expect(spies.map(s => s.mock.calls.length)).toEqual([2, 2, 2]);
});

test('the feature gates of the app control plane decide gate-dependent defaults', () => {
  const sts = (chart: any) => new ApiObject(chart, 'sts', {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'db' },
    spec: { serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } },
  });
  // gate on (the default): whenScaled is defaulted to Retain and the object passes
  const on = Testing.chart();
  new KruiseControlPlane(on, 'kruise');
  sts(on);
  expect(errorOf(() => Testing.synth(on))).toBe('');
  // gate off: no retention defaults, so the policy as written is judged as written
  const off = Testing.chart();
  new KruiseControlPlane(off, 'kruise', { featureGates: { StatefulSetAutoDeletePVC: false } });
  sts(off);
  expect(errorOf(() => Testing.synth(off))).toContain('[test/sts] StatefulSet "db" (apps.kruise.io/v1beta1) spec.persistentVolumeClaimRetentionPolicy.whenScaled: (unset) is not supported; use Retain or Delete');
});

test('warnings come from the kind module for every path, once per object', () => {
  const chart = Testing.chart();
  new CloneSet(chart, 'l2', { replicas: 10, containers: [{ image: 'nginx:1.27' }] });
  new ApiObject(chart, 'raw', cloneSet({ replicas: 10, updateStrategy: { type: 'InPlaceIfPossible', partition: '99%' } }));
  expect(Warnings.of(chart)).toEqual([
    '[test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.updateStrategy.partition "99%" is rounded up: with 10 replicas it keeps 9 pod(s) at the old revision and updates 1; below 100% at least one pod is always updated',
  ]);
});

test('apps do not see each other: a failed app leaves nothing behind for the next one', () => {
  for (let i = 0; i < 50; i++) {
    const bad = Testing.chart();
    new ApiObject(bad, 'raw', cloneSet({ replicas: -1 }));
    new CloneSet(bad, 'l2', { containers: [{ image: 'nginx:1.27' }] });
    expect(errorOf(() => Testing.synth(bad))).toContain('[test/raw] CloneSet "web" (apps.kruise.io/v1alpha1) spec.replicas: -1 must be 0 or more');
    const good = Testing.chart();
    new CloneSet(good, 'l2', { containers: [{ image: 'nginx:1.27' }] });
    expect(errorOf(() => Testing.synth(good))).toBe('');
  }
});
