import { Chart, Duration, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AdvancedStatefulSet, Warnings, WorkloadSpread, WorkloadSpreadScheduleStrategy } from '../src';
import { _registerGateSource } from '../src/validation/gates';

beforeAll(() => { jest.spyOn(console, 'warn').mockImplementation(() => undefined); });

const find = (chart: Chart) => Testing.synth(chart).find(o => o.kind === 'WorkloadSpread');
const deployment = (chart: Chart, name = 'web') => new kplus.Deployment(chart, name, { metadata: { name }, containers: [{ image: 'nginx:1.27' }] });
const zone = (z: string) => [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', z)];

test('renders target, subsets and an adaptive schedule field by field, in the target\'s namespace', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'shop', { namespace: 'shop' });
  const ws = new WorkloadSpread(chart, 'spread', {
    metadata: { name: 'web-spread' },
    target: deployment(chart),
    subsets: [{
      name: 'zone-a',
      requiredNodeLabels: zone('a'),
      preferredNodeLabels: [{ weight: 50, nodeLabels: [kplus.NodeLabelQuery.in('pool', ['fast'])] }],
      tolerations: [kplus.NodeTaintQuery.is('dedicated', 'web', { effect: kplus.TaintEffect.NO_SCHEDULE })],
      maxReplicas: kplus.PercentOrAbsolute.absolute(3),
      patch: { metadata: { labels: { zone: 'a' } } },
    }],
    scheduleStrategy: WorkloadSpreadScheduleStrategy.adaptive({ rescheduleCritical: Duration.seconds(30), disableSimulationSchedule: true }),
  });
  ws.addSubset({ name: 'elastic', requiredNodeLabels: [kplus.NodeLabelQuery.is('node.io/capacity', 'spot')] });
  const m = find(chart);
  expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
  expect(m.metadata).toEqual({ name: 'web-spread', namespace: 'shop' });
  expect(m.spec.targetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' });
  expect(m.spec.subsets).toEqual([
    {
      name: 'zone-a',
      requiredNodeSelectorTerm: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }] },
      preferredNodeSelectorTerms: [{ weight: 50, preference: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['fast'] }] } }],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
      maxReplicas: 3,
      patch: { metadata: { labels: { zone: 'a' } } },
    },
    { name: 'elastic', requiredNodeSelectorTerm: { matchExpressions: [{ key: 'node.io/capacity', operator: 'In', values: ['spot'] }] } },
  ]);
  expect(m.spec.scheduleStrategy).toEqual({ type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 30, disableSimulationSchedule: true } });
  expect(ws.subsets.map(s => s.name)).toEqual(['zone-a', 'elastic']);
  expect(ws.scheduleStrategy).toBeDefined();
});

test('renders a raw targetRef, percentages and the fixed strategy', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 's', {
    targetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs' },
    subsets: [{ name: 'a', maxReplicas: kplus.PercentOrAbsolute.percent(60) }, { name: 'b', maxReplicas: kplus.PercentOrAbsolute.percent(40) }],
    scheduleStrategy: WorkloadSpreadScheduleStrategy.fixed(),
  });
  const m = find(chart);
  expect(m.spec.targetRef).toEqual({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs' });
  expect(m.spec.subsets.map((s: any) => s.maxReplicas)).toEqual(['60%', '40%']);
  expect(m.spec.scheduleStrategy).toEqual({ type: 'Fixed' });
});

test('fails eagerly without exactly one of target and targetRef', () => {
  const chart = Testing.chart();
  expect(() => new WorkloadSpread(chart, 's', {})).toThrow("WorkloadSpread at 'test/s': set exactly one of 'target' or 'targetRef'");
});

test('fails with no subsets (rule 6)', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 's', { target: deployment(chart) });
  expect(() => Testing.synth(chart)).toThrow('[test/s] WorkloadSpread "test-s-c82657af" (apps.kruise.io/v1alpha1) spec.subsets: [] is empty, so the WorkloadSpread has no subsets; add at least one with addSubset()');
});

