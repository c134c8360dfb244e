/**
 * The cluster's Kubernetes as part of the target: how it is given (a
 * gitVersion, a minor, a vendor, a saved /version), how two declarations
 * that cannot be one cluster fail, and the known failures of a release on
 * that Kubernetes (src/releases/failures.ts): refused, or warned, with the
 * fix, in synth.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AdvancedDaemonSet, AdvancedDaemonSetUpdateStrategy, AdvancedStatefulSet, AdvancedStatefulSetUpdateStrategy, CloneSet, CloneSetUpdateStrategy,
  KruiseContext, KruiseControlPlane, KruiseInclude, KubernetesVendor, PodUpdatePolicy, Warnings,
} from '../../src';
import { fromVersionInfo, isVersionInfo, parseKubernetes } from '../../src/releases/kubernetes';
import { _targetOf } from '../../src/releases/target';
import { appSynthErrors } from '../util/message-shape';

const errorsOf = appSynthErrors;

const container = { image: 'nginx:1.27', securityContext: { ensureNonRoot: false } };
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kubernetes-'));
const write = (dir: string, name: string, json: unknown) => {
  const f = path.join(dir, name);
  fs.writeFileSync(f, JSON.stringify(json));
  return path.relative(process.cwd(), f);
};
/** What `kubectl get --raw /version` prints on an EKS cluster. */
const EKS_VERSION = {
  major: '1',
  minor: '31+',
  emulationMajor: '1',
  emulationMinor: '31',
  gitVersion: 'v1.31.4-eks-2d5f260',
  gitCommit: '2d5f260',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: 'go1.22.9',
  compiler: 'gc',
  platform: 'linux/amd64',
};

/** The problem kruise-manager v1.9.0 has on a suffixed minor, as messages state it. */
const PANIC = 'reads /version\'s minor as a number in every in-place update of a CloneSet, Advanced StatefulSet or Advanced DaemonSet and panics there, '
  + 'after marking the pod not ready (InPlaceUpdateReady false): the update never completes and the pod stays out of its Services, '
  + 'and an Advanced DaemonSet\'s update, run in a goroutine of its own, stops the whole kruise-manager and its webhooks (upstream issue #2404)';

describe('reading the cluster\'s Kubernetes', () => {
  test.each([
    ['v1.31.4-eks-2d5f260', { major: 1, minor: 31, patch: 4, gitVersion: 'v1.31.4-eks-2d5f260', vendor: 'EKS', minorSuffixed: true }],
    ['v1.31.5-gke.1234000', { major: 1, minor: 31, patch: 5, gitVersion: 'v1.31.5-gke.1234000', vendor: 'GKE', minorSuffixed: true }],
    ['v1.31.2', { major: 1, minor: 31, patch: 2, gitVersion: 'v1.31.2', vendor: undefined, minorSuffixed: false }],
    // a build with only `+` metadata keeps a plain minor (hack/lib/version.sh adds `+` for a `-` part only)
    ['v1.31.4+k3s1', { major: 1, minor: 31, patch: 4, gitVersion: 'v1.31.4+k3s1', vendor: undefined, minorSuffixed: false }],
    ['v1.27.4-dirty', { major: 1, minor: 27, patch: 4, gitVersion: 'v1.27.4-dirty', vendor: undefined, minorSuffixed: true }],
    ['1.31', { major: 1, minor: 31, vendor: undefined, minorSuffixed: undefined }],
    ['1.31+', { major: 1, minor: 31, vendor: undefined, minorSuffixed: true }],
  ])('%s', (text, cluster) => {
    expect(parseKubernetes(text, 'x')).toEqual(cluster);
  });

  test('a minor of EKS or GKE has the suffix; of AKS or another vendor nothing is known of it', () => {
    expect(parseKubernetes('1.31', 'x', 'EKS').minorSuffixed).toBe(true);
    expect(parseKubernetes('1.31', 'x', 'GKE').minorSuffixed).toBe(true);
    expect(parseKubernetes('1.31', 'x', 'AKS').minorSuffixed).toBeUndefined();
    expect(parseKubernetes('v1.31.2', 'x', 'AKS')).toEqual({ major: 1, minor: 31, patch: 2, gitVersion: 'v1.31.2', vendor: 'AKS', minorSuffixed: false });
  });

  test.each([
    ['latest', "x: 'latest' is not a Kubernetes version; give /version's gitVersion (e.g. v1.31.4-eks-2d5f260, as `kubectl version` prints the server's) or a minor (1.31)"],
    ['2.1', "x: '2.1' is not a Kubernetes version (the major is 1); give /version's gitVersion (e.g. v1.31.4-eks-2d5f260, as `kubectl version` prints the server's) or a minor (1.31)"],
  ])('%s is refused', (text, message) => {
    expect(() => parseKubernetes(text, 'x')).toThrow(message);
  });

  test('a saved /version: the minor as the API server answers it; `kubectl version -o json` too', () => {
    expect(isVersionInfo(EKS_VERSION)).toBe(true);
    expect(isVersionInfo({ apiVersion: 'v1', kind: 'List', items: [] })).toBe(false);
    expect(fromVersionInfo(EKS_VERSION, 'x')).toEqual({
      major: 1, minor: 31, patch: 4, gitVersion: 'v1.31.4-eks-2d5f260', minorText: '31+', vendor: 'EKS', minorSuffixed: true,
    });
    expect(fromVersionInfo({ clientVersion: { major: '1', minor: '33', gitVersion: 'v1.33.0' }, serverVersion: { major: '1', minor: '30', gitVersion: 'v1.30.1' } }, 'x'))
      .toEqual({ major: 1, minor: 30, patch: 1, gitVersion: 'v1.30.1', minorText: '30', vendor: undefined, minorSuffixed: false });
    expect(() => fromVersionInfo({ ...EKS_VERSION, minor: '30+' }, "'v.json'")).toThrow(
      '\'v.json\': major "1" and minor "30+" do not match gitVersion "v1.31.4-eks-2d5f260"; save it again with `kubectl get --raw /version`');
  });
});

