import { Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AdvancedStatefulSet, AdvancedStatefulSetUpdateStrategy, PodUpdatePolicy, PvcRetentionPolicy, ReserveOrdinal,
  UpdatePriority, VolumeClaimUpdatePolicy, Warnings,
} from '../src';
import { synthFails as fails } from './util/synth-fails';
import { _registerGateSource } from '../src/validation/gates';

const image = 'postgres:17';
const find = (manifests: any[], kind: string) => manifests.find(m => m.kind === kind);
const synthSts = (chart: any) => find(Testing.synth(chart), 'StatefulSet');

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());


describe('AdvancedStatefulSet', () => {
  test('renders apps.kruise.io/v1beta1 with a governing headless Service and nothing else unset', () => {
    const chart = Testing.chart();
    const sts = new AdvancedStatefulSet(chart, 'db', { containers: [{ image, portNumber: 5432 }] });
    const ms = Testing.synth(chart);
    const m = find(ms, 'StatefulSet');
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(Object.keys(m.spec).sort()).toEqual(['selector', 'serviceName', 'template']);
    const svc = find(ms, 'Service');
    expect(svc.spec.clusterIP).toBe('None');
    expect(svc.spec.ports).toEqual([{ port: 5432, targetPort: 5432 }]);
    expect(svc.spec.selector).toEqual(m.spec.selector.matchLabels);
    expect(m.spec.serviceName).toBe(svc.metadata.name);
    expect(sts.service.name).toBe(svc.metadata.name);
    expect(m.spec.template.spec.readinessGates).toBeUndefined();
    expect(m).toMatchSnapshot();
  });

  test('ports of containers added later reach the headless Service', () => {
    const chart = Testing.chart();
    const sts = new AdvancedStatefulSet(chart, 'db');
    sts.addContainer({ image, portNumber: 5432 });
    sts.addContainer({ image: 'exporter:1', name: 'metrics', portNumber: 9187 });
    expect(find(Testing.synth(chart), 'Service').spec.ports).toEqual([{ port: 5432, targetPort: 5432 }, { port: 9187, targetPort: 9187 }]);
  });

  test('the own governing Service is named like the workload', () => {
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'db', namespace: 'data' }, containers: [{ image, portNumber: 5432 }] });
    const ms = Testing.synth(chart);
    expect(find(ms, 'Service').metadata).toEqual({ name: 'db', namespace: 'data' });
    expect(find(ms, 'StatefulSet').spec.serviceName).toBe('db');
  });

  test('without any container port, the governing Service is headless and port-less', () => {
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'db', { metadata: { name: 'demo-asts' }, containers: [{ image }] });
    const ms = Testing.synth(chart);
    const m = find(ms, 'StatefulSet');
    const svc = find(ms, 'Service');
    expect(svc.metadata.name).toBe('demo-asts');
    expect(svc.spec).toEqual({ clusterIP: 'None', type: 'ClusterIP', selector: m.spec.selector.matchLabels });
    expect(m.spec.serviceName).toBe('demo-asts');
  });

  test('renders every prop field by field, with the InPlaceUpdateReady readiness gate', () => {
    const chart = Testing.chart();
    const own = new kplus.Service(chart, 'governing', { clusterIP: 'None', ports: [{ port: 5432 }] });
    const sts = new AdvancedStatefulSet(chart, 'db', {
      metadata: { name: 'db' },
      service: own,
      replicas: 5,
      revisionHistoryLimit: 4,
      podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
      containers: [{ image, portNumber: 5432 }],
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({
        partition: 2,
        maxUnavailable: kplus.PercentOrAbsolute.percent(40),
        podUpdatePolicy: PodUpdatePolicy.IN_PLACE_IF_POSSIBLE,
        paused: true,
        priority: UpdatePriority.ordered('example.com/rank'),
        minReady: Duration.seconds(20),
        gracePeriod: Duration.seconds(10),
      }),
      reserveOrdinals: [ReserveOrdinal.of(1), ReserveOrdinal.range(5, 7)],
      scaleStrategy: { maxUnavailable: kplus.PercentOrAbsolute.absolute(2) },
      pvcRetention: { whenDeleted: PvcRetentionPolicy.DELETE, whenScaled: PvcRetentionPolicy.RETAIN },
      ordinalsStart: 1,
      volumeClaimUpdatePolicy: VolumeClaimUpdatePolicy.ON_POD_ROLLING_UPDATE,
      lifecycle: { preDelete: { finalizers: ['example.com/backup'] } },
      imagePreDownload: { parallelism: 3 },
    });
    const data = sts.addVolumeClaimTemplate('data', { storage: Size.gibibytes(50), storageClassName: 'ssd' });
    sts.containers[0].mount('/var/lib/postgresql/data', data);
    const m = synthSts(chart);
    expect(sts.service).toBe(own);
    expect(m.metadata.name).toBe('db');
    expect(m.metadata.annotations).toEqual({ 'apps.kruise.io/image-predownload-parallelism': '3' });
    expect(m.spec.replicas).toBe(5);
    expect(m.spec.revisionHistoryLimit).toBe(4);
    expect(m.spec.serviceName).toBe(own.name);
    expect(m.spec.podManagementPolicy).toBe('Parallel');
    expect(m.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: 2,
        maxUnavailable: '40%',
        podUpdatePolicy: 'InPlaceIfPossible',
        paused: true,
        unorderedUpdate: { priorityStrategy: { orderPriority: [{ orderedKey: 'example.com/rank' }] } },
        minReadySeconds: 20,
        inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
      },
    });
    expect(m.spec.template.spec.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
    expect(m.spec.reserveOrdinals).toEqual([1, '5-7']);
    expect(m.spec.scaleStrategy).toEqual({ maxUnavailable: 2 });
    expect(m.spec.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: 'Delete', whenScaled: 'Retain' });
    expect(m.spec.ordinals).toEqual({ start: 1 });
    expect(m.spec.volumeClaimUpdateStrategy).toEqual({ type: 'OnPodRollingUpdate' });
    expect(m.spec.lifecycle).toEqual({ preDelete: { finalizersHandler: ['example.com/backup'] } });
    expect(m.spec.volumeClaimTemplates).toEqual([{
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'ssd', resources: { requests: { storage: '50Gi' } } },
    }]);
    expect(m.spec.template.spec.volumes).toBeUndefined();
    expect(find(Testing.synth(chart), 'Service').metadata.name).toBe(own.name);
  });

  test('onDelete, InPlaceOnly and an empty rolling update', () => {
    const chart = Testing.chart();
    new AdvancedStatefulSet(chart, 'a', { containers: [{ image, portNumber: 1 }], updateStrategy: AdvancedStatefulSetUpdateStrategy.onDelete() });
    new AdvancedStatefulSet(chart, 'b', { containers: [{ image, portNumber: 1 }], updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.IN_PLACE_ONLY }) });
    new AdvancedStatefulSet(chart, 'c', { containers: [{ image, portNumber: 1 }], updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate() });
    const [a, b, c] = Testing.synth(chart).filter(m => m.kind === 'StatefulSet');
    expect(a.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(b.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } });
    expect(b.spec.template.spec.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
    expect(c.spec.updateStrategy).toEqual({ type: 'RollingUpdate' });
    expect(c.spec.template.spec.readinessGates).toBeUndefined();
  });

  test('is a scaling target and exposes the specified-delete command', () => {
    const chart = Testing.chart();
    const sts = new AdvancedStatefulSet(chart, 'db', { replicas: 2, containers: [{ image, portNumber: 5432 }] });
    expect(sts.toScalingTarget()).toMatchObject({ kind: 'StatefulSet', apiVersion: 'apps.kruise.io/v1beta1', replicas: 2 });
    sts.markHasAutoscaler();
    expect(synthSts(chart).spec.replicas).toBeUndefined();
    expect(sts.markForDeletionCommand('db-2')).toBe('kubectl label pod db-2 apps.kruise.io/specified-delete=true');
  });

  test('fromStatefulSetManifest changes the apiVersion and keeps the spec', () => {
    const chart = Testing.chart();
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'data', uid: 'x', resourceVersion: '42', labels: { app: 'db' } },
      spec: {
        serviceName: 'db',
        replicas: 3,
        minReadySeconds: 10,
        selector: { matchLabels: { app: 'db' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'pg', image, resources: { requests: { cpu: '500m' } } }] } },
      },
      status: { replicas: 3 },
    };
    AdvancedStatefulSet.fromStatefulSetManifest(chart, 'db', manifest);
    const m = synthSts(chart);
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(m.metadata).toEqual({ name: 'db', namespace: 'data', labels: { app: 'db' } });
    expect(m.status).toBeUndefined();
    expect(m.spec.minReadySeconds).toBeUndefined();
    expect(m.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 1, minReadySeconds: 10 } });
    expect(m.spec.template.spec.containers[0].resources).toEqual({ requests: { cpu: '500m' } });
    expect(m.spec.serviceName).toBe('db');
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('fails to migrate something that is not an apps/v1 StatefulSet, or minReadySeconds with OnDelete', () => {
    const chart = Testing.chart();
    expect(() => AdvancedStatefulSet.fromStatefulSetManifest(chart, 'x', { apiVersion: 'apps/v1', kind: 'Deployment' }))
      .toThrow('expected an apps/v1 StatefulSet, got apps/v1/Deployment');
    expect(() => AdvancedStatefulSet.fromStatefulSetManifest(chart, 'y', { apiVersion: 'apps/v1', kind: 'StatefulSet', spec: { minReadySeconds: 5, updateStrategy: { type: 'OnDelete' } } }))
      .toThrow('spec.minReadySeconds (5) has no place with updateStrategy OnDelete');
  });

  test('fails when a migrated manifest breaks a rule', () => {
    fails(chart => AdvancedStatefulSet.fromStatefulSetManifest(chart, 'db', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: { selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'pg', image }] } } },
    }), '[test/db] StatefulSet "db" (apps.kruise.io/v1beta1) spec.template.metadata.labels: {"app":"web"} do not match spec.selector {"matchLabels":{"app":"db"}}');
  });
});

