import { Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  CloneSet, CloneSetUpdateStrategy, CloneSetUpdateType, KruiseReplicatedWorkload, UpdatePriority, Warnings,
} from '../src';
import { synthFails as fails } from './util/synth-fails';

const image = 'nginx:1.27';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const find = (manifests: any[], kind: string) => manifests.find(m => m.kind === kind);
const synthCloneSet = (chart: any) => find(Testing.synth(chart), 'CloneSet');

describe('CloneSet', () => {
  test('renders only what was set, through the L1 at apps.kruise.io/v1alpha1', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'web', { containers: [{ image }] });
    const m = synthCloneSet(chart);
    expect(m.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(m.kind).toBe('CloneSet');
    expect(Object.keys(m.spec).sort()).toEqual(['selector', 'template']);
    expect(m.spec.selector).toEqual({ matchLabels: { 'cdk8s.io/metadata.addr': 'test-web-c8694308' } });
    expect(m.spec.template.metadata.labels).toEqual({ 'cdk8s.io/metadata.addr': 'test-web-c8694308' });
    expect(m.spec.template.spec.containers[0].image).toBe(image);
    expect(m.metadata.annotations).toBeUndefined();
    expect(Warnings.of(chart)).toEqual([]);
    expect(m).toMatchSnapshot();
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    const cs = new CloneSet(chart, 'web', {
      metadata: { name: 'web', namespace: 'shop' },
      replicas: 10,
      minReady: Duration.seconds(5),
      progressDeadline: Duration.minutes(10),
      revisionHistoryLimit: 3,
      containers: [{ image, portNumber: 80 }],
      updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({
        partition: kplus.PercentOrAbsolute.percent(40),
        maxUnavailable: kplus.PercentOrAbsolute.absolute(2),
        maxSurge: kplus.PercentOrAbsolute.percent(10),
        paused: true,
        priority: UpdatePriority.weighted({ weight: 50, selector: kplus.LabelSelector.of({ labels: { tier: 'canary' } }) }),
        scatter: [{ key: 'zone', value: 'a' }],
        gracePeriod: Duration.seconds(15),
      }),
      scaleStrategy: { maxUnavailable: kplus.PercentOrAbsolute.percent(50), disablePvcReuse: true },
      podsToDelete: ['web-abcde'],
      lifecycle: {
        preDelete: { labels: { 'example.com/drained': 'true' }, markPodNotReady: true },
        inPlaceUpdate: { finalizers: ['example.com/unregister'] },
        preNormal: { labels: { 'example.com/registered': 'true' } },
      },
      imagePreDownload: { parallelism: 5, timeout: Duration.minutes(10), minUpdatedReadyPods: kplus.PercentOrAbsolute.percent(20) },
      volumeClaimTemplates: [{
        name: 'data',
        storage: Size.gibibytes(20),
        storageClassName: 'fast',
        accessModes: [kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE_POD],
        volumeMode: kplus.PersistentVolumeMode.FILE_SYSTEM,
        metadata: { labels: { backup: 'daily' } },
      }],
    });
    cs.containers[0].mount('/data', cs.claimVolume('data'));
    cs.deletePods('web-fghij', 'web-klmno');
    const m = synthCloneSet(chart);
    expect(m.metadata.name).toBe('web');
    expect(m.metadata.namespace).toBe('shop');
    expect(m.metadata.annotations).toEqual({
      'apps.kruise.io/image-predownload-parallelism': '5',
      'apps.kruise.io/image-predownload-timeout-seconds': '600',
      'apps.kruise.io/image-predownload-min-updated-ready-pods': '20%',
    });
    expect(m.spec.replicas).toBe(10);
    expect(m.spec.minReadySeconds).toBe(5);
    expect(m.spec.progressDeadlineSeconds).toBe(600);
    expect(m.spec.revisionHistoryLimit).toBe(3);
    expect(m.spec.updateStrategy).toEqual({
      type: 'InPlaceIfPossible',
      partition: '40%',
      maxUnavailable: 2,
      maxSurge: '10%',
      paused: true,
      priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'canary' } } }] },
      scatterStrategy: [{ key: 'zone', value: 'a' }],
      inPlaceUpdateStrategy: { gracePeriodSeconds: 15 },
    });
    expect(m.spec.scaleStrategy).toEqual({
      maxUnavailable: '50%', disablePVCReuse: true, podsToDelete: ['web-abcde', 'web-fghij', 'web-klmno'],
    });
    expect(m.spec.lifecycle).toEqual({
      preDelete: { labelsHandler: { 'example.com/drained': 'true' }, markPodNotReady: true },
      inPlaceUpdate: { finalizersHandler: ['example.com/unregister'] },
      preNormal: { labelsHandler: { 'example.com/registered': 'true' } },
    });
    expect(m.spec.volumeClaimTemplates).toEqual([{
      metadata: { name: 'data', labels: { backup: 'daily' } },
      spec: {
        accessModes: ['ReadWriteOncePod'],
        storageClassName: 'fast',
        volumeMode: 'Filesystem',
        resources: { requests: { storage: '20Gi' } },
      },
    }]);
    // the claim is mounted by name; the pod template carries no volume for it
    expect(m.spec.template.spec.containers[0].volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }]);
    expect(m.spec.template.spec.volumes).toBeUndefined();
  });

  test('recreate and inPlaceOnly strategies and ordered priority', () => {
    const chart = Testing.chart();
    const a = new CloneSet(chart, 'a', { containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.recreate({ maxSurge: kplus.PercentOrAbsolute.absolute(1) }) });
    new CloneSet(chart, 'b', {
      containers: [{ image }],
      updateStrategy: CloneSetUpdateStrategy.inPlaceOnly({ priority: UpdatePriority.ordered('example.com/order'), partition: kplus.PercentOrAbsolute.absolute(2) }),
    });
    expect(a.updateStrategy?.type).toBe(CloneSetUpdateType.RECREATE);
    const [ma, mb] = Testing.synth(chart).filter(m => m.kind === 'CloneSet');
    expect(ma.spec.updateStrategy).toEqual({ type: 'ReCreate', maxSurge: 1 });
    expect(mb.spec.updateStrategy).toEqual({ type: 'InPlaceOnly', partition: 2, priorityStrategy: { orderPriority: [{ orderedKey: 'example.com/order' }] } });
  });

  test('renders the same pod template as a kplus.Deployment with the same props', () => {
    const props = (chart: any): kplus.DeploymentProps => ({
      containers: [{
        image,
        portNumber: 8080,
        envVariables: { MODE: kplus.EnvValue.fromValue('prod') },
        volumeMounts: [{ path: '/cache', volume: kplus.Volume.fromEmptyDir(chart, 'cache', 'cache') }],
      }],
      serviceAccount: kplus.ServiceAccount.fromServiceAccountName(chart, 'sa', 'web-sa'),
      securityContext: { user: 1000, group: 1000 },
      podMetadata: { labels: { app: 'web' } },
    });
    const c1 = Testing.chart();
    const d = new kplus.Deployment(c1, 'web', props(c1));
    d.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('disk', 'ssd')));
    d.scheduling.spread();
    const c2 = Testing.chart();
    const cs = new CloneSet(c2, 'web', props(c2));
    cs.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('disk', 'ssd')));
    cs.scheduling.spread();
    const dep = find(Testing.synth(c1), 'Deployment');
    const clone = synthCloneSet(c2);
    expect(clone.spec.template).toEqual(dep.spec.template);
    expect(clone.spec.selector).toEqual(dep.spec.selector);
    expect(clone.spec.template.spec.serviceAccountName).toBe('web-sa');
    expect(clone.spec.template.spec.affinity.nodeAffinity).toBeDefined();
  });

  test('exposeViaService, connections and a HorizontalPodAutoscaler work as on a Deployment', () => {
    const chart = Testing.chart();
    const cs = new CloneSet(chart, 'web', { containers: [{ image, portNumber: 80, resources: { cpu: { request: kplus.Cpu.millis(100) } } }], isolate: true });
    const svc = cs.exposeViaService({ name: 'web' });
    new kplus.HorizontalPodAutoscaler(chart, 'hpa', { target: cs, maxReplicas: 10, metrics: [kplus.Metric.resourceCpu(kplus.MetricTarget.averageUtilization(70))] });
    const ms = Testing.synth(chart);
    const service = find(ms, 'Service');
    expect(svc.name).toBe('web');
    expect(service.spec.selector).toEqual({ 'cdk8s.io/metadata.addr': 'test-web-c8694308' });
    expect(service.spec.ports).toEqual([{ port: 80, targetPort: 80 }]);
    const hpa = find(ms, 'HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'test-web-c8ba1bf5' });
    expect(cs.hasAutoscaler).toBe(true);
    expect(synthCloneSet(chart).spec.replicas).toBeUndefined();
    expect(find(ms, 'NetworkPolicy')).toBeDefined();
  });

  test('fails to expose without a port', () => {
    const chart = Testing.chart();
    const cs = new CloneSet(chart, 'web', { containers: [{ image }] });
    expect(() => cs.exposeViaService()).toThrow(/Unable to expose CloneSet .* no port/);
    const cs2 = new CloneSet(chart, 'web2', { containers: [{ image, portNumber: 80 }] });
    expect(() => cs2.exposeViaService({ ports: [{ port: 81 }] })).toThrow('port 81 is not exposed by any container');
  });

  test('markForDeletionCommand gives the specified-delete label command', () => {
    const chart = Testing.chart();
    const cs = new CloneSet(chart, 'web', { metadata: { namespace: 'shop' }, containers: [{ image }] });
    expect(cs.markForDeletionCommand('web-a', 'web-b')).toBe('kubectl label pod -n shop web-a web-b apps.kruise.io/specified-delete=true');
    expect(KruiseReplicatedWorkload.SPECIFIED_DELETE_LABEL).toBe('apps.kruise.io/specified-delete');
    expect(() => cs.markForDeletionCommand()).toThrow('name at least one pod');
  });

  test('addVolumeClaimTemplate returns the volume to mount and refuses duplicates', () => {
    const chart = Testing.chart();
    const cs = new CloneSet(chart, 'web', { containers: [{ image }] });
    const v = cs.addVolumeClaimTemplate('logs', { storage: Size.mebibytes(512) });
    expect(v.name).toBe('logs');
    expect(() => cs.addVolumeClaimTemplate('logs', { storage: Size.gibibytes(1) })).toThrow('"logs" is already defined');
    expect(() => cs.claimVolume('nope')).toThrow('no claim template "nope"');
    expect(synthCloneSet(chart).spec.volumeClaimTemplates[0].spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '512Mi' } } });
  });

  test('output is deterministic', () => {
    const build = () => {
      const chart = Testing.chart();
      new CloneSet(chart, 'web', { replicas: 3, containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible() });
      return JSON.stringify(Testing.synth(chart));
    };
    expect(build()).toEqual(build());
  });
});

