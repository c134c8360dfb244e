/**
 * The registry of the admission layer: group/version/kind -> the module
 * holding that kind's defaults and rules (one file per kind in this folder).
 * A kind's module loads with the first object of that kind, so an app pays
 * for the rules of the kinds it uses.
 */
import { AdmissionModule } from './types';

/* eslint-disable @typescript-eslint/no-require-imports */
/** The module of each group/kind, loaded on first use. */
const LOADERS: Record<string, () => AdmissionModule> = {
  'apps.kruise.io/NodeImage': () => (require('./node-image') as typeof import('./node-image')).nodeImageAdmission,
  'apps.kruise.io/CloneSet': () => (require('./clone-set') as typeof import('./clone-set')).cloneSetAdmission,
  'apps.kruise.io/StatefulSet': () => (require('./advanced-stateful-set') as typeof import('./advanced-stateful-set')).advancedStatefulSetAdmission,
  'apps.kruise.io/DaemonSet': () => (require('./advanced-daemon-set') as typeof import('./advanced-daemon-set')).advancedDaemonSetAdmission,
  'apps.kruise.io/SidecarSet': () => (require('./sidecar-set') as typeof import('./sidecar-set')).sidecarSetAdmission,
  'apps.kruise.io/WorkloadSpread': () => (require('./workload-spread') as typeof import('./workload-spread')).workloadSpreadAdmission,
  'policy.kruise.io/PodUnavailableBudget': () => (require('./pod-unavailable-budget') as typeof import('./pod-unavailable-budget')).podUnavailableBudgetAdmission,
  'apps.kruise.io/ResourceDistribution': () => (require('./resource-distribution') as typeof import('./resource-distribution')).resourceDistributionAdmission,
  'apps.kruise.io/BroadcastJob': () => (require('./broadcast-job') as typeof import('./broadcast-job')).broadcastJobAdmission,
  'apps.kruise.io/AdvancedCronJob': () => (require('./advanced-cron-job') as typeof import('./advanced-cron-job')).advancedCronJobAdmission,
  'apps.kruise.io/ImagePullJob': () => (require('./image-pull-job') as typeof import('./image-pull-job')).imagePullJobAdmission,
  'apps.kruise.io/ImageListPullJob': () => (require('./image-list-pull-job') as typeof import('./image-list-pull-job')).imageListPullJobAdmission,
  'apps.kruise.io/UnitedDeployment': () => (require('./united-deployment') as typeof import('./united-deployment')).unitedDeploymentAdmission,
  'apps.kruise.io/EphemeralJob': () => (require('./ephemeral-job') as typeof import('./ephemeral-job')).ephemeralJobAdmission,
  'apps.kruise.io/PersistentPodState': () => (require('./persistent-pod-state') as typeof import('./persistent-pod-state')).persistentPodStateAdmission,
  'apps.kruise.io/PodProbeMarker': () => (require('./pod-probe-marker') as typeof import('./pod-probe-marker')).podProbeMarkerAdmission,
  'apps.kruise.io/ContainerRecreateRequest': () => (require('./container-recreate-request') as typeof import('./container-recreate-request')).containerRecreateRequestAdmission,
  'rollouts.kruise.io/Rollout': () => (require('./rollout') as typeof import('./rollout')).rolloutAdmission,
  'rollouts.kruise.io/BatchRelease': () => (require('./batch-release') as typeof import('./batch-release')).batchReleaseAdmission,
};
/* eslint-enable @typescript-eslint/no-require-imports */

const loaded = new Map<string, AdmissionModule>();

function load(groupKind: string): AdmissionModule | undefined {
  let m = loaded.get(groupKind);
  if (!m) {
    const loader = LOADERS[groupKind];
    if (!loader) return undefined;
    m = loader();
    loaded.set(groupKind, m);
  }
  return m;
}

/** The admission module of an apiVersion and kind, if this library has one. */
export function admissionModuleFor(apiVersion: string, kind: string): AdmissionModule | undefined {
  const [group, version] = apiVersion.split('/');
  const m = load(`${group}/${kind}`);
  return m?.versions.includes(version) ? m : undefined;
}

/** Every registered module (all of them loaded). */
export function admissionModules(): readonly AdmissionModule[] {
  return Object.keys(LOADERS).map(k => load(k)!);
}
