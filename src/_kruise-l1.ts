/**
 * The L1 bindings load the first time a construct needs one, not when the
 * library is required: the constructs import only their types statically and
 * read their classes through `_l1(kind)` and `_rolloutsL1()`, which load the
 * module of that kind alone (imports/kruise/ and imports/rollouts/ hold one
 * module per kind and version). The `kruise` and `rollouts` namespaces users
 * see are the indexes of those folders, lazy as well in the compiled package
 * (build-tools/lazy-exports.ts); included YAML reads its classes through them.
 */
import type * as L1 from '../imports/kruise';
import type * as RolloutsL1 from '../imports/rollouts';
import { schemaEntry } from './validation/schemas';

/* eslint-disable @typescript-eslint/no-require-imports */
/** The L1 module of the version each construct writes (the kind's storage version). */
const KRUISE = {
  AdvancedCronJob: () => require('../imports/kruise/advanced-cron-job-v1beta1') as typeof import('../imports/kruise/advanced-cron-job-v1beta1'),
  BroadcastJob: () => require('../imports/kruise/broadcast-job-v1beta1') as typeof import('../imports/kruise/broadcast-job-v1beta1'),
  CloneSet: () => require('../imports/kruise/clone-set-v1alpha1') as typeof import('../imports/kruise/clone-set-v1alpha1'),
  ContainerRecreateRequest: () => require('../imports/kruise/container-recreate-request-v1alpha1') as typeof import('../imports/kruise/container-recreate-request-v1alpha1'),
  DaemonSet: () => require('../imports/kruise/daemon-set-v1beta1') as typeof import('../imports/kruise/daemon-set-v1beta1'),
  EphemeralJob: () => require('../imports/kruise/ephemeral-job-v1alpha1') as typeof import('../imports/kruise/ephemeral-job-v1alpha1'),
  ImageListPullJob: () => require('../imports/kruise/image-list-pull-job-v1beta1') as typeof import('../imports/kruise/image-list-pull-job-v1beta1'),
  ImagePullJob: () => require('../imports/kruise/image-pull-job-v1beta1') as typeof import('../imports/kruise/image-pull-job-v1beta1'),
  PersistentPodState: () => require('../imports/kruise/persistent-pod-state-v1alpha1') as typeof import('../imports/kruise/persistent-pod-state-v1alpha1'),
  PodProbeMarker: () => require('../imports/kruise/pod-probe-marker-v1alpha1') as typeof import('../imports/kruise/pod-probe-marker-v1alpha1'),
  PodUnavailableBudget: () => require('../imports/kruise/pod-unavailable-budget-v1alpha1') as typeof import('../imports/kruise/pod-unavailable-budget-v1alpha1'),
  ResourceDistribution: () => require('../imports/kruise/resource-distribution-v1alpha1') as typeof import('../imports/kruise/resource-distribution-v1alpha1'),
  SidecarSet: () => require('../imports/kruise/sidecar-set-v1beta1') as typeof import('../imports/kruise/sidecar-set-v1beta1'),
  StatefulSet: () => require('../imports/kruise/stateful-set-v1beta1') as typeof import('../imports/kruise/stateful-set-v1beta1'),
  UnitedDeployment: () => require('../imports/kruise/united-deployment-v1alpha1') as typeof import('../imports/kruise/united-deployment-v1alpha1'),
  WorkloadSpread: () => require('../imports/kruise/workload-spread-v1alpha1') as typeof import('../imports/kruise/workload-spread-v1alpha1'),
};
const ROLLOUT = () => require('../imports/rollouts/rollout-v1beta1') as typeof import('../imports/rollouts/rollout-v1beta1');
/* eslint-enable @typescript-eslint/no-require-imports */

type KruiseModules = { [K in keyof typeof KRUISE]: ReturnType<(typeof KRUISE)[K]> };
const loaded: Partial<KruiseModules> = {};
let rolloutLoaded: ReturnType<typeof ROLLOUT> | undefined;

/**
 * The L1 module of one OpenKruise kind (the version the constructs write), loaded on first use.
 * @internal
 */
export function _l1<K extends keyof KruiseModules>(kind: K): KruiseModules[K] {
  return (loaded[kind] ??= KRUISE[kind]() as KruiseModules[K]) as KruiseModules[K];
}

/**
 * The L1 module of the Kruise Rollouts Rollout (the version the construct writes), loaded on first use.
 * @internal
 */
export function _rolloutsL1(): ReturnType<typeof ROLLOUT> {
  rolloutLoaded ??= ROLLOUT();
  return rolloutLoaded;
}

/**
 * The L1 class of an OpenKruise or Kruise Rollouts apiVersion and kind (only
 * its module is loaded), or undefined when the library does not know it.
 * @internal
 */
export function _l1Class(apiVersion: string, kind: string): (new (...args: any[]) => any) | undefined {
  const entry = schemaEntry(apiVersion, kind);
  if (!entry) return undefined;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const namespace: Record<string, any> = apiVersion.startsWith('rollouts.kruise.io/')
    ? require('../imports/rollouts') as typeof RolloutsL1
    : require('../imports/kruise') as typeof L1;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return namespace[entry.l1Class];
}
