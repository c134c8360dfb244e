import { objectReference } from '../blocks';
import {
  KindModel, PrinterColumn, Schema, VersionModel, anyObject, bool, int32, int64, list, obj, oneOf, str, time, untyped,
} from '../schema';
import { broadcastJobSpec } from './broadcast-job';
import { imageListPullJobSpec } from './image-list-pull-job';

/** A template for one kind of job: its metadata and spec. */
const jobTemplate = (spec: Schema): Schema => obj({
  metadata: anyObject(),
  spec,
});

/** The job created at each run: fill in exactly one template. */
const advancedCronJobTemplate = (extra: Record<string, Schema> = {}): Schema => obj({
  broadcastJobTemplate: jobTemplate(broadcastJobSpec()),
  jobTemplate: untyped('JobTemplateSpec'),
  ...extra,
});

const advancedCronJobSpec = (template: Schema): Schema => obj({
  'concurrencyPolicy': oneOf(['Allow', 'Forbid', 'Replace'], { description: 'What to do when a run is due while the previous one is still going.' }),
  'failedJobsHistoryLimit': int32({ description: 'Finished failed jobs to keep.' }),
  'paused': bool({ description: 'Skip the coming runs; running jobs are left alone.' }),
  'schedule!': str({ minLength: 0, description: 'The schedule, in cron format.' }),
  'startingDeadlineSeconds': int64({ description: 'Seconds after a missed run time during which the run may still start.' }),
  'successfulJobsHistoryLimit': int32({ description: 'Finished successful jobs to keep.' }),
  'template!': template,
  'timeZone': str({ description: 'A tz database zone name for the schedule (default: the controller\'s zone).' }),
});

const advancedCronJobStatus = (): Schema => obj({
  active: list(objectReference(), { description: 'The jobs running now.' }),
  lastScheduleTime: time(),
  type: str({ description: 'The kind of template in use.' }),
});

const printerColumns: PrinterColumn[] = [
  { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule', description: 'The cron schedule.' },
  { name: 'Type', type: 'string', jsonPath: '.status.type', description: 'The kind of job created.' },
  { name: 'LastScheduleTime', type: 'date', jsonPath: '.status.lastScheduleTime', description: 'When a job was last started.' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

const version = (name: string, storage: boolean, template: Schema): VersionModel => ({
  name,
  served: true,
  storage,
  description: 'Creates a Job, BroadcastJob or (v1beta1) ImageListPullJob on a cron schedule.',
  spec: advancedCronJobSpec(template),
  status: advancedCronJobStatus(),
  statusSubresource: true,
  printerColumns,
});

export const ADVANCED_CRON_JOB: KindModel = {
  group: 'apps.kruise.io',
  kind: 'AdvancedCronJob',
  plural: 'advancedcronjobs',
  singular: 'advancedcronjob',
  shortNames: ['acj'],
  scope: 'Namespaced',
  versions: [
    version('v1alpha1', false, advancedCronJobTemplate()),
    version('v1beta1', true, advancedCronJobTemplate({
      imageListPullJobTemplate: jobTemplate(imageListPullJobSpec()),
    })),
  ],
};
