/**
 * Building blocks shared by several kinds of the API model: Kubernetes core
 * types as they appear inside the OpenKruise CRDs, and OpenKruise pieces that
 * more than one kind reuses (lifecycle hooks, update priorities...).
 */
import { Schema, bool, int32, int64, intOrString, list, obj, str, stringMap, strings, time, untyped } from './schema';

// --- Kubernetes core pieces -------------------------------------------------

/** One `key <operator> values` requirement of a label selector. */
export const labelSelectorRequirement = (): Schema => obj({
  'key!': str(),
  'operator!': str(),
  'values': strings({ atomic: true }),
});

/** metav1.LabelSelector. */
export const labelSelector = (): Schema => obj({
  matchExpressions: list(labelSelectorRequirement(), { atomic: true }),
  matchLabels: stringMap(),
}, { atomic: true });

/** corev1.NodeSelectorTerm: node label and node field requirements. */
export const nodeSelectorTerm = (): Schema => obj({
  matchExpressions: list(labelSelectorRequirement(), { atomic: true }),
  matchFields: list(labelSelectorRequirement(), { atomic: true }),
}, { atomic: true });

/** corev1.Toleration. */
export const toleration = (): Schema => obj({
  effect: str(),
  key: str(),
  operator: str(),
  tolerationSeconds: int64(),
  value: str(),
});

/** A condition with a transition time (apps/v1 style). */
export const condition = (): Schema => obj({
  'lastTransitionTime': time(),
  'message': str(),
  'reason': str(),
  'status!': str(),
  'type!': str(),
});

/** A condition that also records when it was last probed (batch/v1 style). */
export const probedCondition = (): Schema => obj({
  'lastProbeTime': time(),
  'lastTransitionTime': time(),
  'message': str(),
  'reason': str(),
  'status!': str(),
  'type!': str(),
});

/** A condition that also records when it was last updated (CloneSet style). */
export const updatedCondition = (): Schema => obj({
  'lastTransitionTime': time(),
  'lastUpdateTime': time(),
  'message': str(),
  'reason': str(),
  'status!': str(),
  'type!': str(),
});

/** A reference to a workload by apiVersion, kind and name. */
export const workloadRef = (): Schema => obj({
  'apiVersion!': str(),
  'kind!': str(),
  'name!': str(),
});

/** A pod template, kept as written by the API server and typed as k8s.PodTemplateSpec in the L1. */
export const podTemplate = (): Schema => untyped('PodTemplateSpec');

/** A list of PVC templates, kept as written and typed as k8s.PersistentVolumeClaim in the L1. */
export const pvcTemplates = (): Schema => untyped('PersistentVolumeClaim[]');

// --- OpenKruise pieces --------------------------------------------------------

/** A lifecycle hook: labels or finalizers that hold a pod in a state until removed. */
export const lifecycleHook = (): Schema => obj({
  finalizersHandler: strings(),
  labelsHandler: stringMap(),
  markPodNotReady: bool(),
});

/** The lifecycle of a CloneSet / Advanced StatefulSet / Advanced DaemonSet pod. */
export const lifecycle = (): Schema => obj({
  inPlaceUpdate: lifecycleHook(),
  preDelete: lifecycleHook(),
  preNormal: lifecycleHook(),
});

/** The order in which pods are updated: by weight of selectors, or by a label value. */
export const updatePriorityStrategy = (): Schema => obj({
  orderPriority: list(obj({ 'orderedKey!': str() })),
  weightPriority: list(obj({
    'matchSelector!': labelSelector(),
    'weight!': int32(),
  })),
});

/** Spread updates by label key/value pairs. */
export const scatterStrategy = (): Schema => list(obj({
  'key!': str(),
  'value!': str(),
}));

/** The grace period between marking a pod not-ready and updating it in place. */
export const inPlaceUpdateStrategy = (): Schema => obj({
  gracePeriodSeconds: int32(),
});

/** corev1.ObjectReference: a pointer to any object (or a field of it), replaced as a whole on apply. */
export const objectReference = (): Schema => obj({
  apiVersion: str(),
  fieldPath: str(),
  kind: str(),
  name: str(),
  namespace: str(),
  resourceVersion: str(),
  uid: str(),
}, { atomic: true });

/** Labels and annotations given to the pod sandbox the CRI creates to pull an image. */
export const imagePullSandboxConfig = (): Schema => obj({
  annotations: stringMap(),
  labels: stringMap(),
});

/** corev1.ExecAction: a command run inside the container. */
export const execAction = (): Schema => obj({
  command: strings({ atomic: true }),
});

/** corev1.HTTPGetAction: an HTTP GET against the pod. */
export const httpGetAction = (): Schema => obj({
  'host': str(),
  'httpHeaders': list(obj({ 'name!': str(), 'value!': str() }), { atomic: true }),
  'path': str(),
  'port!': intOrString(),
  'scheme': str(),
});

/** corev1.TCPSocketAction: a TCP connection to a pod port. */
export const tcpSocketAction = (): Schema => obj({
  'host': str(),
  'port!': intOrString(),
});

/** A container probe (the handler and timing fields of corev1.Probe) that kruise-daemon runs on the node. */
export const containerProbeSpec = (): Schema => obj({
  exec: execAction(),
  failureThreshold: int32(),
  grpc: obj({ 'port!': int32(), 'service': str({ default: '' }) }),
  httpGet: httpGetAction(),
  initialDelaySeconds: int32(),
  periodSeconds: int32(),
  successThreshold: int32(),
  tcpSocket: tcpSocketAction(),
  terminationGracePeriodSeconds: int64(),
  timeoutSeconds: int32(),
});

/** A named probe against one container of a pod (PodProbeMarker, NodePodProbe); `more` adds kind-specific fields. */
export const containerProbe = (more: Record<string, Schema> = {}): Schema => obj({
  'containerName!': str({ description: 'The container the probe runs against.' }),
  'name!': str({ description: 'The probe name, unique within its owner.' }),
  'probe!': containerProbeSpec(),
  ...more,
});