describe('declaring it', () => {
  test('KruiseContext: kubernetes and kubernetesVendor, or a /version in its live state', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { kubernetes: '1.31', kubernetesVendor: KubernetesVendor.AKS });
    expect(_targetOf(app).kubernetes).toEqual({ cluster: { major: 1, minor: 31, vendor: 'AKS', minorSuffixed: undefined }, declared: "declared at 'cluster'" });

    const live = Testing.app();
    const file = write(tmp(), 'version.json', EKS_VERSION);
    new KruiseContext(live, 'cluster', { kubernetes: '1.31', liveState: [file] });
    // the minor declared and the /version read agree; the target says all either says
    expect(_targetOf(live).kubernetes).toEqual({
      cluster: { major: 1, minor: 31, patch: 4, gitVersion: 'v1.31.4-eks-2d5f260', minorText: '31+', vendor: 'EKS', minorSuffixed: true },
      declared: "declared at 'cluster'",
    });
    expect(errorsOf(live)).toEqual([]);
  });

  test('the live state of a cluster that runs kruise-manager v1.9.1 on EKS: the target, and nothing refused', () => {
    const dir = tmp();
    const manager = write(dir, 'manager.json', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'kruise-controller-manager', namespace: 'kruise-system' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'manager', image: 'openkruise/kruise-manager:v1.9.1' }] } } },
    });
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { liveState: [manager, write(dir, 'version.json', EKS_VERSION)] });
    new CloneSet(new Chart(app, 'web'), 'api', { containers: [container], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible() });
    expect(_targetOf(app).openKruise.release.version).toBe('1.9.1');
    expect(_targetOf(app).kubernetes?.cluster.gitVersion).toBe('v1.31.4-eks-2d5f260');
    expect(errorsOf(app)).toEqual([]);
  });

  test('a vendor alone is declared too (what differs on AKS needs no version)', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { kubernetesVendor: KubernetesVendor.AKS });
    expect(_targetOf(app).kubernetes).toEqual({ cluster: { vendor: 'AKS', minorSuffixed: undefined }, declared: "declared at 'cluster'" });
  });

  test('a gitVersion of one vendor declared as another is refused where it is given', () => {
    expect(() => new KruiseContext(Testing.app(), 'cluster', { kubernetes: 'v1.31.4-eks-2d5f260', kubernetesVendor: KubernetesVendor.AKS })).toThrow(
      "KruiseContext at 'cluster': kubernetes: 'v1.31.4-eks-2d5f260' is a gitVersion EKS reports, but the vendor declared is AKS; "
      + 'declare the vendor the cluster is (or leave it out: EKS and GKE are read from the gitVersion)');
    expect(() => new KruiseContext(Testing.app(), 'cluster', { kubernetes: 'v1.31' + '.x' })).toThrow(
      "KruiseContext at 'cluster': kubernetes: 'v1.31.x' is not a Kubernetes version; give /version's gitVersion (e.g. v1.31.4-eks-2d5f260, as `kubectl version` prints the server's) or a minor (1.31)");
  });

  test('a saved /version that does not hold together is refused, naming the file', () => {
    const file = write(tmp(), 'version.json', { ...EKS_VERSION, minor: '30+' });
    expect(() => new KruiseContext(Testing.app(), 'cluster', { liveState: [file] })).toThrow(
      `KruiseContext at 'cluster': '${file}': major "1" and minor "30+" do not match gitVersion "v1.31.4-eks-2d5f260"; save it again with \`kubectl get --raw /version\``);
  });

  test('two declarations that cannot be one cluster fail synth, naming both', () => {
    const app = Testing.app();
    new KruiseContext(app, 'a', { kubernetes: 'v1.31.4-eks-2d5f260' });
    new KruiseContext(app, 'b', { kubernetes: '1.30' });
    new KruiseContext(app, 'c', { kubernetes: '1.31', kubernetesVendor: KubernetesVendor.AKS });
    new KruiseContext(app, 'd', { kubernetes: '1.31' });
    expect(errorsOf(app)).toEqual([
      "[] KruiseContext kubernetes: \"1.30\" declares Kubernetes 1.30, but the KruiseContext at 'a' declares Kubernetes v1.31.4-eks-2d5f260 (a different minor); "
        + 'an app targets one cluster: declare the Kubernetes it runs in both places (or remove one declaration)',
      "[] KruiseContext kubernetes: \"1.31 (AKS)\" declares Kubernetes 1.31 (AKS), but the KruiseContext at 'a' declares Kubernetes v1.31.4-eks-2d5f260 (a different vendor); "
        + 'an app targets one cluster: declare the Kubernetes it runs in both places (or remove one declaration)',
      // d agrees with a, the target, but not with b
      "[] KruiseContext kubernetes: \"1.31\" declares Kubernetes 1.31, but the KruiseContext at 'b' declares Kubernetes 1.30 (a different minor); "
        + 'an app targets one cluster: declare the Kubernetes it runs in both places (or remove one declaration)',
    ]);
  });

  test('a /version in live state that disagrees with the context\'s own kubernetes fails synth, naming both', () => {
    const app = Testing.app();
    const file = write(tmp(), 'version.json', EKS_VERSION);
    new KruiseContext(app, 'cluster', { kubernetes: '1.30', liveState: [file] });
    expect(errorsOf(app)).toEqual([
      `[] KruiseContext /version (${file}): "v1.31.4-eks-2d5f260" declares Kubernetes v1.31.4-eks-2d5f260, but the KruiseContext at 'cluster' declares Kubernetes 1.30 (a different minor); `
        + 'an app targets one cluster: declare the Kubernetes it runs in both places (or remove one declaration)',
    ]);
  });
});

