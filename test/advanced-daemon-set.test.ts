import { Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AdvancedDaemonSet, AdvancedDaemonSetUpdateStrategy, Warnings } from '../src';
import { synthFails as fails } from './util/synth-fails';
import { _registerGateSource } from '../src/validation/gates';

const image = 'fluent/fluent-bit:3.1';
const synthDs = (chart: any) => Testing.synth(chart).find(m => m.kind === 'DaemonSet');

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());


describe('AdvancedDaemonSet', () => {
  test('renders apps.kruise.io/v1beta1 with only what was set', () => {
    const chart = Testing.chart();
    new AdvancedDaemonSet(chart, 'agent', { containers: [{ image }] });
    const m = synthDs(chart);
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(m.kind).toBe('DaemonSet');
    expect(Object.keys(m.spec).sort()).toEqual(['selector', 'template']);
    expect(m).toMatchSnapshot();
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    const ds = new AdvancedDaemonSet(chart, 'agent', {
      metadata: { name: 'agent' },
      containers: [{ image }],
      minReady: Duration.seconds(10),
      revisionHistoryLimit: 5,
      burstReplicas: kplus.PercentOrAbsolute.percent(20),
      partitionedScaling: true,
      updateStrategy: AdvancedDaemonSetUpdateStrategy.surging({
        maxSurge: kplus.PercentOrAbsolute.absolute(1),
        partition: kplus.PercentOrAbsolute.percent(50),
        paused: false,
        nodeSelector: kplus.LabelSelector.of({ labels: { pool: 'canary' } }),
      }),
      lifecycle: { preDelete: { labels: { 'example.com/drained': 'true' }, markPodNotReady: true } },
      imagePreDownload: { parallelism: 10 },
    });
    ds.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists('dedicated')));
    const m = synthDs(chart);
    expect(m.metadata.name).toBe('agent');
    expect(m.metadata.annotations).toEqual({ 'apps.kruise.io/image-predownload-parallelism': '10' });
    expect(m.spec.minReadySeconds).toBe(10);
    expect(m.spec.revisionHistoryLimit).toBe(5);
    expect(m.spec.burstReplicas).toBe('20%');
    expect(m.spec.scaleStrategy).toEqual({ partitionedScaling: true });
    expect(m.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, partition: '50%', paused: false, selector: { matchLabels: { pool: 'canary' } } },
    });
    expect(m.spec.lifecycle).toEqual({ preDelete: { labelsHandler: { 'example.com/drained': 'true' }, markPodNotReady: true } });
    expect(m.spec.template.spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists' }]);
  });

  test('renders the options of the in-place strategy field by field', () => {
    const chart = Testing.chart();
    new AdvancedDaemonSet(chart, 'agent', {
      containers: [{ image }],
      updateStrategy: AdvancedDaemonSetUpdateStrategy.inPlaceIfPossible({
        maxUnavailable: kplus.PercentOrAbsolute.absolute(2),
        partition: kplus.PercentOrAbsolute.absolute(4),
        paused: true,
        nodeSelector: kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('pool', ['a', 'b'])] }),
      }),
    });
    expect(synthDs(chart).spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: {
        rollingUpdateType: 'InPlaceIfPossible',
        maxUnavailable: 2,
        partition: 4,
        paused: true,
        selector: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['a', 'b'] }] },
      },
    });
  });

  test('rolling, in-place and on-delete strategies', () => {
    const chart = Testing.chart();
    new AdvancedDaemonSet(chart, 'a', { containers: [{ image }], updateStrategy: AdvancedDaemonSetUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.percent(10) }) });
    new AdvancedDaemonSet(chart, 'b', { containers: [{ image }], updateStrategy: AdvancedDaemonSetUpdateStrategy.inPlaceIfPossible() });
    new AdvancedDaemonSet(chart, 'c', { containers: [{ image }], updateStrategy: AdvancedDaemonSetUpdateStrategy.onDelete() });
    const [a, b, c] = Testing.synth(chart).filter(m => m.kind === 'DaemonSet');
    expect(a.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: '10%' } });
    expect(b.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible' } });
    expect(c.spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });
});