describe('CloneSet rules', () => {

  test('fails when the selector does not match the template labels', () => {
    fails(chart => {
      const cs = new CloneSet(chart, 'web', { containers: [{ image }] });
      cs.select(kplus.LabelSelector.of({ labels: { app: 'other' } }));
    }, '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.template.metadata.labels: {"cdk8s.io/metadata.addr":"test-web-c8694308"} do not match spec.selector',
    'add the selected labels to the pod metadata');
  });

  test('fails with an empty selector', () => {
    fails(chart => new CloneSet(chart, 'web', { select: false, containers: [{ image }] }),
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.selector: {} is empty and would select every pod of the namespace; an empty selector is not valid for a CloneSet');
  });

  test('fails without containers', () => {
    fails(chart => new CloneSet(chart, 'web'), '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.template.spec.containers: [] must list at least one container; add a container');
  });

  test('fails with a restart policy other than Always', () => {
    fails(chart => new CloneSet(chart, 'web', { restartPolicy: kplus.RestartPolicy.NEVER, containers: [{ image }] }),
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.template.spec.restartPolicy: "Never" is not allowed for a CloneSet; use RestartPolicy.ALWAYS');
  });

  test('fails with a negative replica count and partition', () => {
    fails(chart => new CloneSet(chart, 'web', {
      replicas: -1, containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.recreate({ partition: kplus.PercentOrAbsolute.absolute(-2) }),
    }), '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.replicas: -1 must be 0 or more', '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.partition: -2 is negative');
  });

  test('fails with fractional percentages the controller reads as 0', () => {
    fails(chart => new CloneSet(chart, 'web', {
      containers: [{ image }],
      updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({
        maxUnavailable: kplus.PercentOrAbsolute.percent(12.5), maxSurge: kplus.PercentOrAbsolute.percent(2.5),
      }),
      scaleStrategy: { maxUnavailable: kplus.PercentOrAbsolute.percent(0.5) },
    }),
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.maxUnavailable: "12.5%" is not a whole percentage; the webhook admits it but the CloneSet controller reads it as 0; use a whole percentage',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.maxSurge: "2.5%" is not a whole percentage',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.scaleStrategy.maxUnavailable: "0.5%" is not an integer or a whole percentage');
  });

  test('fails with maxSurge on InPlaceOnly', () => {
    fails(chart => new CloneSet(chart, 'web', {
      containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceOnly({ maxSurge: kplus.PercentOrAbsolute.absolute(1) }),
    }), '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.maxSurge: 1 must be 0 with InPlaceOnly; remove maxSurge or use inPlaceIfPossible()');
  });

  test('fails when maxUnavailable and maxSurge are both zero', () => {
    fails(chart => new CloneSet(chart, 'web', {
      containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.recreate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(0) }),
    }), '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.maxUnavailable: 0 and maxSurge 0 are both below one pod');
  });

  test('fails when the progress deadline is not above minReady', () => {
    fails(chart => new CloneSet(chart, 'web', { containers: [{ image }], minReady: Duration.seconds(30), progressDeadline: Duration.seconds(30) }),
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.progressDeadlineSeconds: 30 must be greater than minReadySeconds (30); raise progressDeadline above minReady');
  });

  test('fails with duplicate podsToDelete', () => {
    fails(chart => {
      const cs = new CloneSet(chart, 'web', { containers: [{ image }], podsToDelete: ['p1'] });
      cs.deletePods('p1', 'p2');
    }, '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.scaleStrategy.podsToDelete: ["p1"] are listed more than once; list each pod once');
  });

  test('fails with bad priority and scatter terms', () => {
    fails(chart => new CloneSet(chart, 'web', {
      containers: [{ image }],
      updateStrategy: CloneSetUpdateStrategy.recreate({
        priority: UpdatePriority.weighted({ weight: 101, selector: kplus.LabelSelector.of({ labels: { a: 'b' } }) }, { weight: 5, selector: kplus.LabelSelector.of() }),
        scatter: [{ key: '', value: 'x' }, { key: 'zone', value: 'a' }, { key: 'zone', value: 'a' }],
      }),
    }),
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.priorityStrategy.weightPriority[0].weight: 101 is out of range; use a weight between 0 and 100',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.priorityStrategy.weightPriority[1].matchSelector: {} is empty',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.scatterStrategy[0].key: "" is empty',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.scatterStrategy[2]: {"key":"zone","value":"a"} repeats another scatter term');
  });

  test('fails with an empty ordered priority key', () => {
    fails(chart => new CloneSet(chart, 'web', { containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.recreate({ priority: UpdatePriority.ordered('') }) }),
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.priorityStrategy.orderPriority[0].orderedKey: "" is empty');
  });

  test('fails with invalid lifecycle hooks', () => {
    fails(chart => new CloneSet(chart, 'web', {
      containers: [{ image }],
      lifecycle: { preDelete: { labels: { 'bad key!': 'x' } }, inPlaceUpdate: { finalizers: ['a/b/c'] }, preNormal: {} },
    }),
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.lifecycle.preDelete.labelsHandler["bad key!"]: "bad key!" key name part must consist of',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.lifecycle.inPlaceUpdate.finalizersHandler[0]: "a/b/c" must be a name with at most one',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.lifecycle.preNormal: {} has neither labels, finalizers nor markPodNotReady: OpenKruise admits it, but the hook does nothing');
  });

  test('fails with bad volume claim templates', () => {
    fails(chart => {
      const cs = new CloneSet(chart, 'web', { containers: [{ image, volumeMounts: [{ path: '/c', volume: kplus.Volume.fromEmptyDir(chart, 'v', 'cache') }] }] });
      cs.addVolumeClaimTemplate('Data', { storage: Size.gibibytes(1) });
      cs.addVolumeClaimTemplate('cache', { storage: Size.gibibytes(1) });
    },
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.volumeClaimTemplates[0].metadata.name: "Data" must consist of lowercase letters',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.volumeClaimTemplates[1].metadata.name: "cache" is also the name of a pod template volume');
  });

  test('fails with an invalid name and an invalid pod template', () => {
    fails(chart => new CloneSet(chart, 'web', {
      metadata: { name: 'Web' },
      containers: [{ image, name: 'Main', envVariables: { '1BAD': kplus.EnvValue.fromValue('x') }, portNumber: 70000 }],
    }),
    '[test/web] CloneSet "Web" (apps.kruise.io/v1alpha1) metadata.name: "Web" must consist of lowercase letters, digits, \'-\' and \'.\'',
    '[test/web] CloneSet "Web" (apps.kruise.io/v1alpha1) spec.template.spec.containers[0].name: "Main" must consist of lowercase letters',
    '[test/web] CloneSet "Web" (apps.kruise.io/v1alpha1) spec.template.spec.containers[0].env[0].name: "1BAD" must consist of letters, digits',
    '[test/web] CloneSet "Web" (apps.kruise.io/v1alpha1) spec.template.spec.containers[0].ports[0].containerPort: 70000 is not a valid port number');
  });

  test('fails with an invalid namespace, label and annotation key (rule 1)', () => {
    fails(chart => new CloneSet(chart, 'web', {
      metadata: { namespace: 'Shop', labels: { 'bad key': 'x' }, annotations: { 'a/b/c': 'x' } }, containers: [{ image }],
    }),
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) metadata.namespace: "Shop" must consist of lowercase letters',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) metadata.labels["bad key"]: "bad key" key name part must consist of',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) metadata.annotations["a/b/c"]: "a/b/c" key must be a name with at most one \'/\'');
  });

  test('fails with an invalid selector (rule 4)', () => {
    fails(chart => {
      const cs = new CloneSet(chart, 'web', { containers: [{ image }] });
      cs.select(kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('bad key', ['x'])] }));
    }, '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.selector.matchExpressions[0].key: "bad key" name part must consist of', 'fix the selector');
  });

  test('fails with a positive percent maxSurge on InPlaceOnly and an invalid priority selector (rules 14, 17)', () => {
    fails(chart => new CloneSet(chart, 'web', {
      replicas: 4,
      containers: [{ image }],
      updateStrategy: CloneSetUpdateStrategy.inPlaceOnly({
        maxSurge: kplus.PercentOrAbsolute.percent(10),
        priority: UpdatePriority.weighted({ weight: 10, selector: kplus.LabelSelector.of({ labels: { 'bad key': 'x' } }) }),
      }),
    }),
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.maxSurge: "10%" must be 0 with InPlaceOnly; remove maxSurge or use inPlaceIfPossible()',
    '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.priorityStrategy.weightPriority[0].matchSelector.matchLabels["bad key"]: "bad key" key name part must consist of');
  });

  test('fails with an image pre-download parallelism below 0', () => {
    fails(chart => new CloneSet(chart, 'web', { containers: [{ image }], imagePreDownload: { parallelism: -1 } }),
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) metadata.annotations["apps.kruise.io/image-predownload-parallelism"]: "-1" is not a non-negative integer');
  });
});