describe('OpenKruise 1.9.0 on a cluster whose /version minor has a suffix (EKS, GKE): in-place workloads and a control plane refused, a declaration warned', () => {
  test('a KruiseContext that declares 1.9.0 on EKS: each workload that updates in place refused, the declaration warned', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.9.0', kubernetes: 'v1.31.4-eks-2d5f260' });
    const web = new Chart(app, 'web');
    new CloneSet(web, 'api', { metadata: { name: 'api' }, containers: [container], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible() });
    new CloneSet(web, 'batch', { metadata: { name: 'batch' }, containers: [container] });
    expect(Warnings.of(app)).toEqual([
      `[] KruiseContext openKruise: "1.9.0" runs kruise-manager v1.9.0 on Kubernetes v1.31.4-eks-2d5f260 (/version minor "31+", declared at 'cluster'), which ${PANIC}; `
        + "upgrade the cluster's OpenKruise to 1.9.1 and declare openKruise: '1.9.1' (OpenKruise 1.9.1 fixes it)",
    ]);
    expect(errorsOf(app)).toEqual([
      '[web/api] CloneSet "api" (apps.kruise.io/v1alpha1) spec.updateStrategy.type: "InPlaceIfPossible" updates pods in place, which kruise-manager v1.9.0 on '
        + 'Kubernetes v1.31.4-eks-2d5f260 (/version minor "31+") cannot do: each pod it updates in place is marked not ready, then kruise-manager panics and the update never completes; '
        + "this app targets 1.9.0 (declared at 'cluster'), on Kubernetes v1.31.4-eks-2d5f260 (declared at 'cluster'); "
        + "upgrade the cluster's OpenKruise to 1.9.1 and declare that release (OpenKruise 1.9.1 fixes it); until then, use CloneSetUpdateStrategy.recreate()",
    ]);
  });

  test('a control plane of release 1.9.0 on a GKE cluster (the vendor alone says the minor has the suffix)', () => {
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'platform'), 'kruise', { release: '1.9.0' });
    new KruiseContext(app, 'cluster', { kubernetesVendor: KubernetesVendor.GKE });
    expect(errorsOf(app)).toEqual([
      `[platform/kruise] KruiseControlPlane release: "1.9.0" runs kruise-manager v1.9.0 on GKE (/version minor with a suffix, declared at 'cluster'), which ${PANIC}; `
        + "set release: '1.9.1' (OpenKruise 1.9.1 fixes it)",
    ]);
  });

  test('the live state: kruise-manager v1.9.0 and a saved /version of EKS; the Advanced StatefulSet and DaemonSet that update in place', () => {
    const dir = tmp();
    const manager = write(dir, 'manager.json', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'kruise-controller-manager', namespace: 'kruise-system' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'manager', image: 'openkruise/kruise-manager:v1.9.0' }] } } },
    });
    const version = write(dir, 'version.json', EKS_VERSION);
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { liveState: [manager, version] });
    const c = new Chart(app, 'c');
    new AdvancedStatefulSet(c, 'db', {
      metadata: { name: 'db' },
      containers: [container],
      updateStrategy: AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.IN_PLACE_ONLY }),
    });
    new AdvancedDaemonSet(c, 'agent', { metadata: { name: 'agent' }, containers: [container], updateStrategy: AdvancedDaemonSetUpdateStrategy.inPlaceIfPossible() });
    const live = `read from the kruise-manager of '${manager}' (context 'cluster')`;
    const where = `read from the /version of '${version}' (context 'cluster')`;
    expect(Warnings.of(app)).toEqual([
      `[] KruiseContext kruise-manager image (${manager}): "1.9.0" runs kruise-manager v1.9.0 on Kubernetes v1.31.4-eks-2d5f260 (/version minor "31+", ${where}), which ${PANIC}; `
        + "upgrade the cluster's OpenKruise to 1.9.1, then save its live state again (OpenKruise 1.9.1 fixes it)",
    ]);
    expect(errorsOf(app)).toEqual([
      '[c/db] StatefulSet "db" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.podUpdatePolicy: "InPlaceOnly" updates pods in place, which kruise-manager v1.9.0 on '
        + 'Kubernetes v1.31.4-eks-2d5f260 (/version minor "31+") cannot do: each pod it updates in place is marked not ready, then kruise-manager panics and the update never completes; '
        + `this app targets 1.9.0 (${live}), on Kubernetes v1.31.4-eks-2d5f260 (${where}); `
        + "upgrade the cluster's OpenKruise to 1.9.1 and declare that release (OpenKruise 1.9.1 fixes it); "
        + 'until then, use AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.RECREATE })',
      '[c/agent] DaemonSet "agent" (apps.kruise.io/v1beta1) spec.updateStrategy.rollingUpdate.rollingUpdateType: "InPlaceIfPossible" updates pods in place, which kruise-manager v1.9.0 on '
        + 'Kubernetes v1.31.4-eks-2d5f260 (/version minor "31+") cannot do: each pod it updates in place is marked not ready, then kruise-manager panics and the update never completes; '
        + `this app targets 1.9.0 (${live}), on Kubernetes v1.31.4-eks-2d5f260 (${where}); `
        + "upgrade the cluster's OpenKruise to 1.9.1 and declare that release (OpenKruise 1.9.1 fixes it); until then, use AdvancedDaemonSetUpdateStrategy.rollingUpdate()",
    ]);
  });

  test('included YAML: a UnitedDeployment whose subsets are in-place CloneSets, named in manifest terms', () => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.9.0', kubernetes: 'v1.31.5-gke.1234000' });
    const c = new Chart(app, 'c');
    const dir = tmp();
    const file = path.join(dir, 'ud.yaml');
    fs.writeFileSync(file, Yaml.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: { name: 'ud', namespace: 'shop' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'ud' } },
        template: {
          cloneSetTemplate: {
            metadata: { labels: { app: 'ud' } },
            spec: {
              selector: { matchLabels: { app: 'ud' } },
              updateStrategy: { type: 'InPlaceOnly' },
              template: { metadata: { labels: { app: 'ud' } }, spec: { containers: [{ name: 'a', image: 'nginx:1.27' }] } },
            },
          },
        },
        topology: { subsets: [{ name: 'a', nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } }] },
      },
    }));
    new KruiseInclude(c, 'ud', { url: file });
    const lines = errorsOf(app);
    expect(Warnings.of(app)).toEqual([expect.stringContaining('[] KruiseContext openKruise: "1.9.0" runs kruise-manager v1.9.0 on Kubernetes v1.31.5-gke.1234000')]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`[c/ud/ud-uniteddeployment-shop] UnitedDeployment "ud" (apps.kruise.io/v1alpha1; ${file}, document 1) `
      + 'spec.template.cloneSetTemplate.spec.updateStrategy.type: "InPlaceOnly" updates pods in place, which kruise-manager v1.9.0 on '
      + 'Kubernetes v1.31.5-gke.1234000 (/version minor "31+") cannot do: each pod it updates in place is marked not ready, then kruise-manager panics and the update never completes; '
      + "this app targets 1.9.0 (declared at 'cluster'), on Kubernetes v1.31.5-gke.1234000 (declared at 'cluster'); "
      + "upgrade the cluster's OpenKruise to 1.9.1 and declare that release (OpenKruise 1.9.1 fixes it); until then, set spec.template.cloneSetTemplate.spec.updateStrategy.type to ReCreate");
  });

  test.each([
    ['1.9.1 on EKS', { openKruise: '1.9.1', kubernetes: 'v1.31.4-eks-2d5f260' }],
    ['the default (1.9.1) on EKS', { kubernetes: 'v1.31.4-eks-2d5f260' }],
    ['1.9.0 on a plain v1.31.2 (AKS, kubeadm)', { openKruise: '1.9.0', kubernetes: 'v1.31.2' }],
    ['1.9.0 on a minor of which the suffix is not known', { openKruise: '1.9.0', kubernetes: '1.31' }],
    ['1.9.0 with no Kubernetes declared', { openKruise: '1.9.0' }],
    ['1.8 on EKS (1.8 never reads the version)', { openKruise: '1.8', kubernetes: 'v1.31.4-eks-2d5f260' }],
  ])('admitted: %s', (_name, props) => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', props);
    new CloneSet(new Chart(app, 'web'), 'api', { containers: [container], updateStrategy: CloneSetUpdateStrategy.inPlaceIfPossible() });
    expect(errorsOf(app)).toEqual([]);
    expect(Warnings.of(app)).toEqual([]);
  });
});

