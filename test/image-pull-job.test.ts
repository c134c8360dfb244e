import { ApiObject, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AdvancedDaemonSet, CloneSet, ImagePullJob, ImagePullJobCompletionPolicy, ImagePullJobCompletionPolicyType, ImagePullNodes, KruiseControlPlane,
  SidecarSet, Warnings,
} from '../src';
import { synthFails as fails } from './util/synth-fails';
import { _registerGateSource } from '../src/validation/gates';

const image = 'registry.example.com/web:2.1.0';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const jobs = (chart: any) => Testing.synth(chart).filter((m: any) => m.kind === 'ImagePullJob');
const synthJob = (chart: any) => jobs(chart)[0];

describe('ImagePullJob', () => {
  test('renders only the image and the completionPolicy the schema requires, at the storage version apps.kruise.io/v1beta1', () => {
    const chart = Testing.chart();
    new ImagePullJob(chart, 'pull', { image });
    const manifests = Testing.synth(chart);
    expect(manifests).toHaveLength(1);
    const m = manifests[0];
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(m.kind).toBe('ImagePullJob');
    expect(m.spec).toEqual({ image, completionPolicy: {} });
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    const secret = kplus.Secret.fromSecretName(chart, 'reg', 'registry');
    const job = new ImagePullJob(chart, 'pull', {
      metadata: { name: 'warm-web', namespace: 'shop' },
      image,
      nodes: ImagePullNodes.ofPods(kplus.LabelSelector.of({ labels: { app: 'web' } })),
      parallelism: 10,
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      pullTimeout: Duration.minutes(5),
      backoffLimit: 2,
      pullSecrets: [secret],
      completionPolicy: ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(30), ttlAfterFinished: Duration.minutes(10) }),
      sandboxConfig: { labels: { team: 'shop' }, annotations: { 'registry.example.com/tenant': 'shop' } },
    });
    const m = synthJob(chart);
    expect(m.metadata).toEqual({ name: 'warm-web', namespace: 'shop' });
    expect(m.spec).toEqual({
      image,
      podSelector: { matchLabels: { app: 'web' } },
      parallelism: 10,
      pullSecrets: ['registry'],
      imagePullPolicy: 'Always',
      pullPolicy: { timeoutSeconds: 300, backoffLimit: 2 },
      completionPolicy: { type: 'Always', activeDeadlineSeconds: 1800, ttlSecondsAfterFinished: 600 },
      sandboxConfig: { labels: { team: 'shop' }, annotations: { 'registry.example.com/tenant': 'shop' } },
    });
    expect(job.image).toBe(image);
    expect(job.parallelism).toBe(10);
    expect(job.completionPolicy?.type).toBe(ImagePullJobCompletionPolicyType.ALWAYS);
    expect(job.resourceType).toBe('imagepulljobs');
  });

  test.each([
    ['all()', ImagePullNodes.all(), {}],
    ['named()', ImagePullNodes.named('node-1', 'node-2'), { selector: { names: ['node-1', 'node-2'] } }],
    ['labeled()', ImagePullNodes.labeled(kplus.LabelSelector.of({
      labels: { pool: 'web' }, expressions: [kplus.LabelExpression.exists('gpu')],
    })), { selector: { matchLabels: { pool: 'web' }, matchExpressions: [{ key: 'gpu', operator: 'Exists' }] } }],
    ['ofPods()', ImagePullNodes.ofPods(kplus.LabelSelector.of({ labels: { app: 'web' } })), { podSelector: { matchLabels: { app: 'web' } } }],
  ])('nodes %s', (_name, nodes, expected) => {
    const chart = Testing.chart();
    new ImagePullJob(chart, 'pull', { image, nodes });
    const { image: _i, completionPolicy: _c, ...rest } = synthJob(chart).spec;
    expect(rest).toEqual(expected);
  });

  test('completion policy never() renders type Never only', () => {
    const chart = Testing.chart();
    new ImagePullJob(chart, 'pull', { image, completionPolicy: ImagePullJobCompletionPolicy.never() });
    expect(synthJob(chart).spec.completionPolicy).toEqual({ type: 'Never' });
  });

  test('a pull timeout alone renders only timeoutSeconds; a sandbox config without labels or annotations renders nothing', () => {
    const chart = Testing.chart();
    new ImagePullJob(chart, 'pull', { image, pullTimeout: Duration.seconds(120), sandboxConfig: {} });
    const spec = synthJob(chart).spec;
    expect(spec.pullPolicy).toEqual({ timeoutSeconds: 120 });
    expect(spec.sandboxConfig).toBeUndefined();
  });

  test('its default child is the ImagePullJob object', () => {
    const chart = Testing.chart();
    const job = new ImagePullJob(chart, 'pull', { image });
    expect((job.node.defaultChild as ApiObject).kind).toBe('ImagePullJob');
    expect(ApiObject.of(job).apiVersion).toBe('apps.kruise.io/v1beta1');
  });

  describe('feature gates', () => {
    test('fails when the control plane of the app has ImagePullJobGate off, naming the job, the gate and the fix', () => {
      fails(chart => {
        new KruiseControlPlane(chart, 'kruise', { featureGates: { ImagePullJobGate: false } });
        new ImagePullJob(chart, 'pull', { image });
      }, "[test/pull] ImagePullJob \"test-pull-c800d210\" (apps.kruise.io/v1beta1) kind: \"ImagePullJob\" needs the OpenKruise feature gate ImagePullJobGate, which is off in the control plane at 'test/kruise' "
        + "(the webhook refuses every ImagePullJob then); set featureGates: { ImagePullJobGate: true } on the KruiseControlPlane at 'test/kruise'");
    });

    test('fails when KruiseDaemon is off', () => {
      const chart = Testing.chart();
      _registerGateSource(chart, { path: 'test/kruise', isEnabled: g => g !== 'KruiseDaemon', howToEnable: g => `set featureGates ${g}=true` });
      new ImagePullJob(chart, 'pull', { image });
      expect(() => Testing.synth(chart)).toThrow(
        "[test/pull] ImagePullJob \"test-pull-c800d210\" (apps.kruise.io/v1beta1) kind: \"ImagePullJob\" needs the OpenKruise feature gate KruiseDaemon, which is off in the control plane at 'test/kruise' (the webhook refuses every ImagePullJob then); set featureGates KruiseDaemon=true");
    });

    test('passes with the default control plane (which turns ImagePullJobGate on, as the Helm chart does)', () => {
      const chart = Testing.chart();
      new KruiseControlPlane(chart, 'kruise');
      new ImagePullJob(chart, 'pull', { image });
      expect(() => Testing.synth(chart)).not.toThrow();
    });
  });

  describe('admission rules an ImagePullJob user can hit', () => {
    test('an image that is not a valid reference', () => {
      fails(chart => new ImagePullJob(chart, 'pull', { image: 'Registry.example.com/Web:1' }),
        '[test/pull] ImagePullJob "test-pull-c800d210" (apps.kruise.io/v1beta1) spec.image: "Registry.example.com/Web:1" has uppercase letters in its repository name, which must be lowercase');
    });

    test('an empty image', () => {
      fails(chart => new ImagePullJob(chart, 'pull', { image: '' }), '[test/pull] ImagePullJob "test-pull-c800d210" (apps.kruise.io/v1beta1) spec.image: "" is required; name the image to pull on the nodes, e.g. nginx:1.25');
    });

    test('an active deadline shorter than the pull timeout', () => {
      fails(chart => new ImagePullJob(chart, 'pull', {
        image, completionPolicy: ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(5) }),
      }), '[test/pull] ImagePullJob "test-pull-c800d210" (apps.kruise.io/v1beta1) spec.completionPolicy.activeDeadlineSeconds: 300 is less than pullPolicy.timeoutSeconds (600), so the job can time out before one pull does; '
        + 'use at least 600 seconds, or lower pullPolicy.timeoutSeconds');
    });

    test('an active deadline that is fine once the pull timeout is lowered', () => {
      const chart = Testing.chart();
      new ImagePullJob(chart, 'pull', {
        image, pullTimeout: Duration.minutes(2), completionPolicy: ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(5) }),
      });
      expect(synthJob(chart).spec.completionPolicy.activeDeadlineSeconds).toBe(300);
    });

    test('a negative parallelism', () => {
      fails(chart => new ImagePullJob(chart, 'pull', { image, parallelism: -1 }),
        '[test/pull] ImagePullJob "test-pull-c800d210" (apps.kruise.io/v1beta1) spec.parallelism: -1 is negative; use 0 or more nodes pulling at the same time');
    });

    test('a node listed twice', () => {
      fails(chart => new ImagePullJob(chart, 'pull', { image, nodes: ImagePullNodes.named('n1', 'n1') }),
        '[test/pull] ImagePullJob "test-pull-c800d210" (apps.kruise.io/v1beta1) spec.selector.names[1]: "n1" is listed twice; list every node once');
    });

    test('a pull secret whose name no Secret can have', () => {
      fails(chart => new ImagePullJob(chart, 'pull', { image, pullSecrets: [kplus.Secret.fromSecretName(chart, 's', 'Registry_Creds')] }),
        '[test/pull] ImagePullJob "test-pull-c800d210" (apps.kruise.io/v1beta1) spec.pullSecrets[0]: "Registry_Creds"');
    });
  });

  describe('errors of the construct', () => {
    test('fails imagePullPolicy Never, which pulls nothing', () => {
      const chart = Testing.chart();
      expect(() => new ImagePullJob(chart, 'pull', { image, imagePullPolicy: kplus.ImagePullPolicy.NEVER })).toThrow(
        "ImagePullJob at 'test/pull': 'imagePullPolicy' (Never) would pull nothing; use ImagePullPolicy.ALWAYS or IF_NOT_PRESENT");
    });

    test('fails a parallelism that is not a whole number', () => {
      const chart = Testing.chart();
      expect(() => new ImagePullJob(chart, 'pull', { image, parallelism: 2.5 })).toThrow(
        "ImagePullJob at 'test/pull': 'parallelism' (2.5) must be a whole number of nodes; use e.g. 3");
    });

    test('fails named() with no node and ofPods() with an empty selector', () => {
      expect(() => ImagePullNodes.named()).toThrow('ImagePullNodes.named() needs at least one node name; use ImagePullNodes.all() for every node');
      expect(() => ImagePullNodes.ofPods(kplus.LabelSelector.of({}))).toThrow(
        'ImagePullNodes.ofPods() needs a non-empty pod selector (an empty one selects every pod of the namespace); use ImagePullNodes.all() for every node');
    });

    test('fails a pull timeout that is not whole seconds, naming the construct and the prop', () => {
      fails(chart => new ImagePullJob(chart, 'pull', { image, pullTimeout: Duration.millis(1500) }),
        '[test/pull] ImagePullJob "test-pull-c800d210" (apps.kruise.io/v1beta1) pullTimeout: "1.5 seconds" is not a whole number of seconds; use Duration.seconds(2)');
    });
  });
});