describe('CloneSet warnings', () => {
  test('a percent partition that does not divide the replicas says how it rounds', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'web', { replicas: 10, containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(99) }) });
    expect(Warnings.of(chart)).toEqual([
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.partition: "99%" is rounded up: with 10 replicas it keeps 9 pod(s) at the old revision and updates 1 (below 100% at least one pod is always updated); use PercentOrAbsolute.absolute(9) to state the split exactly',
    ]);
  });

  test('an ordinary partition has no warning (facts true of every partition are in the README)', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'web', { replicas: 4, containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(50) }) });
    new CloneSet(chart, 'api', { replicas: 4, containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.absolute(3) }) });
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('no rounding claim without replicas: an autoscaler decides the count', () => {
    const chart = Testing.chart();
    const cs = new CloneSet(chart, 'web', { containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(33) }) });
    cs.markHasAutoscaler();
    expect(Testing.synth(chart)[0].spec.replicas).toBeUndefined();
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('InPlaceIfPossible with maxSurge still creates surge pods', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'web', { containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ maxSurge: kplus.PercentOrAbsolute.absolute(1) }) });
    expect(Warnings.of(chart)).toEqual([
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.updateStrategy.maxSurge: 1 with InPlaceIfPossible still creates surge pods during every update, even when all pods could be updated in place; drop maxSurge for a pure in-place rollout',
    ]);
  });

  test('podsToDelete, preNormal markPodNotReady and skipped pre-download (volume claim templates: no warning)', () => {
    const chart = Testing.chart();
    const cs = new CloneSet(chart, 'web', {
      containers: [{ image }],
      lifecycle: { preNormal: { labels: { 'example.com/ok': 'true' }, markPodNotReady: true } },
      imagePreDownload: { parallelism: 2 },
    });
    cs.addVolumeClaimTemplate('data', { storage: Size.gibibytes(1) });
    cs.deletePods('web-x');
    expect(Warnings.of(chart)).toEqual([
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.scaleStrategy.podsToDelete: ["web-x"] names pods to delete, but OpenKruise only accepts names of pods this CloneSet already owns, so the first apply of a new CloneSet with podsToDelete is refused; add them (podsToDelete or deletePods()) once the CloneSet runs',
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) metadata.annotations: ["apps.kruise.io/image-predownload-parallelism"] ask for image pre-download, which OpenKruise skips with the ReCreate update strategy (it only serves in-place updates); drop imagePreDownload, or use CloneSetUpdateStrategy.inPlaceIfPossible() or inPlaceOnly()',
      '[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) spec.lifecycle.preNormal.markPodNotReady: true has no effect: OpenKruise honours markPodNotReady on the preDelete and inPlaceUpdate hooks only; remove it, or set markPodNotReady on the preDelete or inPlaceUpdate hook',
    ]);
  });

  test('pre-download is skipped for 3 replicas or fewer', () => {
    const chart = Testing.chart();
    new CloneSet(chart, 'web', { replicas: 3, containers: [{ image }], imagePreDownload: { parallelism: 2 }, updateStrategy: CloneSetUpdateStrategy.inPlaceOnly() });
    expect(Warnings.of(chart)).toEqual(['[test/web] CloneSet "test-web-c8ba1bf5" (apps.kruise.io/v1alpha1) metadata.annotations: ["apps.kruise.io/image-predownload-parallelism"] ask for image pre-download, which OpenKruise skips for 3 replica(s) (it only pre-downloads for more than 3); drop imagePreDownload, or run more than 3 replicas']);
  });
});

