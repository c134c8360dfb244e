/**
 * The API model: every kind and served version of OpenKruise v1.9.0
 * (`apps.kruise.io`, `policy.kruise.io`) and of Kruise Rollouts v0.6.2
 * (`rollouts.kruise.io`). One module per kind under ./kinds; shared pieces in
 * ./blocks (and ./kinds/_rollouts for the Rollouts group).
 */
import { ADVANCED_CRON_JOB } from './kinds/advanced-cron-job';
import { BATCH_RELEASE } from './kinds/batch-release';
import { BROADCAST_JOB } from './kinds/broadcast-job';
import { CLONE_SET } from './kinds/clone-set';
import { CONTAINER_RECREATE_REQUEST } from './kinds/container-recreate-request';
import { DAEMON_SET } from './kinds/daemon-set';
import { EPHEMERAL_JOB } from './kinds/ephemeral-job';
import { IMAGE_LIST_PULL_JOB } from './kinds/image-list-pull-job';
import { IMAGE_PULL_JOB } from './kinds/image-pull-job';
import { NODE_IMAGE } from './kinds/node-image';
import { NODE_POD_PROBE } from './kinds/node-pod-probe';
import { PERSISTENT_POD_STATE } from './kinds/persistent-pod-state';
import { POD_PROBE_MARKER } from './kinds/pod-probe-marker';
import { POD_UNAVAILABLE_BUDGET } from './kinds/pod-unavailable-budget';
import { RESOURCE_DISTRIBUTION } from './kinds/resource-distribution';
import { ROLLOUT } from './kinds/rollout';
import { ROLLOUT_HISTORY } from './kinds/rollout-history';
import { SIDECAR_SET } from './kinds/sidecar-set';
import { STATEFUL_SET } from './kinds/stateful-set';
import { TRAFFIC_ROUTING } from './kinds/traffic-routing';
import { UNITED_DEPLOYMENT } from './kinds/united-deployment';
import { WORKLOAD_SPREAD } from './kinds/workload-spread';
import { KindModel } from './schema';

export * from './schema';
export * from './crd';

/** The OpenKruise version this model describes. */
export const KRUISE_VERSION = 'v1.9.0';

/** The Kruise Rollouts version the `rollouts.kruise.io` kinds describe. */
export const ROLLOUTS_VERSION = 'v0.6.2';

const byGroupAndPlural = (a: KindModel, b: KindModel) => (a.group + '/' + a.plural).localeCompare(b.group + '/' + b.plural);

/** Every OpenKruise kind (`apps.kruise.io`, `policy.kruise.io`), in a stable order (group, then plural). */
export const KINDS: KindModel[] = [
  ADVANCED_CRON_JOB,
  BROADCAST_JOB,
  CLONE_SET,
  CONTAINER_RECREATE_REQUEST,
  DAEMON_SET,
  EPHEMERAL_JOB,
  IMAGE_LIST_PULL_JOB,
  IMAGE_PULL_JOB,
  NODE_IMAGE,
  NODE_POD_PROBE,
  PERSISTENT_POD_STATE,
  POD_PROBE_MARKER,
  POD_UNAVAILABLE_BUDGET,
  RESOURCE_DISTRIBUTION,
  SIDECAR_SET,
  STATEFUL_SET,
  UNITED_DEPLOYMENT,
  WORKLOAD_SPREAD,
].sort(byGroupAndPlural);

/** Every Kruise Rollouts kind (`rollouts.kruise.io`), in a stable order. */
export const ROLLOUT_KINDS: KindModel[] = [BATCH_RELEASE, ROLLOUT, ROLLOUT_HISTORY, TRAFFIC_ROUTING].sort(byGroupAndPlural);

/** Every kind of the model, both products. */
export const ALL_KINDS: KindModel[] = [...KINDS, ...ROLLOUT_KINDS];

/** The product version a kind belongs to, e.g. `OpenKruise v1.9.0`. */
export function productOf(k: KindModel): string {
  return k.group === 'rollouts.kruise.io' ? `Kruise Rollouts ${ROLLOUTS_VERSION}` : `OpenKruise ${KRUISE_VERSION}`;
}

/** Look up a kind by API group and kind name. */
export function findKind(group: string, kind: string): KindModel | undefined {
  return ALL_KINDS.find(k => k.group === group && k.kind === kind);
}