test('fails on empty or duplicate subset names and bad node terms (rules 7-9)', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 's', {
    target: deployment(chart),
    subsets: [
      { name: 'a', requiredNodeLabels: [kplus.NodeLabelQuery.gt('cpu', ['x'])], preferredNodeLabels: [{ weight: 0, nodeLabels: [kplus.NodeLabelQuery.in('bad key', ['v'])] }] },
      { name: 'a' },
    ],
  }).apiObject.addJsonPatch(JsonPatch.add('/spec/subsets/-', { name: '' }));
  const err = () => Testing.synth(chart);
  expect(err).toThrow('spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].values: ["x"] is no integer for operator Gt: OpenKruise admits it, but the scheduler cannot compare a node label with it');
  expect(err).toThrow('spec.subsets[0].preferredNodeSelectorTerms[0].weight: 0 is out of range; use 1 to 100');
  expect(err).toThrow('spec.subsets[0].preferredNodeSelectorTerms[0].preference.matchExpressions[0].key: "bad key" name part must consist');
  expect(err).toThrow('spec.subsets[1].name: "a" is used by another subset; give each subset a unique name');
  expect(err).toThrow('spec.subsets[2].name: "" is empty; name the subset');
});

test('fails on bad tolerations (rule 10)', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 's', { target: deployment(chart), subsets: [{ name: 'a', tolerations: [kplus.NodeTaintQuery.is('k', 'v', { effect: kplus.TaintEffect.NO_SCHEDULE })] }] })
    .apiObject.addJsonPatch(JsonPatch.add('/spec/subsets/0/tolerations/0/tolerationSeconds', 5), JsonPatch.add('/spec/subsets/0/tolerations/-', { operator: 'Equal', value: 'x' }), JsonPatch.add('/spec/subsets/0/tolerations/-', { key: 'k', operator: 'Exists', value: 'x', effect: 'Never' }));
  const err = () => Testing.synth(chart);
  expect(err).toThrow('spec.subsets[0].tolerations[0].tolerationSeconds: 5 is only allowed with effect NoExecute');
  expect(err).toThrow('spec.subsets[0].tolerations[1].operator: "Equal" must be Exists when the key is empty');
  expect(err).toThrow('spec.subsets[0].tolerations[2].value: "x" must be empty for operator Exists');
  expect(err).toThrow('spec.subsets[0].tolerations[2].effect: "Never" is not a taint effect');
});

test('fails on mixed, fractional, excessive or short percentages and percentages on a StatefulSet (rules 12-16)', () => {
  const chart = Testing.chart();
  const pct = kplus.PercentOrAbsolute.percent;
  new WorkloadSpread(chart, 'mix', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'a' }, subsets: [{ name: 'a', maxReplicas: pct(50) }, { name: 'b', maxReplicas: kplus.PercentOrAbsolute.absolute(2) }] });
  new WorkloadSpread(chart, 'frac', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'b' }, subsets: [{ name: 'a', maxReplicas: pct(12.5) }, { name: 'b' }] });
  new WorkloadSpread(chart, 'over', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'c' }, subsets: [{ name: 'a', maxReplicas: pct(70) }, { name: 'b', maxReplicas: pct(40) }] });
  new WorkloadSpread(chart, 'short', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, subsets: [{ name: 'a', maxReplicas: pct(30) }, { name: 'b', maxReplicas: pct(30) }] });
  new WorkloadSpread(chart, 'sts', { targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'e' }, subsets: [{ name: 'a', maxReplicas: pct(30) }, { name: 'b' }] });
  const err = () => Testing.synth(chart);
  expect(err).toThrow('[test/mix] WorkloadSpread "test-mix-c889fe2b" (apps.kruise.io/v1alpha1) spec.subsets[*].maxReplicas: ["50%",2] mixes numbers and percentages');
  expect(err).toThrow('[test/frac] WorkloadSpread "test-frac-c8f4a794" (apps.kruise.io/v1alpha1) spec.subsets[0].maxReplicas: "12.5%" is not a non-negative integer or integer percentage');
  expect(err).toThrow('[test/over] WorkloadSpread "test-over-c8a88205" (apps.kruise.io/v1alpha1) spec.subsets[1].maxReplicas: "40%" brings the percentages to 110%, more than 100%');
  expect(err).toThrow("[test/short] WorkloadSpread \"test-short-c87edb9b\" (apps.kruise.io/v1alpha1) spec.subsets[1].maxReplicas: \"30%\" leaves the percentages at 60%; with the last subset limited they must add up to 100%; make them add up to 100%, or leave the last subset's maxReplicas unset");
  expect(err).toThrow('[test/sts] WorkloadSpread "test-sts-c8a7f4f6" (apps.kruise.io/v1alpha1) spec.subsets[0].maxReplicas: "30%" is a percentage, which OpenKruise refuses for a StatefulSet target; use a number');
});