describe('fleet helpers', () => {
  test('spreadOver() creates a WorkloadSpread targeting the CloneSet', () => {
    const chart = Testing.chart();
    const web = new CloneSet(chart, 'web', { metadata: { name: 'web' }, containers: [{ image: 'nginx:1.27' }] });
    const spread = web.spreadOver({
      subsets: [
        { name: 'zone-a', requiredNodeLabels: [kplus.NodeLabelQuery.is('topology.kubernetes.io/zone', 'a')], maxReplicas: kplus.PercentOrAbsolute.absolute(2) },
        { name: 'rest' },
      ],
    });
    expect(spread.node.path).toBe('test/web/Spread');
    const ws = Testing.synth(chart).find(m => m.kind === 'WorkloadSpread');
    expect(ws.spec.targetRef).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' });
    expect(ws.spec.subsets.map((s: any) => s.name)).toEqual(['zone-a', 'rest']);
    expect(ws.spec.subsets[0].maxReplicas).toBe(2);
  });

  test('protect() creates a PodUnavailableBudget targeting the CloneSet', () => {
    const chart = Testing.chart();
    const web = new CloneSet(chart, 'web', { metadata: { name: 'web' }, containers: [{ image: 'nginx:1.27' }] });
    const pub = web.protect({ maxUnavailable: kplus.PercentOrAbsolute.percent(25) });
    expect(pub.node.path).toBe('test/web/Budget');
    const m = Testing.synth(chart).find(x => x.kind === 'PodUnavailableBudget');
    expect(m.spec.targetRef).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' });
    expect(m.spec.maxUnavailable).toBe('25%');
    expect(m.spec.minAvailable).toBeUndefined();
  });
});

test('a partition of 0% is written as the integer 0 (Argo CD, Flux and kubectl rollout status read integers)', () => {
  const chart = Testing.chart();
  new CloneSet(chart, 'web', { replicas: 4, containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(0) }) });
  new CloneSet(chart, 'api', { replicas: 4, containers: [{ image }], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible({ partition: kplus.PercentOrAbsolute.percent(25) }) });
  const [web, api] = Testing.synth(chart);
  expect(web.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', partition: 0 });
  expect(api.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', partition: '25%' });
});