describe('AdvancedStatefulSet rules', () => {
  test('fails with maxUnavailable under OrderedReady', () => {
    fails(chart => new AdvancedStatefulSet(chart, 'db', {
      containers: [{ image, portNumber: 1 }],
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(2) }),
      scaleStrategy: { maxUnavailable: kplus.PercentOrAbsolute.percent(50) },
    }),
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.maxUnavailable: 2 must be 1 with podManagementPolicy OrderedReady; use PodManagementPolicy.PARALLEL or drop maxUnavailable',
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.scaleStrategy.maxUnavailable: "50%" must be 1 with podManagementPolicy OrderedReady');
  });

  test('fails with maxUnavailable 0 or a fractional percentage', () => {
    fails(chart => new AdvancedStatefulSet(chart, 'db', {
      podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
      containers: [{ image, portNumber: 1 }],
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(0) }),
      scaleStrategy: { maxUnavailable: kplus.PercentOrAbsolute.percent(12.5) },
    }),
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.maxUnavailable: 0 must allow at least one pod',
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.scaleStrategy.maxUnavailable: "12.5%" is not a non-negative integer or a whole percentage');
  });

  test('fails with an unordered update under OrderedReady, a negative partition and minReady above 300s', () => {
    fails(chart => new AdvancedStatefulSet(chart, 'db', {
      containers: [{ image, portNumber: 1 }],
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ unordered: true, partition: -1, minReady: Duration.minutes(6) }),
    }),
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.unorderedUpdate: {} is only allowed with podManagementPolicy Parallel, not OrderedReady',
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.partition: -1 must be 0 or more',
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.minReadySeconds: 360 is out of range; use 0 to 300 seconds');
  });

  test('fails with negative replicas and an empty selector (rules 15-16)', () => {
    fails(chart => new AdvancedStatefulSet(chart, 'db', { replicas: -1, select: false, containers: [{ image, portNumber: 1 }] }),
      '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.replicas: -1 must be 0 or more; use a non-negative number of replicas',
      '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.selector: {} is empty and would select every pod of the namespace; an empty selector is not valid for an Advanced StatefulSet');
  });

  test('fails with a 0% maxUnavailable under Parallel and a bad unordered priority (rules 4, 9, 13)', () => {
    fails(chart => new AdvancedStatefulSet(chart, 'db', {
      podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
      containers: [{ image, portNumber: 1 }],
      scaleStrategy: { maxUnavailable: kplus.PercentOrAbsolute.percent(0) },
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({
        priority: UpdatePriority.weighted({ weight: 101, selector: kplus.LabelSelector.of({ labels: { tier: 'a' } }) }),
      }),
    }),
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.scaleStrategy.maxUnavailable: "0%" must allow at least one pod; use 1 or more (or a positive percentage)',
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.unorderedUpdate.priorityStrategy.weightPriority[0].weight: 101 is out of range; use a weight between 0 and 100');
  });

  test('fails with names longer than 63 characters or with dots', () => {
    fails(chart => new AdvancedStatefulSet(chart, 'db', { metadata: { name: `db.${'x'.repeat(70)}` }, containers: [{ image, portNumber: 1 }] }),
      `[test/db] StatefulSet "db.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" (apps.kruise.io/v1beta1) metadata.name: "db.${'x'.repeat(70)}" is 73 characters long, more than 63; give the Advanced StatefulSet a name of at most 63 lowercase letters, digits and '-' (no dots)`,
      'must consist of lowercase letters, digits and \'-\', starting and ending with a letter or digit');
  });

  test('fails with bad reserved ordinals', () => {
    fails(chart => new AdvancedStatefulSet(chart, 'db', { containers: [{ image, portNumber: 1 }], reserveOrdinals: [ReserveOrdinal.of(-1), ReserveOrdinal.range(5, 3)] }),
      '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.reserveOrdinals[0]: -1 must be a non-negative ordinal',
      '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.reserveOrdinals[1]: "5-3" starts after it ends');
  });

  test('fails with the same pod-template checks as a CloneSet', () => {
    fails(chart => new AdvancedStatefulSet(chart, 'db', {
      restartPolicy: kplus.RestartPolicy.ON_FAILURE,
      containers: [{ image, portNumber: 1, name: 'bad_name' }],
    }),
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.template.spec.restartPolicy: "OnFailure" is not allowed for an Advanced StatefulSet',
    '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.template.spec.containers[0].name: "bad_name" must consist of lowercase letters');
  });

  test('fails with a partial PVC retention policy when the StatefulSetAutoDeletePVC gate is off', () => {
    fails(chart => {
      _registerGateSource(chart, { path: 'test/kruise', isEnabled: g => g !== 'StatefulSetAutoDeletePVC', howToEnable: g => `enable ${g}` });
      new AdvancedStatefulSet(chart, 'db', { containers: [{ image, portNumber: 1 }], pvcRetention: { whenScaled: PvcRetentionPolicy.DELETE } });
    }, '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) spec.persistentVolumeClaimRetentionPolicy.whenDeleted: (unset) is not supported; use Retain or Delete');
  });
});