test('fails on adaptive rules (rules 17-20) and target group rules (rules 3-4)', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 'ad', {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'Deployment', name: 'x' },
    subsets: [{ name: 'a' }, { name: 'b' }, { name: 'c', maxReplicas: kplus.PercentOrAbsolute.absolute(1) }],
    scheduleStrategy: WorkloadSpreadScheduleStrategy.adaptive({ rescheduleCritical: Duration.seconds(200) }),
  });
  new WorkloadSpread(chart, 'ty', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'y' }, subsets: [{ name: 'a' }] })
    .apiObject.addJsonPatch(JsonPatch.add('/spec/scheduleStrategy', { type: 'Sometimes', adaptive: {} }));
  const err = () => Testing.synth(chart);
  expect(err).toThrow('[test/ad] WorkloadSpread "test-ad-c89b1725" (apps.kruise.io/v1alpha1) spec.targetRef.apiVersion: "apps.kruise.io/v1alpha1" is not a group OpenKruise accepts for kind Deployment; use group apps');
  expect(err).toThrow('[test/ad] WorkloadSpread "test-ad-c89b1725" (apps.kruise.io/v1alpha1) spec.subsets[2].maxReplicas: 1 is set on the last subset of an adaptive WorkloadSpread');
  expect(err).toThrow('[test/ad] WorkloadSpread "test-ad-c89b1725" (apps.kruise.io/v1alpha1) spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds: 200 is out of range for 3 subsets; use 0 to 147 seconds');
  // a type outside the enum is the schema's to refuse; the rule sees only schema-valid types
  expect(err).toThrow('[test/ty] WorkloadSpread "test-ty-c8c720f1" (apps.kruise.io/v1alpha1) spec.scheduleStrategy.type: "Sometimes" is not an allowed value; use one of "Adaptive", "Fixed", ""');
  const c2 = Testing.chart();
  new WorkloadSpread(c2, 'ty', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'y' }, subsets: [{ name: 'a' }] })
    .apiObject.addJsonPatch(JsonPatch.add('/spec/scheduleStrategy', { type: 'Fixed', adaptive: {} }));
  expect(() => Testing.synth(c2)).toThrow('[test/ty] WorkloadSpread "test-ty-c8c720f1" (apps.kruise.io/v1alpha1) spec.scheduleStrategy.adaptive: {} is set but the type is not Adaptive');
});

test('fails on a second WorkloadSpread for the same workload (rule 22) and on a namespace mismatch', () => {
  const app = Testing.app();
  const shop = new Chart(app, 'shop', { namespace: 'shop' });
  const web = deployment(shop);
  new WorkloadSpread(shop, 'a', { target: web, subsets: [{ name: 'a' }] });
  new WorkloadSpread(shop, 'b', { target: web, subsets: [{ name: 'a' }] });
  new WorkloadSpread(shop, 'c', { metadata: { namespace: 'other' }, target: web, subsets: [{ name: 'a' }] });
  const err = () => app.synth();
  expect(err).toThrow('[shop/a] WorkloadSpread "shop-a-c844100c" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps/v1","kind":"Deployment","name":"web"} is also the target of WorkloadSpread');
  expect(err).toThrow('[shop/c] WorkloadSpread "shop-c-c822c187" (apps.kruise.io/v1alpha1) metadata.namespace: "other" differs from the namespace of the target Deployment "web" (shop)');
});

