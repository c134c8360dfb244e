import { podTemplate, probedCondition } from '../blocks';
import { KindModel, PrinterColumn, Schema, VersionModel, bool, int32, int64, intOrString, list, obj, str, time } from '../schema';

/**
 * When a job counts as finished and how long it lives on: shared by
 * BroadcastJob, ImagePullJob and ImageListPullJob.
 */
export const jobCompletionPolicy = (): Schema => obj({
  activeDeadlineSeconds: int64({ description: 'Seconds the job may stay active before it is failed and its work stopped.' }),
  ttlSecondsAfterFinished: int32({ description: 'Seconds after the job finishes before it is deleted.' }),
  type: str({ description: 'Always (the job ends once every target ran) or Never (it keeps running).' }),
});

/** What a BroadcastJob does when its pods fail. */
const broadcastJobFailurePolicy = (): Schema => obj({
  restartLimit: int32({ description: 'How many times a failed pod is retried.' }),
  type: str({ description: 'Continue, FailFast or Pause.' }),
});

/** The spec of a BroadcastJob (also embedded by AdvancedCronJob's broadcastJobTemplate). */
export const broadcastJobSpec = (): Schema => obj({
  'completionPolicy': jobCompletionPolicy(),
  'failurePolicy': broadcastJobFailurePolicy(),
  'parallelism': intOrString({ description: 'Pods (or percent of nodes) that may run at the same time.' }),
  'paused': bool({ description: 'Stop creating new pods; running ones go on.' }),
  'template!': podTemplate(),
});

const broadcastJobStatus = (): Schema => obj({
  active: int32(),
  completionTime: time(),
  conditions: list(probedCondition()),
  desired: int32({ description: 'Nodes the job should run on.' }),
  failed: int32(),
  phase: str(),
  startTime: time(),
  succeeded: int32(),
});

const printerColumns: PrinterColumn[] = [
  { name: 'Desired', type: 'integer', jsonPath: '.status.desired', description: 'Nodes the job should run on.' },
  { name: 'Active', type: 'integer', jsonPath: '.status.active', description: 'Pods running now.' },
  { name: 'Succeeded', type: 'integer', jsonPath: '.status.succeeded', description: 'Pods that succeeded.' },
  { name: 'Failed', type: 'integer', jsonPath: '.status.failed', description: 'Pods that failed.' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** Both versions have the same schema. */
const version = (name: string, storage: boolean): VersionModel => ({
  name,
  served: true,
  storage,
  description: 'Runs a pod to completion on every selected node of the cluster.',
  spec: broadcastJobSpec(),
  status: broadcastJobStatus(),
  statusSubresource: true,
  printerColumns,
});

export const BROADCAST_JOB: KindModel = {
  group: 'apps.kruise.io',
  kind: 'BroadcastJob',
  plural: 'broadcastjobs',
  singular: 'broadcastjob',
  shortNames: ['bcj'],
  scope: 'Namespaced',
  versions: [version('v1alpha1', false), version('v1beta1', true)],
};
