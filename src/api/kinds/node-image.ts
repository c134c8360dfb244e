import { imagePullSandboxConfig, objectReference } from '../blocks';
import { KindModel, PrinterColumn, Schema, VersionModel, int32, int64, list, mapOf, obj, str, time } from '../schema';

/** A pull secret by name and namespace; v1beta1 adds how it is used. */
const pullSecretRef = (extra: Record<string, Schema> = {}): Schema => obj({
  name: str(),
  namespace: str(),
  ...extra,
});

/** One tag of an image to pull on the node, and who asked for it. */
const nodeImageTag = (): Schema => obj({
  'createdAt': time(),
  'imagePullPolicy': str({ description: 'Always or IfNotPresent.' }),
  'ownerReferences': list(objectReference(), { description: 'The objects (such as ImagePullJobs) that asked for this tag.' }),
  'pullPolicy': obj({
    activeDeadlineSeconds: int64(),
    backoffLimit: int32(),
    timeoutSeconds: int32(),
    ttlSecondsAfterFinished: int32(),
  }),
  'tag!': str(),
  'version': int64({ description: 'Bumped to pull the tag again.' }),
});

const nodeImageSpec = (pullSecret: Schema): Schema => obj({
  images: mapOf(obj({
    'pullSecrets': list(pullSecret),
    'sandboxConfig': imagePullSandboxConfig(),
    'tags!': list(nodeImageTag()),
  }), { description: 'The images to pull on the node, by image name.' }),
});

/** How pulling one tag went. */
const tagStatus = (): Schema => obj({
  'completionTime': time(),
  'imageID': str(),
  'message': str(),
  'phase!': str(),
  'progress': int32({ description: 'Percent pulled so far.' }),
  'startTime': time(),
  'tag!': str(),
  'version': int64(),
});

const nodeImageStatus = (): Schema => obj({
  'desired!': int32(),
  'failed': int32(),
  'firstSyncStatus': obj({
    message: str(),
    status: str(),
    syncAt: time(),
  }),
  'imageStatuses': mapOf(obj({ 'tags!': list(tagStatus()) }), { description: 'Pull results, by image name.' }),
  'pulling': int32(),
  'succeeded': int32(),
  'waiting': int32(),
});

const printerColumns: PrinterColumn[] = [
  { name: 'DESIRED', type: 'integer', jsonPath: '.status.desired', description: 'Image tags to pull on the node.' },
  { name: 'PULLING', type: 'integer', jsonPath: '.status.pulling', description: 'Tags being pulled now.' },
  { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Tags pulled.' },
  { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Tags that failed to pull.' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

const version = (name: string, storage: boolean, pullSecret: Schema): VersionModel => ({
  name,
  served: true,
  storage,
  description: 'The images one node should have pulled, and how pulling them went (one per node, named after it).',
  spec: nodeImageSpec(pullSecret),
  status: nodeImageStatus(),
  statusSubresource: true,
  printerColumns,
});

export const NODE_IMAGE: KindModel = {
  group: 'apps.kruise.io',
  kind: 'NodeImage',
  plural: 'nodeimages',
  singular: 'nodeimage',
  scope: 'Cluster',
  versions: [
    version('v1alpha1', false, pullSecretRef()),
    version('v1beta1', true, pullSecretRef({ mode: str({ description: 'How the secret is used for the pull.' }) })),
  ],
};