test('warns on a target kind that needs the custom-workload whitelist', () => {
  const chart = Testing.chart();
  const ds = new kplus.DaemonSet(chart, 'ds', { metadata: { name: 'ds' }, containers: [{ image: 'agent:1' }] });
  new WorkloadSpread(chart, 's', { target: ds, subsets: [{ name: 'a' }] });
  expect(Warnings.of(chart)).toEqual(['[test/s] WorkloadSpread "test-s-c82657af" (apps.kruise.io/v1alpha1) spec.targetRef: {"apiVersion":"apps/v1","kind":"DaemonSet","name":"ds"} is not a CloneSet, Deployment, ReplicaSet, Job or StatefulSet, which OpenKruise accepts only when the kind is listed in WorkloadSpread_Watch_Custom_Workload_WhiteList of the kruise-configuration ConfigMap; add the kind to that whitelist, or spread a built-in workload']);
});

test('fails when the WorkloadSpread gate is off in the app\'s control plane', () => {
  const chart = Testing.chart();
  _registerGateSource(chart, { path: 'test/kruise', isEnabled: () => false, howToEnable: g => `set featureGates ${g}=true` });
  new WorkloadSpread(chart, 's', { target: deployment(chart), subsets: [{ name: 'a' }] });
  expect(() => Testing.synth(chart)).toThrow("[test/s] WorkloadSpread \"test-s-c82657af\" (apps.kruise.io/v1alpha1) kind: \"WorkloadSpread\" needs the OpenKruise feature gate WorkloadSpread, which is off in the control plane at 'test/kruise' (the webhook refuses every WorkloadSpread then); set featureGates WorkloadSpread=true");
});

test('fails on an incomplete targetRef or an apiVersion with more than one slash (rules 3-4)', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 'e', { targetRef: { apiVersion: '', kind: '', name: '' }, subsets: [{ name: 'a' }] });
  new WorkloadSpread(chart, 'v', { targetRef: { apiVersion: 'apps/v1/x', kind: 'ReplicaSet', name: 'rs' }, subsets: [{ name: 'a' }] });
  const err = () => Testing.synth(chart);
  expect(err).toThrow('[test/e] WorkloadSpread "test-e-c8d8dfc3" (apps.kruise.io/v1alpha1) spec.targetRef.apiVersion: "" is empty; name the target completely');
  expect(err).toThrow('[test/e] WorkloadSpread "test-e-c8d8dfc3" (apps.kruise.io/v1alpha1) spec.targetRef.kind: "" is empty; name the target completely');
  expect(err).toThrow('[test/e] WorkloadSpread "test-e-c8d8dfc3" (apps.kruise.io/v1alpha1) spec.targetRef.name: "" is empty; name the target completely');
  expect(err).toThrow('[test/v] WorkloadSpread "test-v-c805e53a" (apps.kruise.io/v1alpha1) spec.targetRef.apiVersion: "apps/v1/x" is not group/version; use e.g. apps/v1');
});

test('fails on node selector terms the strict upstream check refuses: values, operators, matchFields (rule 8)', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 's', { target: deployment(chart), subsets: [{ name: 'a', requiredNodeLabels: zone('a') }] })
    .apiObject.addJsonPatch(JsonPatch.replace('/spec/subsets/0/requiredNodeSelectorTerm', {
      matchExpressions: [
        { key: 'zone', operator: 'In', values: [] },
        { key: 'gpu', operator: 'Exists', values: ['yes'] },
        { key: 'disk', operator: 'Like', values: ['ssd'] },
        { key: 'pool', operator: 'In', values: ['bad value!'] },
      ],
      matchFields: [
        { key: 'metadata.namespace', operator: 'In', values: ['node-1'] },
        { key: 'metadata.name', operator: 'Exists' },
        { key: 'metadata.name', operator: 'NotIn', values: ['node-1', 'node-2'] },
        { key: 'metadata.name', operator: 'In', values: ['Node_1'] },
      ],
    }));
  const err = () => Testing.synth(chart);
  const at = '[test/s] WorkloadSpread "test-s-c82657af" (apps.kruise.io/v1alpha1) spec.subsets[0].requiredNodeSelectorTerm';
  expect(err).toThrow(`${at}.matchExpressions[0].values: [] must list at least one value for operator In; add values`);
  expect(err).toThrow(`${at}.matchExpressions[1].values: ["yes"] must be empty for operator Exists; drop the values`);
  expect(err).toThrow(`${at}.matchExpressions[2].operator: "Like" is not a node selector operator; use In, NotIn, Exists, DoesNotExist, Gt or Lt`);
  expect(err).toThrow(`${at}.matchExpressions[3].values[0]: "bad value!" must be empty or consist of`);
  expect(err).toThrow(`${at}.matchFields[0].key: "metadata.namespace" is not a supported node field; use metadata.name`);
  expect(err).toThrow(`${at}.matchFields[1].operator: "Exists" is not allowed for a node field; use In or NotIn`);
  expect(err).toThrow(`${at}.matchFields[2].values: ["node-1","node-2"] must be exactly one node name for operator NotIn; give one node name`);
  expect(err).toThrow(`${at}.matchFields[3].values[0]: "Node_1" must consist of lowercase letters`);
});