describe('AdvancedDaemonSet rules', () => {
  test('fails when maxUnavailable and maxSurge are both zero', () => {
    fails(chart => new AdvancedDaemonSet(chart, 'agent', {
      containers: [{ image }], updateStrategy: AdvancedDaemonSetUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(0) }),
    }), '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.maxUnavailable: 0 cannot be 0 when maxSurge is 0');
  });

  test('fails with percentages above 100% or fractional', () => {
    fails(chart => new AdvancedDaemonSet(chart, 'agent', {
      containers: [{ image }],
      updateStrategy: AdvancedDaemonSetUpdateStrategy.surging({
        maxSurge: kplus.PercentOrAbsolute.percent(150), partition: kplus.PercentOrAbsolute.percent(12.5),
      }),
    }),
    '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.maxSurge: "150%" is more than 100%; use at most 100%',
    '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.partition: "12.5%" is not a non-negative integer or whole percentage');
  });

  test('fails with negative or over-100% partitions and budgets (rules 11, 17)', () => {
    fails(chart => new AdvancedDaemonSet(chart, 'agent', {
      containers: [{ image }],
      updateStrategy: AdvancedDaemonSetUpdateStrategy.rollingUpdate({
        maxUnavailable: kplus.PercentOrAbsolute.percent(150), partition: kplus.PercentOrAbsolute.absolute(-1),
      }),
    }),
    '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.maxUnavailable: "150%" is more than 100%; use at most 100%',
    '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.partition: -1 is not a non-negative integer or whole percentage');
    fails(chart => new AdvancedDaemonSet(chart, 'agent', {
      containers: [{ image }],
      updateStrategy: AdvancedDaemonSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(101) }),
    }), '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.partition: "101%" is more than 100%; use at most 100%');
  });

  test('fails with an invalid name and an invalid pod template (rules 1, 5)', () => {
    fails(chart => new AdvancedDaemonSet(chart, 'agent', {
      metadata: { name: 'Agent_1' },
      containers: [{ image, name: 'Main', portNumber: 70000 }],
    }),
    '[test/agent] DaemonSet "Agent_1" (apps.kruise.io/v1beta1) metadata.name: "Agent_1" must consist of lowercase letters, digits, \'-\' and \'.\'',
    '[test/agent] DaemonSet "Agent_1" (apps.kruise.io/v1beta1) spec.template.spec.containers[0].name: "Main" must consist of lowercase letters',
    '[test/agent] DaemonSet "Agent_1" (apps.kruise.io/v1beta1) spec.template.spec.containers[0].ports[0].containerPort: 70000 is not a valid port number');
  });

  test('fails with a restart policy other than Always and an empty selector', () => {
    fails(chart => new AdvancedDaemonSet(chart, 'agent', { select: false, restartPolicy: kplus.RestartPolicy.NEVER, containers: [{ image }] }),
      '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.template.spec.restartPolicy: "Never" is not allowed for an Advanced DaemonSet',
      '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.selector: {} is empty and would select every pod of the namespace; an empty selector is not valid for an Advanced DaemonSet');
  });

  test('fails when the selector does not match the pod labels', () => {
    fails(chart => {
      const ds = new AdvancedDaemonSet(chart, 'agent', { containers: [{ image }] });
      ds.select(kplus.LabelSelector.of({ labels: { app: 'agent' } }));
    }, '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.template.metadata.labels: {"cdk8s.io/metadata.addr":"test-agent-c8bbe121"} do not match spec.selector');
  });

  test('fails with an inPlaceUpdate lifecycle hook', () => {
    fails(chart => new AdvancedDaemonSet(chart, 'agent', { containers: [{ image }], lifecycle: { inPlaceUpdate: { labels: { 'example.com/x': 'y' } } } }),
      '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.lifecycle.inPlaceUpdate: {"labelsHandler":{"example.com/x":"y"}} is not supported for an Advanced DaemonSet; remove the inPlaceUpdate hook');
  });

  test('fails with burst replicas of 0 and a bad rollout node selector', () => {
    fails(chart => new AdvancedDaemonSet(chart, 'agent', {
      containers: [{ image }],
      burstReplicas: kplus.PercentOrAbsolute.absolute(0),
      updateStrategy: AdvancedDaemonSetUpdateStrategy.rollingUpdate({ nodeSelector: kplus.LabelSelector.of({ labels: { 'bad key': 'x' } }) }),
    }),
    '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.burstReplicas: 0 is not a positive integer or whole percentage: OpenKruise admits it, but the controller would create no pods',
    '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.selector.matchLabels["bad key"]: "bad key" key name part must consist of');
  });
});

describe('AdvancedDaemonSet warnings', () => {
  test('unused min-updated-ready-pods and pre-download gate off (a partition alone warns of nothing)', () => {
    const chart = Testing.chart();
    _registerGateSource(chart, { path: 'test/kruise', isEnabled: g => g !== 'PreDownloadImageForDaemonSetUpdate', howToEnable: g => `set featureGates.${g}` });
    new AdvancedDaemonSet(chart, 'agent', {
      containers: [{ image }],
      updateStrategy: AdvancedDaemonSetUpdateStrategy.rollingUpdate({ partition: kplus.PercentOrAbsolute.absolute(3) }),
      imagePreDownload: { minUpdatedReadyPods: kplus.PercentOrAbsolute.absolute(1) },
    });
    expect(Warnings.of(chart)).toEqual([
      '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) metadata.annotations: ["apps.kruise.io/image-predownload-min-updated-ready-pods"] ask for image pre-download, which needs the OpenKruise feature gate PreDownloadImageForDaemonSetUpdate, off in the control plane at \'test/kruise\', so they have no effect; set featureGates.PreDownloadImageForDaemonSetUpdate',
      '[test/agent] DaemonSet "test-agent-c88fbc15" (apps.kruise.io/v1beta1) metadata.annotations["apps.kruise.io/image-predownload-min-updated-ready-pods"]: "1" has no effect on an Advanced DaemonSet; drop minUpdatedReadyPods from imagePreDownload',
    ]);
  });
});

test('a partition of 0% is written as the integer 0', () => {
  const chart = Testing.chart();
  new AdvancedDaemonSet(chart, 'agent', { containers: [{ image }], updateStrategy: AdvancedDaemonSetUpdateStrategy.rollingUpdate({ partition: kplus.PercentOrAbsolute.percent(0) }) });
  expect(synthDs(chart).spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', partition: 0 } });
});