describe('in-place resizing (InPlaceWorkloadVerticalScaling) and the Kubernetes minor: warned', () => {
  const warnings = (props: ConstructorParameters<typeof KruiseContext>[2]) => {
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { ...props, featureGates: { InPlaceWorkloadVerticalScaling: true } });
    new Chart(app, 'empty');
    expect(errorsOf(app)).toEqual([]);
    return Warnings.of(app);
  };

  test('1.8 from Kubernetes 1.32: pod updates may no longer change resources', () => {
    expect(warnings({ openKruise: '1.8', kubernetes: '1.33' })).toEqual([
      "[] KruiseContext openKruise: \"1.8\" runs kruise-manager v1.8.4 on Kubernetes 1.33 (declared at 'cluster'), which, with InPlaceWorkloadVerticalScaling on, "
        + 'changes cpu and memory in place by updating the pod, which Kubernetes refuses from 1.32 on (resources change only through the pods/resize subresource there): '
        + "every in-place update that changes them fails; upgrade the cluster's OpenKruise to 1.9.1 and declare openKruise: '1.9.1' (fixed from OpenKruise 1.9.0), "
        + 'or turn InPlaceWorkloadVerticalScaling off (cpu and memory changes then recreate pods)',
    ]);
  });

  test('1.8 on 1.32: 1.9 is no way out there (pods/resize needs the alpha gate in 1.32)', () => {
    expect(warnings({ openKruise: '1.8', kubernetes: '1.32' })).toEqual([
      "[] KruiseContext openKruise: \"1.8\" runs kruise-manager v1.8.4 on Kubernetes 1.32 (declared at 'cluster'), which, with InPlaceWorkloadVerticalScaling on, "
        + 'changes cpu and memory in place by updating the pod, which Kubernetes refuses from 1.32 on (resources change only through the pods/resize subresource there): '
        + 'every in-place update that changes them fails; turn InPlaceWorkloadVerticalScaling off (cpu and memory changes then recreate pods)',
    ]);
  });

  test('1.9 on 1.32: pods/resize is served only with the cluster\'s alpha gate', () => {
    expect(warnings({ openKruise: '1.9', kubernetes: 'v1.32.1' })).toEqual([
      "[] KruiseContext openKruise: \"1.9\" runs kruise-manager v1.9.1 on Kubernetes v1.32.1 (declared at 'cluster'), which, with InPlaceWorkloadVerticalScaling on, "
        + 'changes cpu and memory in place through the pods/resize subresource, which Kubernetes 1.32 serves only with its InPlacePodVerticalScaling feature gate on '
        + '(alpha, off by default; on by default from 1.33): without it every in-place update that changes them fails; '
        + "turn InPlaceWorkloadVerticalScaling off (cpu and memory changes then recreate pods), turn InPlacePodVerticalScaling on in the cluster's API server, or run Kubernetes 1.33 or newer",
    ]);
  });

  test('before 1.32: resources in the pod update, accepted only with the cluster\'s alpha gate', () => {
    expect(warnings({ openKruise: '1.9.1', kubernetes: '1.31' })).toEqual([
      "[] KruiseContext openKruise: \"1.9.1\" runs kruise-manager v1.9.1 on Kubernetes 1.31 (declared at 'cluster'), which, with InPlaceWorkloadVerticalScaling on, "
        + 'changes cpu and memory in place by updating the pod, which Kubernetes before 1.32 accepts only with its InPlacePodVerticalScaling feature gate on '
        + '(alpha from 1.27, off by default): without it every in-place update that changes them fails; '
        + "turn InPlaceWorkloadVerticalScaling off (cpu and memory changes then recreate pods), or turn InPlacePodVerticalScaling on in the cluster's API server",
    ]);
  });

  test('nothing on 1.33 and newer with 1.9, nor with the gate off', () => {
    expect(warnings({ openKruise: '1.9', kubernetes: '1.33' })).toEqual([]);
    const app = Testing.app();
    new KruiseContext(app, 'cluster', { openKruise: '1.8', kubernetes: '1.33' });
    new Chart(app, 'empty');
    expect(Warnings.of(app)).toEqual([]);
  });

  test('the gate of a control plane counts: the warning is under the control plane', () => {
    const app = Testing.app();
    new KruiseControlPlane(new Chart(app, 'platform'), 'kruise', { release: '1.8', featureGates: { InPlaceWorkloadVerticalScaling: true } });
    new KruiseContext(app, 'cluster', { kubernetes: 'v1.33.0' });
    expect(Warnings.of(app)).toEqual([
      "[platform/kruise] KruiseControlPlane release: \"1.8\" runs kruise-manager v1.8.4 on Kubernetes v1.33.0 (declared at 'cluster'), which, with InPlaceWorkloadVerticalScaling on, "
        + 'changes cpu and memory in place by updating the pod, which Kubernetes refuses from 1.32 on (resources change only through the pods/resize subresource there): '
        + "every in-place update that changes them fails; set release: '1.9.1' (fixed from OpenKruise 1.9.0), "
        + 'or turn InPlaceWorkloadVerticalScaling off (cpu and memory changes then recreate pods)',
    ]);
  });
});

test('KubernetesVendor is a closed set: a value that is none is refused', () => {
  expect(() => new KruiseContext(Testing.app(), 'cluster', { kubernetesVendor: 'eks' as KubernetesVendor })).toThrow(
    "KruiseContext at 'cluster': kubernetesVendor: \"eks\" is not a vendor; use one of KubernetesVendor.EKS, GKE, AKS or OTHER");
  void kplus;
});
