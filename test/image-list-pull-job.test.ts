import { ApiObject, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { ImageListPullJob, ImagePullJobCompletionPolicy, ImagePullJobCompletionPolicyType, ImagePullNodes, KruiseControlPlane, Warnings } from '../src';
import { synthFails as fails } from './util/synth-fails';
import { _registerGateSource } from '../src/validation/gates';

const images = ['nginx:1.27', 'redis:7.4'];

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const synthJob = (chart: any) => Testing.synth(chart).find((m: any) => m.kind === 'ImageListPullJob');

describe('ImageListPullJob', () => {
  test('renders only the images and the completionPolicy the schema requires, at the storage version apps.kruise.io/v1beta1', () => {
    const chart = Testing.chart();
    new ImageListPullJob(chart, 'warm', { images });
    const manifests = Testing.synth(chart);
    expect(manifests).toHaveLength(1);
    const m = manifests[0];
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(m.kind).toBe('ImageListPullJob');
    expect(m.spec).toEqual({ images, completionPolicy: {} });
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop field by field (the pull settings are those of an ImagePullJob)', () => {
    const chart = Testing.chart();
    const job = new ImageListPullJob(chart, 'warm', {
      metadata: { name: 'warm-base', namespace: 'shop' },
      images,
      nodes: ImagePullNodes.labeled(kplus.LabelSelector.of({ labels: { pool: 'web' } })),
      parallelism: 10,
      imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
      pullTimeout: Duration.minutes(5),
      backoffLimit: 1,
      pullSecrets: [kplus.Secret.fromSecretName(chart, 'reg', 'registry')],
      completionPolicy: ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(30), ttlAfterFinished: Duration.hours(1) }),
      sandboxConfig: { annotations: { 'registry.example.com/tenant': 'shop' } },
    });
    const m = synthJob(chart);
    expect(m.metadata).toEqual({ name: 'warm-base', namespace: 'shop' });
    expect(m.spec).toEqual({
      images,
      selector: { matchLabels: { pool: 'web' } },
      parallelism: 10,
      pullSecrets: ['registry'],
      imagePullPolicy: 'IfNotPresent',
      pullPolicy: { timeoutSeconds: 300, backoffLimit: 1 },
      completionPolicy: { type: 'Always', activeDeadlineSeconds: 1800, ttlSecondsAfterFinished: 3600 },
      sandboxConfig: { annotations: { 'registry.example.com/tenant': 'shop' } },
    });
    expect(job.images).toEqual(images);
    expect(job.parallelism).toBe(10);
    expect(job.completionPolicy?.type).toBe(ImagePullJobCompletionPolicyType.ALWAYS);
    expect(job.resourceType).toBe('imagelistpulljobs');
  });

  test.each([
    ['all()', ImagePullNodes.all(), {}],
    ['named()', ImagePullNodes.named('node-1'), { selector: { names: ['node-1'] } }],
    ['ofPods()', ImagePullNodes.ofPods(kplus.LabelSelector.of({ labels: { app: 'web' } })), { podSelector: { matchLabels: { app: 'web' } } }],
  ])('nodes %s', (_name, nodes, expected) => {
    const chart = Testing.chart();
    new ImageListPullJob(chart, 'warm', { images, nodes });
    const { images: _i, completionPolicy: _c, ...rest } = synthJob(chart).spec;
    expect(rest).toEqual(expected);
  });

  test('addImage() after construction counts; images returns a copy; never() renders type Never only', () => {
    const chart = Testing.chart();
    const job = new ImageListPullJob(chart, 'warm', { images: ['nginx:1.27'], completionPolicy: ImagePullJobCompletionPolicy.never() });
    job.images.push('ignored:1');
    job.addImage('redis:7.4');
    expect(synthJob(chart).spec).toEqual({ images, completionPolicy: { type: 'Never' } });
  });

  test('its default child is the ImageListPullJob object', () => {
    const job = new ImageListPullJob(Testing.chart(), 'warm', { images });
    expect((job.node.defaultChild as ApiObject).kind).toBe('ImageListPullJob');
  });

  describe('feature gates', () => {
    test('fails when the control plane of the app has ImagePullJobGate off', () => {
      fails(chart => {
        new KruiseControlPlane(chart, 'kruise', { featureGates: { ImagePullJobGate: false } });
        new ImageListPullJob(chart, 'warm', { images });
      }, "[test/warm] ImageListPullJob \"test-warm-c8dd58d5\" (apps.kruise.io/v1beta1) kind: \"ImageListPullJob\" needs the OpenKruise feature gate ImagePullJobGate, which is off in the control plane at 'test/kruise' "
        + "(the webhook refuses every ImageListPullJob then); set featureGates: { ImagePullJobGate: true } on the KruiseControlPlane at 'test/kruise'");
    });

    test('fails when KruiseDaemon is off', () => {
      const chart = Testing.chart();
      _registerGateSource(chart, { path: 'test/kruise', isEnabled: g => g !== 'KruiseDaemon', howToEnable: g => `set featureGates ${g}=true` });
      new ImageListPullJob(chart, 'warm', { images });
      expect(() => Testing.synth(chart)).toThrow(
        "[test/warm] ImageListPullJob \"test-warm-c8dd58d5\" (apps.kruise.io/v1beta1) kind: \"ImageListPullJob\" needs the OpenKruise feature gate KruiseDaemon, which is off in the control plane at 'test/kruise' (the webhook refuses every ImageListPullJob then); set featureGates KruiseDaemon=true");
    });

    test('passes with the default control plane', () => {
      const chart = Testing.chart();
      new KruiseControlPlane(chart, 'kruise');
      new ImageListPullJob(chart, 'warm', { images });
      expect(() => Testing.synth(chart)).not.toThrow();
    });
  });

  // The rules of section 11 of the v1.9.0 webhook rules, through the construct. Rules 2 (names
  // with labels), 4 (podSelector with selector), 9 (an unknown completion type) and 10 (Never with a
  // deadline) cannot be written with ImagePullNodes and ImagePullJobCompletionPolicy.
  describe('admission rules, through the construct', () => {
    test('rule 2: the node label selector is valid', () => {
      fails(chart => new ImageListPullJob(chart, 'warm', {
        images, nodes: ImagePullNodes.labeled(kplus.LabelSelector.of({ expressions: [kplus.LabelExpression.in('pool', [])] })),
      }), '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.selector.matchExpressions[0].values: [] must list at least one value for operator In; fix the node selector');
    });

    test('rule 3: every node listed once', () => {
      fails(chart => new ImageListPullJob(chart, 'warm', { images, nodes: ImagePullNodes.named('n1', 'n2', 'n1') }),
        '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.selector.names[2]: "n1" is listed twice; list every node once');
    });

    test('rule 4: the pod selector is valid', () => {
      fails(chart => new ImageListPullJob(chart, 'warm', {
        images, nodes: ImagePullNodes.ofPods(kplus.LabelSelector.of({ labels: { 'bad key': 'x' } })),
      }), '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.podSelector.matchLabels');
    });

    test('rules 5 to 7: at least one image, each once, at most 255', () => {
      fails(chart => new ImageListPullJob(chart, 'warm', { images: [] }), '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.images: [] is empty; list at least one image to pull, e.g. ["nginx:1.25"]');
      fails(chart => new ImageListPullJob(chart, 'warm', { images: ['nginx:1.27', 'redis:7.4', 'nginx:1.27'] }),
        '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.images[2]: "nginx:1.27" repeats images[0]; list every image once');
      fails(chart => new ImageListPullJob(chart, 'warm', { images: Array.from({ length: 256 }, (_, i) => `app-${i}:v1`) }),
        '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.images: "256 images" are more than the 255 one job may pull; split the list over several ImageListPullJobs');
    });

    test('rule 8: every image a valid reference', () => {
      fails(chart => new ImageListPullJob(chart, 'warm', { images: ['nginx:1.27', 'Redis:7'] }),
        '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.images[1]: "Redis:7" has uppercase letters in its repository name, which must be lowercase');
    });

    test('stricter: a deadline under the pull timeout (the ImagePullJob of each image would be refused)', () => {
      fails(chart => new ImageListPullJob(chart, 'warm', { images, completionPolicy: ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(5) }) }),
        '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.completionPolicy.activeDeadlineSeconds: 300 is less than pullPolicy.timeoutSeconds (600), so the job can time out before one pull does');
    });

    test('stricter: pull secrets that no Secret can be named', () => {
      fails(chart => new ImageListPullJob(chart, 'warm', { images, pullSecrets: [kplus.Secret.fromSecretName(chart, 's', 'Registry_Creds')] }),
        '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) spec.pullSecrets[0]: "Registry_Creds"');
    });
  });

  describe('errors of the construct', () => {
    test('fails imagePullPolicy Never and a parallelism that is not a whole number', () => {
      expect(() => new ImageListPullJob(Testing.chart(), 'warm', { images, imagePullPolicy: kplus.ImagePullPolicy.NEVER })).toThrow(
        "ImageListPullJob at 'test/warm': 'imagePullPolicy' (Never) would pull nothing; use ImagePullPolicy.ALWAYS or IF_NOT_PRESENT");
      expect(() => new ImageListPullJob(Testing.chart(), 'warm', { images, parallelism: 0.5 })).toThrow(
        "ImageListPullJob at 'test/warm': 'parallelism' (0.5) must be a whole number of nodes; use e.g. 1");
    });

    test('fails a time to live that is not whole seconds, naming the construct and the prop', () => {
      fails(chart => new ImageListPullJob(chart, 'warm', { images, completionPolicy: ImagePullJobCompletionPolicy.always({ ttlAfterFinished: Duration.millis(1500) }) }),
        '[test/warm] ImageListPullJob "test-warm-c8dd58d5" (apps.kruise.io/v1beta1) completionPolicy.ttlAfterFinished: "1.5 seconds" is not a whole number of seconds; use Duration.seconds(2)');
    });
  });
});
