/**
 * The API of OpenKruise 1.8 (config/crd/bases of v1.8.4), as changes against
 * 1.9's. Kept equal to those CRDs by test/releases/conformance.test.ts.
 */
import { int32 } from '../../api/schema';
import type { LineModel } from '../changes';
import { everywhere, keys, remove, set, storage, unserve } from '../changes';

/** The seven kinds 1.9 gives a v1beta1 (and makes it the storage version); 1.8 serves v1alpha1 only. */
const ALPHA_ONLY = ['AdvancedCronJob', 'BroadcastJob', 'DaemonSet', 'ImageListPullJob', 'ImagePullJob', 'NodeImage', 'SidecarSet'];

export const MODEL: LineModel = {
  changes: [
    ...ALPHA_ONLY.flatMap(k => [unserve(k, 'v1beta1'), storage(k, 'v1alpha1')]),
    // 1.8's code generator wrote no list-type markers on Kubernetes' own types
    everywhere('x-kubernetes-list-type'),
    // CloneSet: no progress deadline (nor in UnitedDeployment's CloneSet template), no lastUpdateTime in conditions
    remove('CloneSet', 'spec.progressDeadlineSeconds'),
    remove('CloneSet', 'status.conditions[].lastUpdateTime'),
    remove('UnitedDeployment', 'spec.template.cloneSetTemplate.spec.progressDeadlineSeconds'),
    // Advanced DaemonSet: the partition is a number of pods only; the hash is a required status field
    set('DaemonSet', 'spec.updateStrategy.rollingUpdate.partition', int32()),
    keys('DaemonSet', 'status', { required: ['currentNumberScheduled', 'daemonSetHash', 'desiredNumberScheduled', 'numberMisscheduled', 'numberReady', 'updatedNumberScheduled'] }),
    remove('NodeImage', 'status.waiting'),
    // probes: no empty default for the gRPC service
    keys('NodePodProbe', 'spec.podProbes[].probes[].probe.grpc.service', { default: undefined }),
    keys('PodProbeMarker', 'spec.probes[].probe.grpc.service', { default: undefined }),
    // SidecarSet: no resources policy or device sharing on its containers, no empty default for a pull secret's name
    remove('SidecarSet', 'spec.containers[].resourcesPolicy'),
    remove('SidecarSet', 'spec.containers[].shareVolumeDevicePolicy'),
    remove('SidecarSet', 'spec.initContainers[].resourcesPolicy'),
    remove('SidecarSet', 'spec.initContainers[].shareVolumeDevicePolicy'),
    keys('SidecarSet', 'spec.imagePullSecrets[].name', { default: undefined }),
    // UnitedDeployment: the adaptive strategy's recovery time in seconds, no reserved pods
    remove('UnitedDeployment', 'spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods'),
    remove('UnitedDeployment', 'spec.topology.scheduleStrategy.adaptive.unschedulableDuration'),
    set('UnitedDeployment', 'spec.topology.scheduleStrategy.adaptive.unschedulableLastSeconds', int32()),
    remove('UnitedDeployment', 'status.reservedPods'),
    remove('UnitedDeployment', 'status.subsetStatuses[].readyReplicas'),
    remove('UnitedDeployment', 'status.subsetStatuses[].reservedPods'),
  ],
};
