/**
 * One target per app: what declares it (a KruiseContext, its live state, a
 * control plane), what follows it (the API version an L2 writes, the schema,
 * fields and rules admission applies) and how messages name it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as kruise from '../../imports/kruise';
import {
  AdvancedCronJob, AdvancedCronJobTemplate, AdvancedDaemonSet, AdvancedDaemonSetUpdateStrategy, CloneSet, KruiseContext, KruiseControlPlane,
  KruiseRolloutControlPlane, SidecarSet, Warnings,
} from '../../src';
import { gateDefaults, parseRelease } from '../../src/releases/registry';
import { _targetOf } from '../../src/releases/target';
import { KruiseValidation } from '../../src/validation/register';
import { appSynthErrors } from '../util/message-shape';

beforeAll(() => { jest.spyOn(console, 'warn').mockImplementation(() => undefined); });

const errorsOf = appSynthErrors;

const objects = (app: App) => app.charts.flatMap(c => c.toJson());
const container = { image: 'nginx:1.27', securityContext: { ensureNonRoot: false } };

function sidecarSet(chart: Chart, props: Partial<ConstructorParameters<typeof SidecarSet>[2]> = {}): SidecarSet {
  return new SidecarSet(chart, 'logging', {
    selector: kplus.LabelSelector.of({ labels: { app: 'web' } }),
    containers: [{ name: 'agent', image: 'fluent/fluent-bit:3.0' }],
    ...props,
  });
}

describe('declaring the cluster', () => {
  test('nothing declared: OpenKruise 1.9 and Kruise Rollouts 0.6, the default', () => {
    const t = _targetOf(Testing.app());
    expect([t.openKruise.release.version, t.openKruise.declared, t.rollouts.release.version]).toEqual(['1.9.1', 'the default', '0.6.2']);
  });

  test('a KruiseContext declares both releases and the gates', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8', kruiseRollouts: 'v0.5.3', featureGates: { ResourceDistributionGate: true } });
    const t = _targetOf(app);
    expect([t.openKruise.release.version, t.openKruise.declared, t.rollouts.release.version]).toEqual(['1.8.4', "declared at 'cluster'", '0.5.3']);
    expect(t.featureGates).toEqual({ ResourceDistributionGate: true });
  });

  test('a control plane declares the release it installs', () => {
    const app = Testing.app();
    const cp = new KruiseControlPlane(new Chart(app, 'platform'), 'kruise', { release: '1.8.2' });
    new KruiseRolloutControlPlane(new Chart(app, 'rollouts'), 'rollout', { release: '0.5' });
    expect(cp.release).toBe('1.8.2');
    const t = _targetOf(app);
    expect([t.openKruise.release.version, t.openKruise.declared, t.rollouts.release.version]).toEqual(['1.8.2', "declared at 'platform/kruise'", '0.5.5']);
  });

  test('a version that is not a modelled release is refused where it is given, listing the supported ones', () => {
    expect(() => new KruiseContext(Testing.app(), 'cluster', { openKruise: '1.6' })).toThrow(
      "KruiseContext at 'cluster': openKruise: OpenKruise 1.6 is not a line this library models; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)");
    expect(() => new KruiseControlPlane(Testing.chart(), 'kruise', { release: '1.7.5' })).toThrow(
      "KruiseControlPlane at 'test/kruise': release: OpenKruise 1.7.5 is not 1.7 code: its tag is the commit of 1.8.3 (the 1.7 line ends at 1.7.4), so give 1.8.3 for a manager built from it");
  });

  test('two declarations of different releases fail synth, naming both', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    new KruiseControlPlane(new Chart(app, 'platform'), 'kruise');
    expect(errorsOf(app)).toContain(
      '[platform/kruise] KruiseControlPlane release: "1.9" declares OpenKruise 1.9, but the KruiseContext at \'cluster\' declares OpenKruise 1.8; '
      + 'an app targets one OpenKruise release: declare the one its cluster runs in both places (or remove one declaration)');
  });

  test('a line and a release of it agree: the release is the target', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    new KruiseControlPlane(new Chart(app, 'platform'), 'kruise', { release: '1.8.2' });
    expect(_targetOf(app).openKruise.release.version).toBe('1.8.2');
    expect(errorsOf(app)).toEqual([]);
  });

  test('a gate set differently in two declarations fails synth, naming both', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8', featureGates: { ResourceDistributionGate: true } });
    new KruiseControlPlane(new Chart(app, 'platform'), 'kruise', { release: '1.8', featureGates: { ResourceDistributionGate: false } });
    expect(errorsOf(app)).toContain(
      "[platform/kruise] KruiseControlPlane featureGates.ResourceDistributionGate: false disagrees with the KruiseContext at 'cluster', which sets it true; set each gate as the cluster runs it, the same in both places");
  });

  test('a gate the declared release does not have fails synth', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8', featureGates: { InPlacePodVerticalScaling: true } });
    new Chart(app, 'c');
    const gates18 = Object.keys(gateDefaults(parseRelease('openkruise', '1.8', 'x'))).sort().join(', ');
    expect(errorsOf(app)).toEqual([
      '[] KruiseContext featureGates.InPlacePodVerticalScaling: true is not an OpenKruise v1.8.4 feature gate (a gate of 1.9, which kruise-manager v1.8.4 refuses to start with); '
      + `use one of the names in KruiseFeatureGate that v1.8.4 has (${gates18})`,
    ]);
  });
});

describe('live state: the release of the live kruise-manager', () => {
  const live = (image: string, gates = 'ImagePullJobGate=true') => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-'));
    const file = path.join(dir, 'live.json');
    fs.writeFileSync(file, JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [{
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'kruise-controller-manager', namespace: 'kruise-system' },
        spec: { template: { spec: { containers: [{ name: 'manager', image, args: ['--enable-leader-election', `--feature-gates=${gates}`] }] } } },
      }],
    }));
    return file;
  };

  test('the image tag is the release, --feature-gates the gates', () => {
    const app = Testing.app();
    const file = live('openkruise/kruise-manager:v1.8.2', 'ImagePullJobGate=true,ResourceDistributionGate=true');
    new KruiseContext(app, 'cluster', { liveState: [file] });
    const t = _targetOf(app);
    expect(t.openKruise.release.version).toBe('1.8.2');
    expect(t.openKruise.declared).toBe(`read from the kruise-manager of '${path.relative(process.cwd(), file)}' (context 'cluster')`);
    expect(t.featureGates).toEqual({ ImagePullJobGate: true, ResourceDistributionGate: true });
  });

  test('a version tag that is no modelled release is refused, a tag of one\'s own names none', () => {
    expect(() => new KruiseContext(Testing.app(), 'cluster', { liveState: [live('openkruise/kruise-manager:v1.7.5')] })).toThrow(/runs image 'openkruise\/kruise-manager:v1.7.5': OpenKruise 1.7.5 is not 1.7 code/);
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { liveState: [live('registry.example.com/kruise-manager:build-42')] });
    expect(_targetOf(app).openKruise.isDeclared).toBe(false);
  });
});

describe('the L2s write the API version the release serves', () => {
  test('a SidecarSet is v1beta1 by default and v1alpha1 on 1.8, its customVersion a label there', () => {
    const def = Testing.app();
    sidecarSet(new Chart(def, 'c'), { customVersion: 'v2' });
    expect(objects(def)[0].apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(objects(def)[0].spec.customVersion).toBe('v2');

    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    sidecarSet(new Chart(app, 'c'), { customVersion: 'v2' });
    const [obj] = objects(app);
    expect(obj.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(obj.spec.customVersion).toBeUndefined();
    expect(obj.metadata.labels).toEqual({ 'apps.kruise.io/sidecarset-custom-version': 'v2' });
    expect(errorsOf(app)).toEqual([]);
  });

  test('the target may be declared after the construct', () => {
    const app = Testing.app();
    const s = sidecarSet(new Chart(app, 'c'));
    new KruiseContext(app, 'cluster', { openKruise: '1.7' });
    expect(ApiObject.of(s).apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(objects(app)[0].apiVersion).toBe('apps.kruise.io/v1alpha1');
  });

  test('an Advanced DaemonSet on 1.8 is v1alpha1, partitioned scaling the annotation', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    new AdvancedDaemonSet(new Chart(app, 'c'), 'agent', { containers: [container], partitionedScaling: true });
    const [obj] = objects(app);
    expect(obj.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(obj.spec.scaleStrategy).toBeUndefined();
    expect(obj.metadata.annotations).toEqual({ 'daemonset.kruise.io/progressive-create-pod': 'true' });
    expect(errorsOf(app)).toEqual([]);
  });
});

describe('admission follows the target', () => {
  test('an L2 prop the release lacks is refused, naming the release that adds it and where the target was declared', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    new CloneSet(new Chart(app, 'c'), 'web', { containers: [container], progressDeadline: Duration.minutes(10) });
    expect(errorsOf(app)).toEqual([
      "[c/web] CloneSet \"c-web-c83c7fdb\" (apps.kruise.io/v1alpha1) spec.progressDeadlineSeconds: 600 is served from OpenKruise 1.9; this app targets 1.8 (declared at 'cluster'); "
      + 'leave unset the prop that writes it, or upgrade the cluster to OpenKruise 1.9 and declare that release',
    ]);
  });

  test('a template of a version the release does not serve is refused, naming the release and version that add it', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    new AdvancedCronJob(new Chart(app, 'c'), 'warm', {
      schedule: '0 3 * * *',
      template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'] }),
    });
    const [line] = errorsOf(app);
    expect(line).toMatch(/^\[c\/warm\] AdvancedCronJob "[^"]+" \(apps\.kruise\.io\/v1alpha1\) spec\.template\.imageListPullJobTemplate: \{.*\} is served from OpenKruise 1\.9 \(in v1beta1\); /);
    expect(line).toMatch(/this app targets 1\.8 \(declared at 'cluster'\); leave unset the prop that writes it, or upgrade the cluster to OpenKruise 1\.9 and declare that release$/);
  });

  test('a percentage partition of an Advanced DaemonSet names the release that takes one', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8.1' });
    new AdvancedDaemonSet(new Chart(app, 'c'), 'agent', {
      containers: [container],
      updateStrategy: AdvancedDaemonSetUpdateStrategy.rollingUpdate({ partition: kplus.PercentOrAbsolute.percent(10) }),
    });
    expect(errorsOf(app)).toEqual([
      '[c/agent] DaemonSet "c-agent-c833f237" (apps.kruise.io/v1alpha1) spec.updateStrategy.rollingUpdate.partition: "10%" is not an integer; OpenKruise accepts a string as well as a number here from 1.9; '
      + "this app targets 1.8.1 (declared at 'cluster'); give an integer",
    ]);
  });

  test('the L1 of a version the release does not serve is refused, naming the one to use', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.7' });
    new kruise.KubeBroadcastJob(new Chart(app, 'c'), 'job', { metadata: { name: 'job' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } } });
    expect(errorsOf(app)).toEqual([
      "[c/job] BroadcastJob \"job\" (apps.kruise.io/v1beta1) apiVersion: \"apps.kruise.io/v1beta1\" is served from OpenKruise 1.9; this app targets 1.7 (declared at 'cluster'); "
      + 'use apps.kruise.io/v1alpha1 (the L1 class KubeBroadcastJobV1Alpha1)',
    ]);
  });

  test('a rule that changed inside a line: tcpSocket.host is refused from v1.8.3 on', () => {
    const ppm = (openKruise: string) => {
      const app = Testing.app();
      new KruiseContext(app, 'cluster', { openKruise });
      const chart = new Chart(app, 'c');
      new ApiObject(chart, 'ppm', {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'PodProbeMarker',
        metadata: { name: 'ppm' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          probes: [{ name: 'tcp', containerName: 'main', probe: { tcpSocket: { port: 80, host: 'db' } }, podConditionType: 'example.com/ready' }],
        },
      });
      KruiseValidation.enable(chart);
      return errorsOf(app);
    };
    expect(ppm('1.8.2')).toEqual([]);
    expect(ppm('1.7')).toEqual([]);
    expect(ppm('1.8')).toEqual(['[c/ppm] PodProbeMarker "ppm" (apps.kruise.io/v1alpha1) spec.probes[0].probe.tcpSocket.host: "db" is not supported: the probe always targets the pod; remove host']);
  });

  test('a value only a newer release accepts is refused, naming it; one only an older release accepts passes there', () => {
    const job = (openKruise: string, spec: Record<string, unknown>) => {
      const app = Testing.app();
      new KruiseContext(app, 'cluster', { openKruise });
      const chart = new Chart(app, 'c');
      new ApiObject(chart, 'pull', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: 'pull' }, spec: { image: 'nginx:1.27', ...spec } });
      KruiseValidation.enable(chart);
      return errorsOf(app);
    };
    expect(job('1.8', { parallelism: '50%' })).toEqual([]);
    expect(job('1.9', { parallelism: '50%' })).toEqual(['[c/pull] ImagePullJob "pull" (apps.kruise.io/v1alpha1) spec.parallelism: "50%" is a percentage, which an ImagePullJob does not support; use a number of nodes, e.g. 10']);
    expect(job('1.7', { completionPolicy: { type: 'Always', activeDeadlineSeconds: 60 } })).toEqual([]);
    expect(job('1.8', { completionPolicy: { type: 'Always', activeDeadlineSeconds: 60 } })).toHaveLength(1);

    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    const chart = new Chart(app, 'c');
    new ApiObject(chart, 'pub', {
      apiVersion: 'policy.kruise.io/v1alpha1',
      kind: 'PodUnavailableBudget',
      metadata: { name: 'pub', annotations: { 'kruise.io/pub-protect-operations': 'DELETE,RESIZE' } },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
    });
    KruiseValidation.enable(chart);
    expect(errorsOf(app)).toEqual([
      '[c/pub] PodUnavailableBudget "pub" (policy.kruise.io/v1alpha1) metadata.annotations["kruise.io/pub-protect-operations"]: "DELETE,RESIZE" has the item "RESIZE", an operation the budget does not protect, '
      + "which OpenKruise accepts from 1.9; this app targets 1.8 (declared at 'cluster'); list UPDATE, DELETE or EVICT separated by commas without spaces",
    ]);
  });

  test('a default that changed: before 1.9 a BroadcastJob pod template without a restartPolicy gets OnFailure', () => {
    const job = (openKruise: string) => {
      const app = Testing.app();
      // with TemplateNoDefaults on, the webhook leaves the pod template's own defaults out
      new KruiseContext(app, 'cluster', { openKruise, featureGates: { TemplateNoDefaults: true } });
      const chart = new Chart(app, 'c');
      new ApiObject(chart, 'job', {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'BroadcastJob',
        metadata: { name: 'job' },
        spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } },
      });
      KruiseValidation.enable(chart);
      return errorsOf(app);
    };
    expect(job('1.8')).toEqual([]);
    expect(job('1.9')).toHaveLength(1);
    expect(job('1.9')[0]).toMatch(/^\[c\/job\] BroadcastJob "job" \(apps\.kruise\.io\/v1alpha1\) spec\.template\.spec\.restartPolicy: \(unset\) is not allowed for the pods of a BroadcastJob/);
  });

  test('a field an older release keeps but ignores (a SidecarSet container) is a warning', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8' });
    const chart = new Chart(app, 'c');
    new ApiObject(chart, 'sidecars', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'sidecars' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        initContainers: [{ name: 'agent', image: 'agent:1', restartPolicy: 'Always', resourcesPolicy: { targetContainersNameRegex: '.*', resourcesExpr: { limits: { cpu: 'cpu*0.1' } } } }],
        updateStrategy: { type: 'NotUpdate' },
      },
    });
    KruiseValidation.enable(chart);
    expect(errorsOf(app)).toEqual([]);
    expect(Warnings.of(app)).toContain(
      '[c/sidecars] SidecarSet "sidecars" (apps.kruise.io/v1alpha1) spec.initContainers[0].resourcesPolicy: {"resourcesExpr":{"limits":{"cpu":"cpu*0.1"}},"targetContainersNameRegex":".*"} '
      + "is accepted and ignored by OpenKruise 1.8, which keeps it but has no such field (it is served from OpenKruise 1.9); this app targets 1.8 (declared at 'cluster'); "
      + 'remove it, or keep it for when the cluster runs OpenKruise 1.9 (it takes effect then)');
  });
});

test('an app that declares nothing targets the one frozen default target (asked for per object judged)', () => {
  const t = _targetOf(new App());
  expect(_targetOf(new App())).toBe(t);
  expect(Object.isFrozen(t) && Object.isFrozen(t.openKruise) && Object.isFrozen(t.featureGates)).toBe(true);
  expect([t.openKruise.release.version, t.rollouts.release.version, t.openKruise.declared]).toEqual(['1.9.1', '0.6.2', 'the default']);
});
