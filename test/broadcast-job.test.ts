import { ApiObject, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  BroadcastJob, BroadcastJobCompletionPolicy, BroadcastJobCompletionPolicyType, BroadcastJobFailurePolicy, BroadcastJobFailurePolicyType, Warnings,
} from '../src';
import { synthFails as fails } from './util/synth-fails';

const image = 'busybox:1.36';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const synthJob = (chart: any) => Testing.synth(chart).find((m: any) => m.kind === 'BroadcastJob');

describe('BroadcastJob', () => {
  test('renders only what was set, at the storage version apps.kruise.io/v1beta1, restartPolicy Never', () => {
    const chart = Testing.chart();
    new BroadcastJob(chart, 'bj', { containers: [{ image }] });
    const manifests = Testing.synth(chart);
    expect(manifests).toHaveLength(1);
    const m = manifests[0];
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(m.kind).toBe('BroadcastJob');
    expect(Object.keys(m.spec)).toEqual(['template']);
    expect(m.spec.template.metadata.labels).toEqual({ 'cdk8s.io/metadata.addr': 'test-bj-c807c2cd' });
    expect(m.spec.template.spec.restartPolicy).toBe('Never');
    expect(m.spec.template.spec.containers[0].image).toBe(image);
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    const bj = new BroadcastJob(chart, 'bj', {
      metadata: { name: 'node-check', namespace: 'ops' },
      podMetadata: { labels: { app: 'node-check' } },
      containers: [{ image, command: ['sh', '-c', 'df -h /host'] }],
      restartPolicy: kplus.RestartPolicy.ON_FAILURE,
      parallelism: kplus.PercentOrAbsolute.percent(25),
      completionPolicy: BroadcastJobCompletionPolicy.always({ activeDeadline: Duration.hours(1), ttlAfterFinished: Duration.minutes(10) }),
      failurePolicy: BroadcastJobFailurePolicy.continueOnFailure({ restartLimit: 2 }),
      paused: true,
    });
    bj.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('pool', 'web')));
    const m = synthJob(chart);
    expect(m.metadata).toEqual({ name: 'node-check', namespace: 'ops' });
    expect(m.spec.parallelism).toBe('25%');
    expect(m.spec.completionPolicy).toEqual({ type: 'Always', activeDeadlineSeconds: 3600, ttlSecondsAfterFinished: 600 });
    expect(m.spec.failurePolicy).toEqual({ type: 'Continue', restartLimit: 2 });
    expect(m.spec.paused).toBe(true);
    expect(m.spec.template.metadata.labels.app).toBe('node-check');
    expect(m.spec.template.spec.restartPolicy).toBe('OnFailure');
    expect(m.spec.template.spec.containers[0].command).toEqual(['sh', '-c', 'df -h /host']);
    expect(m.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms)
      .toEqual([{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['web'] }] }]);
    expect(bj.parallelism?.value).toBe('25%');
    expect(bj.completionPolicy?.type).toBe(BroadcastJobCompletionPolicyType.ALWAYS);
    expect(bj.failurePolicy?.type).toBe(BroadcastJobFailurePolicyType.CONTINUE);
    expect(bj.paused).toBe(true);
    expect(bj.resourceType).toBe('broadcastjobs');
  });

  test.each([
    ['always() with no options', BroadcastJobCompletionPolicy.always(), { type: 'Always' }],
    ['never()', BroadcastJobCompletionPolicy.never(), { type: 'Never' }],
  ])('completion policy %s', (_name, policy, expected) => {
    const chart = Testing.chart();
    new BroadcastJob(chart, 'bj', { containers: [{ image }], completionPolicy: policy });
    expect(synthJob(chart).spec.completionPolicy).toEqual(expected);
  });

  test.each([
    ['continueOnFailure()', BroadcastJobFailurePolicy.continueOnFailure(), { type: 'Continue' }],
    ['failFast()', BroadcastJobFailurePolicy.failFast(), { type: 'FailFast' }],
    ['failFast({ restartLimit })', BroadcastJobFailurePolicy.failFast({ restartLimit: 0 }), { type: 'FailFast', restartLimit: 0 }],
    ['pause({ restartLimit })', BroadcastJobFailurePolicy.pause({ restartLimit: 3 }), { type: 'Pause', restartLimit: 3 }],
  ])('failure policy %s', (_name, policy, expected) => {
    const chart = Testing.chart();
    new BroadcastJob(chart, 'bj', { containers: [{ image }], failurePolicy: policy });
    expect(synthJob(chart).spec.failurePolicy).toEqual(expected);
  });

  test('absolute parallelism renders as a number', () => {
    const chart = Testing.chart();
    new BroadcastJob(chart, 'bj', { containers: [{ image }], parallelism: kplus.PercentOrAbsolute.absolute(10) });
    expect(synthJob(chart).spec.parallelism).toBe(10);
  });

  test('renders lazily: containers and volumes added after construction count', () => {
    const chart = Testing.chart();
    const bj = new BroadcastJob(chart, 'bj');
    const c = bj.addContainer({ image });
    const host = kplus.Volume.fromHostPath(chart, 'host', 'host', { path: '/', type: kplus.HostPathVolumeType.DIRECTORY });
    c.mount('/host', host, { readOnly: true });
    const spec = synthJob(chart).spec.template.spec;
    expect(spec.containers[0].volumeMounts).toEqual([{ mountPath: '/host', name: 'host', readOnly: true }]);
    expect(spec.volumes).toEqual([{ name: 'host', hostPath: { path: '/', type: 'Directory' } }]);
  });

  test('its default child is the BroadcastJob object', () => {
    const chart = Testing.chart();
    const bj = new BroadcastJob(chart, 'bj', { containers: [{ image }] });
    expect((bj.node.defaultChild as ApiObject).kind).toBe('BroadcastJob');
    expect(ApiObject.of(bj).apiVersion).toBe('apps.kruise.io/v1beta1');
  });

  test('isolate adds a deny-all NetworkPolicy', () => {
    const chart = Testing.chart();
    new BroadcastJob(chart, 'bj', { containers: [{ image }], isolate: true });
    expect(Testing.synth(chart).map((m: any) => m.kind).sort()).toEqual(['BroadcastJob', 'NetworkPolicy']);
  });

  describe('admission rules a BroadcastJob user can hit', () => {
    test('a pod restart policy of Always', () => {
      fails(chart => new BroadcastJob(chart, 'bj', { restartPolicy: kplus.RestartPolicy.ALWAYS, containers: [{ image }] }),
        '[test/bj] BroadcastJob "test-bj-c86cf0f7" (apps.kruise.io/v1beta1) spec.template.spec.restartPolicy: "Always" is not allowed for the pods of a BroadcastJob, which run to completion; set restartPolicy to Never or OnFailure (it defaults to Always)');
    });

    test('a preset controller pod label', () => {
      fails(chart => new BroadcastJob(chart, 'bj', { podMetadata: { labels: { 'broadcastjob-name': 'x' } }, containers: [{ image }] }),
        '[test/bj] BroadcastJob "test-bj-c86cf0f7" (apps.kruise.io/v1beta1) spec.template.metadata.labels["broadcastjob-name"]: "x" is set by the BroadcastJob controller and may not be preset; remove the label from the pod template');
    });

    test('a negative parallelism', () => {
      fails(chart => new BroadcastJob(chart, 'bj', { parallelism: kplus.PercentOrAbsolute.absolute(-1), containers: [{ image }] }),
        '[test/bj] BroadcastJob "test-bj-c86cf0f7" (apps.kruise.io/v1beta1) spec.parallelism: -1 is negative: OpenKruise admits it, but the job never runs a pod; use 0 or more (unset means no limit)');
    });

    test('a parallelism that is not a whole number', () => {
      fails(chart => new BroadcastJob(chart, 'bj', { parallelism: kplus.PercentOrAbsolute.percent(12.5), containers: [{ image }] }),
        '[test/bj] BroadcastJob "test-bj-c86cf0f7" (apps.kruise.io/v1beta1) spec.parallelism: "12.5%" is neither an integer nor an integer percentage');
    });

    test('no container', () => {
      fails(chart => new BroadcastJob(chart, 'bj'), '[test/bj] BroadcastJob "test-bj-c86cf0f7" (apps.kruise.io/v1beta1) spec.template.spec.containers: [] must list at least one container; add a container');
    });

    test('a name that is not a DNS-1123 label', () => {
      fails(chart => new BroadcastJob(chart, 'bj', { metadata: { name: 'node.check' }, containers: [{ image }] }), '[test/bj] BroadcastJob "node.check" (apps.kruise.io/v1beta1) metadata.name: "node.check"');
    });
  });

  describe('errors of the construct', () => {
    test('a deadline that is not whole seconds names the construct and the prop', () => {
      fails(chart => new BroadcastJob(chart, 'bj', {
        containers: [{ image }],
        completionPolicy: BroadcastJobCompletionPolicy.always({ activeDeadline: Duration.millis(1500) }),
      }), '[test/bj] BroadcastJob "test-bj-c86cf0f7" (apps.kruise.io/v1beta1) completionPolicy.activeDeadline: "1.5 seconds" is not a whole number of seconds; use Duration.seconds(2)');
    });

    test('a time to live that is not whole seconds', () => {
      fails(chart => new BroadcastJob(chart, 'bj', {
        containers: [{ image }],
        completionPolicy: BroadcastJobCompletionPolicy.always({ ttlAfterFinished: Duration.millis(500) }),
      }), '[test/bj] BroadcastJob "test-bj-c86cf0f7" (apps.kruise.io/v1beta1) completionPolicy.ttlAfterFinished: "0.5 seconds" is not a whole number of seconds; use Duration.seconds(1)');
    });
  });
});
