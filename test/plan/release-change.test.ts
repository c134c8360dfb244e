/**
 * Planning a cluster's move from one release to another (1.8 -> 1.9, a
 * downgrade, Kruise Rollouts 0.5 -> 0.6): the CRD, gate and webhook changes,
 * and with the live objects, the ones the new release will refuse.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { main } from '../../src/cli';
import { UpdatePlan } from '../../src/plan';

const manager = (image: string, name = 'kruise-controller-manager') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'kruise-system' },
  spec: { template: { spec: { containers: [{ name: 'manager', image }] } } },
});

const pullJob = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name, namespace: 'ops', uid: 'u1', resourceVersion: '7' }, spec: { image: 'nginx:1.27', ...spec }, status: { active: 1 },
});

function run(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = main(argv, { out: t => { out += t; }, err: t => { err += t; } });
  return { code, out, err };
}

function writeDir(objs: any[]): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-release-'));
  fs.writeFileSync(path.join(d, 'app.k8s.yaml'), objs.map(o => stringify(o)).join('---\n'));
  return d;
}

describe('OpenKruise 1.8 -> 1.9', () => {
  const change = UpdatePlan.compare([], [], { openKruise: '1.8..1.9' }).releaseChanges![0];

  test('the releases', () => {
    expect([change.product, change.fromRelease, change.toRelease]).toEqual(['OpenKruise', 'OpenKruise 1.8', 'OpenKruise 1.9']);
  });

  test('CRDs that gain versions and change storage, fields that appear or go', () => {
    for (const kind of ['AdvancedCronJob', 'BroadcastJob', 'DaemonSet', 'ImageListPullJob', 'ImagePullJob', 'NodeImage', 'SidecarSet']) {
      expect(change.crds).toContain(`${kind}: serves apps.kruise.io/v1beta1`);
      expect(change.crds).toContain(`${kind}: stores apps.kruise.io/v1beta1 instead of apps.kruise.io/v1alpha1 (existing objects are converted as they are written)`);
    }
    expect(change.crds).toContain('CloneSet apps.kruise.io/v1alpha1: new field spec.progressDeadlineSeconds');
    expect(change.crds).toContain('DaemonSet apps.kruise.io/v1alpha1: spec.updateStrategy.rollingUpdate.partition takes a string as well as a number');
    expect(change.crds).toContain('SidecarSet apps.kruise.io/v1alpha1: new field spec.containers[].resourcesPolicy (kept but ignored by the older release)');
    expect(change.crds).toContain('UnitedDeployment apps.kruise.io/v1alpha1: no field spec.topology.scheduleStrategy.adaptive.unschedulableLastSeconds (served until 1.8)');
    // the status is the controller's, and a v1beta1-only field comes with v1beta1
    expect(change.crds.filter(l => l.includes('status.') || l.includes('spec.scaleStrategy'))).toEqual([]);
  });

  test('gates and webhook rules', () => {
    expect(change.gates).toEqual(['EnableSortSidecarContainerByName: a new gate (default off)', 'InPlacePodVerticalScaling: a new gate (default off)']);
    expect([...change.rules].sort()).toEqual([
      'AdvancedCronJob, BroadcastJob, CloneSet, DaemonSet, SidecarSet, UnitedDeployment: starts refusing an image volume '
        + 'without a pullPolicy, or a mount of one with a subPath (refused from OpenKruise 1.9)',
      'AdvancedCronJob, BroadcastJob, CloneSet, DaemonSet, SidecarSet, UnitedDeployment: stops refusing an azureDisk volume '
        + 'without kind whose diskURI is not an https:// URI (accepted from OpenKruise 1.9)',
      'AdvancedCronJob, BroadcastJob, CloneSet, DaemonSet, UnitedDeployment: starts refusing a resourceClaims entry that names '
        + 'its claim in source (refused from OpenKruise 1.9)',
      'AdvancedCronJob, BroadcastJob, CloneSet, DaemonSet, UnitedDeployment: starts refusing a seLinuxChangePolicy or '
        + 'supplementalGroupsPolicy of the pod that is not one of its values (refused from OpenKruise 1.9)',
      'AdvancedCronJob, BroadcastJob, CloneSet, DaemonSet, UnitedDeployment: stops refusing a container port without hostPort '
        + 'in a pod template with hostNetwork (accepted from OpenKruise 1.9)',
      'AdvancedCronJob, BroadcastJob, CloneSet, DaemonSet, UnitedDeployment: stops refusing a resourceClaims entry that names '
        + 'its claim in the entry (resourceClaimName, resourceClaimTemplateName) (accepted from OpenKruise 1.9)',
      'CloneSet: starts refusing a string without % in spec.updateStrategy.maxUnavailable or maxSurge, which OpenKruise before 1.9 reads as a percentage '
        + '(refused from OpenKruise 1.9)',
      'CloneSet: stops refusing a fractional percentage in spec.updateStrategy.maxUnavailable or maxSurge (accepted from OpenKruise 1.9)',
      'ImageListPullJob, ImagePullJob: starts refusing a percentage, a negative number or a string that is no integer in '
        + 'spec.parallelism (refused from OpenKruise 1.9)',
      'PodProbeMarker: stops refusing an httpGet probe handler (accepted from OpenKruise 1.9)',
      'PodUnavailableBudget: stops refusing RESIZE in the annotation kruise.io/pub-protect-operations (accepted from OpenKruise 1.9)',
      'SidecarSet: starts refusing a sidecar resourcesPolicy on an init container that is no native sidecar, beside resources, '
        + 'or with a regular expression or resource expression that does not parse (refused from OpenKruise 1.9)',
      'SidecarSet: starts refusing a v1alpha1 spec.namespace that is no label value, once converted into the namespace selector '
        + 'kubernetes.io/metadata.name=<namespace> (refused from OpenKruise 1.9)',
      'SidecarSet: stops refusing spec.namespace together with spec.namespaceSelector (v1alpha1) (accepted from OpenKruise 1.9)',
      'UnitedDeployment: starts refusing spec.topology.subsets[].replicas with the Adaptive schedule strategy (refused from OpenKruise 1.9)',
      'WorkloadSpread: starts refusing a value of a requiredNodeSelectorTerm expression that is not a valid label value (refused from OpenKruise 1.9)',
    ]);
  });

  test('with the live objects: those the new release will refuse on their next update', () => {
    const live = [pullJob('half', { parallelism: '50%' }), pullJob('ten', { parallelism: 10 }), manager('openkruise/kruise-manager:v1.8.4')];
    const plan = UpdatePlan.compare(live, [], { openKruise: '1.8..1.9', oldIsLive: true });
    expect(plan.releaseChanges![0].refusedLive).toEqual([
      'ImagePullJob ops/half: spec.parallelism: "50%" is a percentage, which an ImagePullJob does not support; use a number of nodes, e.g. 10',
    ]);
  });
});

test('1.7 -> 1.8: deletion protection is off by default from 1.8, and a rule of v1.8.3', () => {
  const change = UpdatePlan.compare([], [], { openKruise: '1.7..1.8' }).releaseChanges![0];
  expect(change.gates).toContain('ResourcesDeletionProtection: its default flips from on to off');
  expect(change.rules).toContain('PodProbeMarker: starts refusing a host in a tcpSocket probe (refused from OpenKruise 1.8.3)');
  expect(change.rules).toContain('SidecarSet: starts refusing spec.updateStrategy.partition together with spec.updateStrategy.selector (refused from OpenKruise 1.8)');
  const within = UpdatePlan.compare([], [], { openKruise: '1.8.2..1.8.4' }).releaseChanges![0];
  expect(within).toEqual({
    product: 'OpenKruise',
    fromRelease: 'OpenKruise 1.8.2',
    toRelease: 'OpenKruise 1.8.4',
    crds: [],
    gates: [],
    rules: ['PodProbeMarker: starts refusing a host in a tcpSocket probe (refused from OpenKruise 1.8.3)'],
    knownFailures: [],
    refusedLive: [],
  });
});

test('1.9.0 -> 1.9.1: no CRD, gate or rule changes, one known failure fixed; 1.8 -> 1.9 fixes one and brings one', () => {
  expect(UpdatePlan.compare([], [], { openKruise: '1.9.0..1.9.1' }).releaseChanges).toEqual([{
    product: 'OpenKruise',
    fromRelease: 'OpenKruise 1.9.0',
    toRelease: 'OpenKruise 1.9.1',
    crds: [],
    gates: [],
    rules: [],
    knownFailures: ['fixes: kruise-manager panics in every in-place update on a cluster whose /version minor has a suffix (EKS, GKE)'],
    refusedLive: [],
  }]);
  expect(UpdatePlan.compare([], [], { openKruise: '1.8.4..1.9.0' }).releaseChanges![0].knownFailures).toEqual([
    'brings: kruise-manager panics in every in-place update on a cluster whose /version minor has a suffix (EKS, GKE)',
    'fixes: with InPlaceWorkloadVerticalScaling on, in-place cpu and memory changes fail from Kubernetes 1.32 (sent in the pod update)',
    'brings: with InPlaceWorkloadVerticalScaling on, in-place cpu and memory changes on Kubernetes 1.32 need its alpha InPlacePodVerticalScaling gate (pods/resize)',
  ]);
  const r = run(['plan', '--old', writeDir([]), '--new', writeDir([]), '--openkruise', '1.9.0..1.9.1']);
  expect(r.out).toContain('\nRelease change: OpenKruise 1.9.0 -> OpenKruise 1.9.1\n  Known failures on some clusters:\n'
    + '    - fixes: kruise-manager panics in every in-place update on a cluster whose /version minor has a suffix (EKS, GKE)\n');
});

test('a downgrade reads the other way', () => {
  const change = UpdatePlan.compare([], [], { openKruise: '1.9..1.8' }).releaseChanges![0];
  expect(change.crds).toContain('SidecarSet: no longer serves apps.kruise.io/v1beta1');
  expect(change.gates).toEqual(['EnableSortSidecarContainerByName: no longer a gate (kruise-manager refuses to start with it in --feature-gates)', 'InPlacePodVerticalScaling: no longer a gate (kruise-manager refuses to start with it in --feature-gates)']);
  expect(change.rules).toContain('CloneSet: starts refusing a fractional percentage in spec.updateStrategy.maxUnavailable or maxSurge (accepted from OpenKruise 1.9)');
});

test('Kruise Rollouts 0.5 -> 0.6', () => {
  const change = UpdatePlan.compare([], [], { kruiseRollouts: '0.5..0.6' }).releaseChanges![0];
  expect(change.crds).toContain('Rollout rollouts.kruise.io/v1beta1: new field spec.strategy.blueGreen');
  expect(change.gates).toEqual(['KeepWorkloadPausedOnRolloutDeletion: no longer a gate (kruise-rollout-manager refuses to start with it in --feature-gates)']);
  expect(change.rules).toEqual([
    'Rollout: starts refusing a partition-style step that routes traffic to more than --partition-percent-limit (50%) of the replicas (refused from Kruise Rollouts 0.6)',
    'Rollout: starts refusing a v1alpha1 step without replicas whose weight is not between 1 and 100 (refused from Kruise Rollouts 0.6)',
    'Rollout: starts refusing a v1beta1 step traffic that is no percentage in range, in a strategy without trafficRoutings (refused from Kruise Rollouts 0.6)',
    'Rollout: starts refusing a negative gracePeriodSeconds of a traffic routing (refused from Kruise Rollouts 0.6)',
  ]);
});

test('the control planes of the old and new manifests say the releases; no change, no section', () => {
  const plan = UpdatePlan.compare([manager('openkruise/kruise-manager:v1.8.4')], [manager('openkruise/kruise-manager:v1.9.0')]);
  expect(plan.releaseChanges!.map(c => `${c.fromRelease} -> ${c.toRelease}`)).toEqual(['OpenKruise 1.8.4 -> OpenKruise 1.9.0']);
  expect(UpdatePlan.compare([], []).releaseChanges).toBeUndefined();
  expect(UpdatePlan.compare([], [], { openKruise: '1.8' }).releaseChanges).toBeUndefined();
});

test('a manager release that is not modelled: an input error, but an old side newer than every modelled release names none (a takeover of it is refused as a downgrade)', () => {
  expect(() => UpdatePlan.compare([manager('openkruise/kruise-manager:v1.6.0')], [])).toThrow(
    "old manifests: Deployment kruise-system/kruise-controller-manager runs image 'openkruise/kruise-manager:v1.6.0': OpenKruise 1.6.0 is not a release of a line this library models; "
    + 'give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)');
  expect(() => UpdatePlan.compare([], [manager('openkruise/kruise-manager:v1.10.0')])).toThrow(
    "new manifests: Deployment kruise-system/kruise-controller-manager runs image 'openkruise/kruise-manager:v1.10.0': OpenKruise 1.10.0 is not a release of a line this library models");
  const ahead = UpdatePlan.compare([manager('openkruise/kruise-manager:v1.10.0')], [manager('openkruise/kruise-manager:v1.9.0')]);
  expect(ahead.releaseChanges).toBeUndefined();
});

describe('the command', () => {
  test('--openkruise OLD..NEW: the release change in the table', () => {
    const r = run(['plan', '--old', writeDir([]), '--new', writeDir([]), '--openkruise', '1.8..1.9']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('\nRelease change: OpenKruise 1.8 -> OpenKruise 1.9\n  CRDs:\n    - AdvancedCronJob: serves apps.kruise.io/v1beta1\n');
    expect(r.out).toContain('\n  Feature gates:\n    - EnableSortSidecarContainerByName: a new gate (default off)\n');
  });

  test('markdown', () => {
    const r = run(['plan', '--old', writeDir([]), '--new', writeDir([]), '--rollouts', '0.5..0.6', '--format', 'markdown']);
    expect(r.out).toContain('**Release change: Kruise Rollouts 0.5 → Kruise Rollouts 0.6**\n\n- CRDs:\n  - BatchRelease rollouts.kruise.io/v1alpha1: new field spec.releasePlan.enableExtraWorkloadForCanary\n');
  });

  test.each([
    [['--openkruise', '1.6'], 'cdk8s-kruise plan: --openkruise: OpenKruise 1.6 is not a line this library models; give one of 1.7 (1.7.0 to 1.7.4), 1.8 (1.8.0 to 1.8.4) or 1.9 (1.9.0 to 1.9.1) (a line stands for its newest release)\n'],
    [['--openkruise', '1.7..1.8..1.9'], "cdk8s-kruise plan: --openkruise: '1.7..1.8..1.9' is neither a release nor OLD..NEW; write e.g. 1.8 or 1.8..1.9\n"],
  ])('%j is an input error', (flags, line) => {
    expect(run(['plan', '--old', writeDir([]), '--new', writeDir([]), ...flags])).toEqual({ code: 1, out: '', err: line });
  });

  test('a release that disagrees with a control plane of the manifests is an input error naming both', () => {
    const r = run(['plan', '--old', writeDir([manager('openkruise/kruise-manager:v1.8.4')]), '--new', writeDir([]), '--openkruise', '1.7']);
    expect(r).toEqual({
      code: 1,
      out: '',
      err: 'cdk8s-kruise plan: --openkruise: OpenKruise 1.7 disagrees with the control plane of the old manifests, which installs OpenKruise 1.8.4; give the release the cluster runs (or leave --openkruise out)\n',
    });
  });
});