describe('prePullImages()', () => {
  test('a CloneSet pre-pulls each distinct image of its containers on the nodes of its pods, in its namespace', () => {
    const chart = Testing.chart();
    const auth = kplus.Secret.fromSecretName(chart, 'reg', 'registry');
    const web = new CloneSet(chart, 'web', {
      metadata: { namespace: 'shop' },
      podMetadata: { labels: { app: 'web' } },
      dockerRegistryAuth: auth,
      initContainers: [{ name: 'migrate', image }],
      containers: [{ name: 'web', image }, { name: 'proxy', image: 'envoyproxy/envoy:v1.31.0' }],
    });
    const pulled = web.prePullImages({
      parallelism: 5,
      completionPolicy: ImagePullJobCompletionPolicy.always({ ttlAfterFinished: Duration.hours(1) }),
    });
    expect(pulled.map(j => j.node.id)).toEqual(['PrePull-migrate', 'PrePull-proxy']);
    const out = jobs(chart);
    expect(out.map((j: any) => j.spec.image)).toEqual([image, 'envoyproxy/envoy:v1.31.0']);
    for (const j of out) {
      expect(j.metadata.namespace).toBe('shop');
      expect(j.spec.podSelector).toEqual({ matchLabels: web.matchLabels });
      expect(Object.keys(web.matchLabels)).toEqual(['cdk8s.io/metadata.addr']);
      expect(j.spec.parallelism).toBe(5);
      expect(j.spec.pullSecrets).toEqual(['registry']);
      expect(j.spec.completionPolicy).toEqual({ type: 'Always', ttlSecondsAfterFinished: 3600 });
    }
  });

  test('the pod selector is read at synth, so select() after prePullImages() counts', () => {
    const chart = Testing.chart();
    const web = new CloneSet(chart, 'web', { select: false, podMetadata: { labels: { app: 'web' } }, containers: [{ image }] });
    web.prePullImages();
    web.select(kplus.LabelSelector.of({ labels: { app: 'web' } }));
    expect(synthJob(chart).spec.podSelector).toEqual({ matchLabels: { app: 'web' } });
  });

  test('fails a workload without a pod selector, which would pull on the nodes of every pod', () => {
    fails(chart => new CloneSet(chart, 'web', { select: false, containers: [{ image }] }).prePullImages(),
      "prePullImages(): the workload at 'test/web' has no pod selector");
  });

  test('fails a workload without containers', () => {
    const chart = Testing.chart();
    expect(() => new CloneSet(chart, 'web').prePullImages()).toThrow(
      "prePullImages() at 'test/web': the workload has no container yet, so there is no image to pull; add the containers first");
  });

  test('an AdvancedDaemonSet pre-pulls too, and the jobs carry the gate check', () => {
    fails(chart => {
      new KruiseControlPlane(chart, 'kruise', { featureGates: { ImagePullJobGate: false } });
      new AdvancedDaemonSet(chart, 'agent', { containers: [{ name: 'agent', image }] }).prePullImages();
    }, "[test/agent/PrePull-agent] ImagePullJob \"test-agent-prepull-agent-c8bcecc2\" (apps.kruise.io/v1beta1) kind: \"ImagePullJob\" needs the OpenKruise feature gate ImagePullJobGate, which is off in the control plane at 'test/kruise' (the webhook refuses every ImagePullJob then); set featureGates: { ImagePullJobGate: true } on the KruiseControlPlane at 'test/kruise'");
  });

  test('SidecarSet.prePullImages() pulls the sidecar images on the nodes of the pods it selects in its namespace', () => {
    const chart = Testing.chart();
    const sidecars = new SidecarSet(chart, 'log', {
      selector: kplus.LabelSelector.of({ labels: { logging: 'on' } }),
      namespace: 'shop',
      containers: [{ name: 'fluent-bit', image: 'fluent/fluent-bit:3.1' }],
    });
    const pulled = sidecars.prePullImages({ backoffLimit: 1 });
    expect(pulled.map(j => j.node.id)).toEqual(['PrePull-fluent-bit']);
    const j = synthJob(chart);
    expect(j.metadata.namespace).toBe('shop');
    expect(j.spec).toEqual({
      image: 'fluent/fluent-bit:3.1', podSelector: { matchLabels: { logging: 'on' } }, pullPolicy: { backoffLimit: 1 }, completionPolicy: {},
    });
  });

  test('SidecarSet.prePullImages() without a namespace needs one, or other nodes', () => {
    const chart = Testing.chart();
    const sidecars = new SidecarSet(chart, 'log', {
      selector: kplus.LabelSelector.of({ labels: { logging: 'on' } }),
      containers: [{ name: 'fluent-bit', image: 'fluent/fluent-bit:3.1' }],
    });
    expect(() => sidecars.prePullImages()).toThrow("SidecarSet at 'test/log': prePullImages() needs 'namespace' (the SidecarSet has no 'namespace' prop)");
    sidecars.prePullImages({ nodes: ImagePullNodes.all() });
    const j = synthJob(chart);
    expect(j.metadata.namespace).toBeUndefined();
    expect(j.spec).toEqual({ image: 'fluent/fluent-bit:3.1', completionPolicy: {} });
  });
});
