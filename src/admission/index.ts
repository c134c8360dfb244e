/**
 * The registry of the admission layer: group/version/kind -> the module
 * holding that kind's defaults and rules (one file per kind in this folder).
 */
import { advancedCronJobAdmission } from './advanced-cron-job';
import { advancedDaemonSetAdmission } from './advanced-daemon-set';
import { advancedStatefulSetAdmission } from './advanced-stateful-set';
import { broadcastJobAdmission } from './broadcast-job';
import { cloneSetAdmission } from './clone-set';
import { containerRecreateRequestAdmission } from './container-recreate-request';
import { ephemeralJobAdmission } from './ephemeral-job';
import { imageListPullJobAdmission } from './image-list-pull-job';
import { imagePullJobAdmission } from './image-pull-job';
import { nodeImageAdmission } from './node-image';
import { persistentPodStateAdmission } from './persistent-pod-state';
import { podProbeMarkerAdmission } from './pod-probe-marker';
import { podUnavailableBudgetAdmission } from './pod-unavailable-budget';
import { resourceDistributionAdmission } from './resource-distribution';
import { rolloutAdmission } from './rollout';
import { sidecarSetAdmission } from './sidecar-set';
import { AdmissionModule } from './types';
import { unitedDeploymentAdmission } from './united-deployment';
import { workloadSpreadAdmission } from './workload-spread';

const MODULES: AdmissionModule[] = [
  nodeImageAdmission,
  cloneSetAdmission,
  advancedStatefulSetAdmission,
  advancedDaemonSetAdmission,
  sidecarSetAdmission,
  workloadSpreadAdmission,
  podUnavailableBudgetAdmission,
  resourceDistributionAdmission,
  broadcastJobAdmission,
  advancedCronJobAdmission,
  imagePullJobAdmission,
  imageListPullJobAdmission,
  unitedDeploymentAdmission,
  ephemeralJobAdmission,
  persistentPodStateAdmission,
  podProbeMarkerAdmission,
  containerRecreateRequestAdmission,
  rolloutAdmission,
];

const byKey = new Map<string, AdmissionModule>();
for (const m of MODULES) {
  for (const v of m.versions) byKey.set(`${m.group}/${v}/${m.kind}`, m);
}

/** The admission module of an apiVersion and kind, if this library has one. */
export function admissionModuleFor(apiVersion: string, kind: string): AdmissionModule | undefined {
  return byKey.get(`${apiVersion}/${kind}`);
}

/** Every registered module. */
export function admissionModules(): readonly AdmissionModule[] {
  return MODULES;
}
