/**
 * AdvancedCronJob: a CronJob that can create a Job, a BroadcastJob or an
 * ImageListPullJob on each run.
 *
 * The job template is chosen with a factory of `AdvancedCronJobTemplate`
 * (`job()`, `broadcastJob()`, `imageListPullJob()`). The pod-based templates
 * take the props a user already knows (`kplus.JobProps`, `BroadcastJobProps`)
 * and need a construct to render a pod spec from them, so the AdvancedCronJob
 * builds a hidden child workload from those props, a `kplus.Job` with id
 * 'JobTemplate' or a `BroadcastJob` with id 'BroadcastJobTemplate', and
 * removes that child's own API object from the tree right away: nothing of
 * the child is synthesized except the job spec the AdvancedCronJob embeds.
 * The child is exposed as `workload`, so containers, volumes and scheduling
 * can be added after construction as on any cdk8s-plus workload.
 *
 * The schedule, time zone, history limits, the template's restart policy and
 * the rest of the manifest rules are judged at synth by the admission layer
 * for every AdvancedCronJob in the app; this file renders only what was set.
 */
import { ApiObject, ApiObjectMetadata, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { _l1 } from './_kruise-l1';
import { BroadcastJob, BroadcastJobProps } from './broadcast-job';
import { ImageListPullJobOptions, _imageListPullJobSpec } from './image-list-pull-job';
import { _checkPullJob } from './image-pull-job';
import { _followTarget } from './releases/served';
import { _intOrString, _seconds, _withPath } from './strategies';
import type * as kruise from '../imports/kruise';
import { _assertOwnKplus } from './validation/foreign-kplus';

/** What an AdvancedCronJob does when a run is due while the previous job is still running. */
export enum AdvancedCronJobConcurrencyPolicy {
  /** Start the new job next to the running one. */
  ALLOW = 'Allow',
  /** Skip the new run. */
  FORBID = 'Forbid',
  /** Delete the running job and start the new one. */
  REPLACE = 'Replace',
}

/** The template kinds. */
enum TemplateKind { JOB = 'job', BROADCAST_JOB = 'broadcastJob', IMAGE_LIST_PULL_JOB = 'imageListPullJob' }

/** The job an AdvancedCronJob creates at each run: pick one with a factory. */
export class AdvancedCronJobTemplate {
  /**
   * A Kubernetes Job, from the props of a `kplus.Job` (its `metadata` gives
   * the labels and annotations of each Job; the pod restart policy defaults to Never).
   *
   * @param props containers, volumes, scheduling, backoff limit, deadline
   */
  public static job(props: kplus.JobProps = {}): AdvancedCronJobTemplate {
    return new AdvancedCronJobTemplate(TemplateKind.JOB, props);
  }

  /**
   * An OpenKruise BroadcastJob (a pod on every selected node), from the
   * props of a `BroadcastJob`. Its `metadata` must stay unset: OpenKruise's
   * CRD keeps no labels or annotations for the BroadcastJob of a run (label
   * the pods with `podMetadata`).
   *
   * @param props containers, scheduling, parallelism, completion and failure policy
   */
  public static broadcastJob(props: BroadcastJobProps = {}): AdvancedCronJobTemplate {
    return new AdvancedCronJobTemplate(TemplateKind.BROADCAST_JOB, props);
  }

  /**
   * An OpenKruise ImageListPullJob: pull a list of images onto nodes, from
   * the options of an `ImageListPullJob`. Each run's job must finish
   * (completion policy Always, the default) within a day, and is kept by
   * the history limits, not by a time to live. Needs the KruiseDaemon and
   * ImagePullJobGate feature gates.
   *
   * @param options the images, the nodes, and pull settings
   */
  public static imageListPullJob(options: ImageListPullJobOptions): AdvancedCronJobTemplate {
    return new AdvancedCronJobTemplate(TemplateKind.IMAGE_LIST_PULL_JOB, options);
  }

  private constructor(private readonly kind: TemplateKind, private readonly props: object) {}

  /**
   * Build the hidden workload of the template (if any) under `scope`.
   * @internal
   */
  public _bind(scope: AdvancedCronJob): _BoundTemplate {
    switch (this.kind) {
      case TemplateKind.JOB: {
        const props = this.props as kplus.JobProps;
        const meta = templateMetadata(scope, 'job', props.metadata);
        const job = new kplus.Job(scope, 'JobTemplate', { ...props, metadata: undefined });
        job.node.tryRemoveChild('Resource');
        return {
          workload: job,
          render: () => ({
            jobTemplate: {
              metadata: meta,
              spec: {
                template: podTemplate(job),
                activeDeadlineSeconds: _seconds(job.activeDeadline, 'template.activeDeadline'),
                backoffLimit: job.backoffLimit,
                ttlSecondsAfterFinished: _seconds(job.ttlAfterFinished, 'template.ttlAfterFinished'),
              },
            },
          }),
        };
      }
      case TemplateKind.BROADCAST_JOB: {
        const props = this.props as BroadcastJobProps;
        refuseTemplateMetadata(scope, props.metadata);
        const bj = new BroadcastJob(scope, 'BroadcastJobTemplate', { ...props, metadata: undefined });
        bj.node.tryRemoveChild('Resource');
        return {
          workload: bj,
          render: () => {
            const spec = bj._toKube();
            return {
              broadcastJobTemplate: {
                spec: {
                  ...spec,
                  parallelism: _intOrString(bj.parallelism, _l1('AdvancedCronJob').AdvancedCronJobSpecTemplateBroadcastJobTemplateSpecParallelism),
                },
              },
            };
          },
        };
      }
      default: {
        const o = this.props as ImageListPullJobOptions;
        _checkPullJob(scope, 'AdvancedCronJob', o, 'template imageListPullJob ');
        return { render: () => ({ imageListPullJobTemplate: { spec: imageListPullJobSpec(o) } }) };
      }
    }
  }
}

/**
 * A template bound to its AdvancedCronJob.
 * @internal
 */
export interface _BoundTemplate {
  /** The hidden workload the pod template is rendered from. */
  readonly workload?: kplus.Workload;
  /** The `spec.template` of the AdvancedCronJob. */
  render(): kruise.AdvancedCronJobSpecTemplate;
}

/** The labels and annotations of the created jobs; a name or namespace is refused. */
function templateMetadata(scope: Construct, factory: string, meta: ApiObjectMetadata | undefined): any {
  if (!meta) return undefined;
  for (const f of ['name', 'namespace'] as const) {
    if (meta[f] !== undefined) {
      throw new Error(`AdvancedCronJob at '${scope.node.path}': template ${factory} 'metadata.${f}' (${JSON.stringify(meta[f])}) is not used: `
        + 'each run\'s job is named after the AdvancedCronJob, in its namespace; set only labels and annotations');
    }
  }
  const out = { labels: meta.labels, annotations: meta.annotations };
  return out.labels || out.annotations ? out : undefined;
}

/**
 * A BroadcastJob template keeps no metadata: OpenKruise's CRD lists no
 * fields under spec.template.broadcastJobTemplate.metadata, so the API
 * server drops its labels and annotations (kubectl's strict field validation
 * refuses them) and the BroadcastJob of each run never has them.
 */
function refuseTemplateMetadata(scope: Construct, meta: ApiObjectMetadata | undefined): void {
  if (!meta) return;
  const set = (Object.keys(meta) as Array<keyof ApiObjectMetadata>).filter(k => meta[k] !== undefined);
  if (set.length === 0) return;
  throw new Error(`AdvancedCronJob at '${scope.node.path}': template broadcastJob 'metadata' (${set.map(k => `${k}: ${JSON.stringify(meta[k])}`).join(', ')}) cannot be kept: `
    + 'OpenKruise\'s CRD lists no fields under spec.template.broadcastJobTemplate.metadata, so the API server drops them (kubectl\'s strict field validation '
    + 'refuses them) and no BroadcastJob of a run gets them; leave out metadata, label the pods with podMetadata, or use AdvancedCronJobTemplate.job');
}

/** The pod template of a hidden workload; with no container yet, an empty list the rules report. */
function podTemplate(w: kplus.Workload): k8s.PodTemplateSpec {
  return { metadata: w.podMetadata.toJson(), spec: w.containers.length === 0 ? { containers: [] } : w._toPodSpec() };
}

function imageListPullJobSpec(o: ImageListPullJobOptions): kruise.AdvancedCronJobSpecTemplateImageListPullJobTemplateSpec {
  const spec = _imageListPullJobSpec(o, o.images);
  // completionPolicy is required by the schema. Type Always (the only one an
  // AdvancedCronJob takes) is left unset: with a type written, the
  // AdvancedCronJob webhook would skip its pull defaults (timeout, retries).
  const { type, ...completionPolicy } = spec.completionPolicy;
  return {
    ...spec,
    completionPolicy: type === 'Always' ? completionPolicy : spec.completionPolicy,
  } as kruise.AdvancedCronJobSpecTemplateImageListPullJobTemplateSpec;
}

/** Props of an `AdvancedCronJob`. */
export interface AdvancedCronJobProps extends kplus.ResourceProps {
  /**
   * When jobs are created, in cron format: five fields (minute, hour,
   * day-of-month, month, day-of-week), a descriptor such as `@daily` or
   * `@every 2h`, optionally after a `CRON_TZ=<zone> ` prefix. A cdk8s
   * `Cron`'s `expressionString` works too.
   */
  readonly schedule: string;

  /** The job created at each run. */
  readonly template: AdvancedCronJobTemplate;

  /**
   * A tz database zone name (e.g. Europe/Berlin) the schedule is read in.
   *
   * @default - the zone of the OpenKruise controller
   */
  readonly timeZone?: string;

  /**
   * What to do when a run is due while the previous job still runs.
   *
   * @default - Allow, or Replace with an imageListPullJob template (the OpenKruise defaults; not written)
   */
  readonly concurrencyPolicy?: AdvancedCronJobConcurrencyPolicy;

  /**
   * How late a missed run may still start (e.g. after a controller restart).
   *
   * @default - no deadline
   */
  readonly startingDeadline?: Duration;

  /**
   * Finished successful jobs to keep.
   *
   * @default - 3 (the OpenKruise default; not written)
   */
  readonly successfulJobsHistoryLimit?: number;

  /**
   * Finished failed jobs to keep.
   *
   * @default - 1 (the OpenKruise default; not written)
   */
  readonly failedJobsHistoryLimit?: number;

  /**
   * Skip the coming runs; running jobs are left alone.
   *
   * @default false
   */
  readonly paused?: boolean;
}

/**
 * An OpenKruise AdvancedCronJob (`apps.kruise.io/v1beta1`): a CronJob whose
 * runs create a Job, a BroadcastJob (a pod on every node) or an
 * ImageListPullJob.
 *
 * Replaces a hand-written manifest such as
 *
 * ```yaml
 * apiVersion: apps.kruise.io/v1beta1
 * kind: AdvancedCronJob
 * spec:
 *   schedule: "0 2 * * *"
 *   timeZone: Europe/Berlin
 *   concurrencyPolicy: Forbid
 *   template:
 *     broadcastJobTemplate:
 *       spec:
 *         template: { spec: { restartPolicy: Never, containers: [...] } }
 *         completionPolicy: { type: Always, ttlSecondsAfterFinished: 3600 }
 * ```
 */
export class AdvancedCronJob extends kplus.Resource {
  /** The schedule. */
  public readonly schedule: string;

  /** The time zone of the schedule, when set. */
  public readonly timeZone?: string;

  /** The concurrency policy, when set. */
  public readonly concurrencyPolicy?: AdvancedCronJobConcurrencyPolicy;

  /** The starting deadline, when set. */
  public readonly startingDeadline?: Duration;

  /** Successful jobs kept, when set. */
  public readonly successfulJobsHistoryLimit?: number;

  /** Failed jobs kept, when set. */
  public readonly failedJobsHistoryLimit?: number;

  /** Whether the runs are paused, when set. */
  public readonly paused?: boolean;

  /**
   * The workload the job template's pods come from (a `kplus.Job` or a
   * `BroadcastJob`; nothing for an imageListPullJob template): add
   * containers, volumes and scheduling to it. Only its pod template and job
   * settings are synthesized, inside this AdvancedCronJob.
   */
  public readonly workload?: kplus.Workload;

  /** @see base.Resource.apiObject */
  protected readonly apiObject: ApiObject;

  public readonly resourceType = 'advancedcronjobs';

  private readonly template: _BoundTemplate;

  public constructor(scope: Construct, id: string, props: AdvancedCronJobProps) {
    super(scope, id);
    _assertOwnKplus(`AdvancedCronJob at '${this.node.path}'`, props);
    this.schedule = props.schedule;
    this.timeZone = props.timeZone;
    this.concurrencyPolicy = props.concurrencyPolicy;
    this.startingDeadline = props.startingDeadline;
    this.successfulJobsHistoryLimit = props.successfulJobsHistoryLimit;
    this.failedJobsHistoryLimit = props.failedJobsHistoryLimit;
    this.paused = props.paused;
    this.apiObject = new (_l1('AdvancedCronJob').KubeAdvancedCronJob)(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this._toKube() }),
    });
    // written in the API version the app's target serves (v1alpha1 on OpenKruise 1.7 and 1.8)
    _followTarget(this.apiObject);
    this.template = props.template._bind(this);
    this.workload = this.template.workload;
  }

  /** @internal */
  public _toKube(): kruise.AdvancedCronJobSpec {
    return _withPath(this, () => ({
      schedule: this.schedule,
      timeZone: this.timeZone,
      concurrencyPolicy: this.concurrencyPolicy as string as kruise.AdvancedCronJobSpecConcurrencyPolicy | undefined,
      startingDeadlineSeconds: _seconds(this.startingDeadline, 'startingDeadline'),
      successfulJobsHistoryLimit: this.successfulJobsHistoryLimit,
      failedJobsHistoryLimit: this.failedJobsHistoryLimit,
      paused: this.paused,
      template: this.template.render(),
    }));
  }
}
