import { imagePullSandboxConfig, labelSelector, labelSelectorRequirement } from '../blocks';
import {
  KindModel, PrinterColumn, Schema, VersionModel, int32, intOrString, list, obj, str, stringMap, strings, time,
} from '../schema';
import { jobCompletionPolicy } from './broadcast-job';

/**
 * The fields every image pull job has, whatever it pulls (ImagePullJobTemplate
 * upstream): shared by ImagePullJob and ImageListPullJob.
 */
export const imagePullJobTemplateFields = (): Record<string, Schema> => ({
  'completionPolicy!': jobCompletionPolicy(),
  'imagePullPolicy': str({ description: 'Always or IfNotPresent.' }),
  'parallelism': intOrString({ description: 'Nodes that may pull at the same time.' }),
  'podSelector': labelSelector(),
  'pullPolicy': obj({
    backoffLimit: int32({ description: 'Retries on a node before its pull counts as failed.' }),
    timeoutSeconds: int32({ description: 'Seconds a single pull attempt may take.' }),
  }),
  'pullSecrets': strings({ description: 'Names of image pull secrets in the job\'s namespace.' }),
  'sandboxConfig': imagePullSandboxConfig(),
  'selector': obj({
    matchExpressions: list(labelSelectorRequirement(), { atomic: true }),
    matchLabels: stringMap(),
    names: strings({ description: 'Names of the nodes to pull on.' }),
  }, { atomic: true }),
});

/** The status counters every image pull job reports. */
export const imagePullJobStatusFields = (): Record<string, Schema> => ({
  'active': int32(),
  'completionTime': time(),
  'desired!': int32(),
  'startTime': time(),
  'succeeded': int32(),
});

const imagePullJobSpec = (): Schema => obj({
  'image!': str({ description: 'The image to pull, with its tag.' }),
  ...imagePullJobTemplateFields(),
});

const imagePullJobStatus = (): Schema => obj({
  ...imagePullJobStatusFields(),
  failed: int32(),
  failedNodes: strings({ description: 'Nodes where the pull failed.' }),
  message: str(),
});

const printerColumns: PrinterColumn[] = [
  { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Nodes the job targets.' },
  { name: 'ACTIVE', type: 'integer', jsonPath: '.status.active', description: 'Pulls in progress.' },
  { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Pulls that succeeded.' },
  { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Pulls that failed.' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** Both versions have the same schema; only v1alpha1 shows the status message column. */
const version = (name: string, storage: boolean, columns: PrinterColumn[]): VersionModel => ({
  name,
  served: true,
  storage,
  description: 'Pre-pulls one image onto a set of nodes.',
  spec: imagePullJobSpec(),
  status: imagePullJobStatus(),
  statusSubresource: true,
  printerColumns: columns,
});

export const IMAGE_PULL_JOB: KindModel = {
  group: 'apps.kruise.io',
  kind: 'ImagePullJob',
  plural: 'imagepulljobs',
  singular: 'imagepulljob',
  scope: 'Namespaced',
  versions: [
    version('v1alpha1', false, [...printerColumns, { name: 'MESSAGE', type: 'string', jsonPath: '.status.message' }]),
    version('v1beta1', true, printerColumns),
  ],
};