test('fails on a toleration with an invalid key or operator, an invalid value, and an invalid target filter (rules 10, 21)', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 's', { target: deployment(chart), subsets: [{ name: 'a' }] })
    .apiObject.addJsonPatch(
      JsonPatch.add('/spec/subsets/0/tolerations', [{ key: 'bad key', operator: 'Equal', value: 'x' }, { key: 'k', operator: 'Matches' }, { key: 'k', value: 'bad value!' }]),
      JsonPatch.add('/spec/targetFilter', { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } }),
    );
  const err = () => Testing.synth(chart);
  expect(err).toThrow('[test/s] WorkloadSpread "test-s-c82657af" (apps.kruise.io/v1alpha1) spec.subsets[0].tolerations[0].key: "bad key" name part must consist of');
  expect(err).toThrow('[test/s] WorkloadSpread "test-s-c82657af" (apps.kruise.io/v1alpha1) spec.subsets[0].tolerations[1].operator: "Matches" is not a toleration operator; use Equal or Exists');
  expect(err).toThrow('[test/s] WorkloadSpread "test-s-c82657af" (apps.kruise.io/v1alpha1) spec.subsets[0].tolerations[2].value: "bad value!" must be empty or consist of');
  expect(err).toThrow('[test/s] WorkloadSpread "test-s-c82657af" (apps.kruise.io/v1alpha1) spec.targetFilter.selector.matchExpressions[0].values: [] ');
});

test('fails on a negative rescheduleCriticalSeconds (rule 20)', () => {
  const chart = Testing.chart();
  new WorkloadSpread(chart, 's', { target: deployment(chart), subsets: [{ name: 'a' }], scheduleStrategy: WorkloadSpreadScheduleStrategy.adaptive() })
    .apiObject.addJsonPatch(JsonPatch.add('/spec/scheduleStrategy/adaptive/rescheduleCriticalSeconds', -1));
  expect(() => Testing.synth(chart)).toThrow('[test/s] WorkloadSpread "test-s-c82657af" (apps.kruise.io/v1alpha1) spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds: -1 is out of range for 1 subsets; use 0 to 2147483647 seconds');
});

test('targets an Advanced StatefulSet and warns that OpenKruise does not check subset patches for it', () => {
  const chart = Testing.chart();
  const sts = new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db' }, containers: [{ image: 'postgres:17', portNumber: 5432 }] });
  const ws = sts.spreadOver({ subsets: [{ name: 'a', maxReplicas: kplus.PercentOrAbsolute.absolute(2), patch: { metadata: { labels: { zone: 'a' } } } }, { name: 'b' }] });
  const m = find(chart);
  expect(ws.node.path).toBe('test/db/Spread');
  expect(m.spec.targetRef).toEqual({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' });
  expect(m.spec.subsets[0]).toEqual({ name: 'a', maxReplicas: 2, patch: { metadata: { labels: { zone: 'a' } } } });
  expect(Warnings.of(chart)).toEqual(['[test/db/Spread] WorkloadSpread "test-db-spread-c8ad2d4c" (apps.kruise.io/v1alpha1) spec.subsets[0].patch: {"metadata":{"labels":{"zone":"a"}}} is not validated by OpenKruise for an Advanced StatefulSet target, so a bad patch surfaces only when pods are created; check that the patch merges into the pod template (OpenKruise applies it as a strategic merge patch to each new pod)']);
});
