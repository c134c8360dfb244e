import { KindModel, PrinterColumn, Schema, VersionModel, int32, list, obj, str, strings } from '../schema';
import { imagePullJobStatusFields, imagePullJobTemplateFields } from './image-pull-job';

/** The spec of an ImageListPullJob (also embedded by AdvancedCronJob v1beta1's imageListPullJobTemplate). */
export const imageListPullJobSpec = (): Schema => obj({
  'images!': strings({ description: 'The images to pull, with their tags.' }),
  ...imagePullJobTemplateFields(),
});

const imageListPullJobStatus = (): Schema => obj({
  ...imagePullJobStatusFields(),
  completed: int32({ description: 'Images whose pull job has finished.' }),
  failedImageStatuses: list(obj({
    imagePullJob: str(),
    message: str(),
    name: str(),
  }), { description: 'The images that failed, with the ImagePullJob that pulled each.' }),
});

const printerColumns: PrinterColumn[] = [
  { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Images to pull.' },
  { name: 'SUCCEEDED', type: 'integer', jsonPath: '.status.succeeded', description: 'Images pulled on every target node.' },
  { name: 'COMPLETED', type: 'integer', jsonPath: '.status.completed', description: 'Images whose pull has finished.' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** Both versions have the same schema. */
const version = (name: string, storage: boolean): VersionModel => ({
  name,
  served: true,
  storage,
  description: 'Pre-pulls a list of images onto a set of nodes, through one ImagePullJob per image.',
  spec: imageListPullJobSpec(),
  status: imageListPullJobStatus(),
  statusSubresource: true,
  printerColumns,
});

export const IMAGE_LIST_PULL_JOB: KindModel = {
  group: 'apps.kruise.io',
  kind: 'ImageListPullJob',
  plural: 'imagelistpulljobs',
  singular: 'imagelistpulljob',
  scope: 'Namespaced',
  versions: [version('v1alpha1', false), version('v1beta1', true)],
};