describe('AdvancedStatefulSet warnings', () => {
  test('skipped pre-download (a partition or claim templates alone warn of nothing)', () => {
    const chart = Testing.chart();
    const sts = new AdvancedStatefulSet(chart, 'db', {
      containers: [{ image, portNumber: 1 }],
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ partition: 1 }),
      imagePreDownload: { timeout: Duration.minutes(1) },
    });
    sts.addVolumeClaimTemplate('data', { storage: Size.gibibytes(1) });
    expect(Warnings.of(chart)).toEqual([
      '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) metadata.annotations: ["apps.kruise.io/image-predownload-timeout-seconds"] ask for image pre-download, which OpenKruise skips unless the rolling update uses an in-place podUpdatePolicy; drop imagePreDownload, or use AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.IN_PLACE_IF_POSSIBLE })',
    ]);
  });

  test('pre-download gates that are off in the control plane', () => {
    const chart = Testing.chart();
    _registerGateSource(chart, { path: 'test/kruise', isEnabled: g => g !== 'PreDownloadImageForInPlaceUpdate', howToEnable: g => `set featureGates.${g}` });
    new AdvancedStatefulSet(chart, 'db', {
      replicas: 5,
      containers: [{ image, portNumber: 1 }],
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.IN_PLACE_IF_POSSIBLE }),
      imagePreDownload: { parallelism: 1 },
    });
    expect(Warnings.of(chart)).toEqual([
      '[test/db] StatefulSet "test-db-c8b96b87" (apps.kruise.io/v1beta1) metadata.annotations: ["apps.kruise.io/image-predownload-parallelism"] ask for image pre-download, which needs the OpenKruise feature gate PreDownloadImageForInPlaceUpdate, off in the control plane at \'test/kruise\', so they have no effect; set featureGates.PreDownloadImageForInPlaceUpdate',
    ]);
  });
});
