import { ApiObject, Cron, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AdvancedCronJob, AdvancedCronJobConcurrencyPolicy, AdvancedCronJobTemplate,
  BroadcastJob, BroadcastJobCompletionPolicy, BroadcastJobFailurePolicy, ImagePullJobCompletionPolicy, ImagePullNodes, Warnings,
} from '../src';
import { synthFails as fails } from './util/synth-fails';
import { _registerGateSource } from '../src/validation/gates';

const image = 'busybox:1.36';

beforeAll(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());
const synthAcj = (chart: any) => Testing.synth(chart).find((m: any) => m.kind === 'AdvancedCronJob');
const job = AdvancedCronJobTemplate.job({ containers: [{ image }] });

describe('AdvancedCronJob', () => {
  test('renders only what was set, at the storage version apps.kruise.io/v1beta1, and nothing of the hidden Job', () => {
    const chart = Testing.chart();
    new AdvancedCronJob(chart, 'nightly', { schedule: '0 2 * * *', template: job });
    const manifests = Testing.synth(chart);
    expect(manifests.map((m: any) => m.kind)).toEqual(['AdvancedCronJob']);
    const m = manifests[0];
    expect(m.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(Object.keys(m.spec).sort()).toEqual(['schedule', 'template']);
    expect(m.spec.schedule).toBe('0 2 * * *');
    expect(Object.keys(m.spec.template)).toEqual(['jobTemplate']);
    expect(Object.keys(m.spec.template.jobTemplate)).toEqual(['spec']);
    expect(Object.keys(m.spec.template.jobTemplate.spec)).toEqual(['template']);
    const pod = m.spec.template.jobTemplate.spec.template;
    expect(pod.metadata.labels).toEqual({ 'cdk8s.io/metadata.addr': 'test-nightly-JobTemplate-c8a8a566' });
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.spec.containers[0].image).toBe(image);
    expect(Warnings.of(chart)).toEqual([]);
  });

  test('renders every prop field by field', () => {
    const chart = Testing.chart();
    const acj = new AdvancedCronJob(chart, 'nightly', {
      metadata: { name: 'nightly', namespace: 'ops' },
      schedule: '30 2 * * 1-5',
      timeZone: 'Europe/Berlin',
      concurrencyPolicy: AdvancedCronJobConcurrencyPolicy.FORBID,
      startingDeadline: Duration.minutes(5),
      successfulJobsHistoryLimit: 5,
      failedJobsHistoryLimit: 2,
      paused: true,
      template: job,
    });
    const m = synthAcj(chart);
    expect(m.metadata).toEqual({ name: 'nightly', namespace: 'ops' });
    const { template, ...rest } = m.spec;
    expect(rest).toEqual({
      schedule: '30 2 * * 1-5',
      timeZone: 'Europe/Berlin',
      concurrencyPolicy: 'Forbid',
      startingDeadlineSeconds: 300,
      successfulJobsHistoryLimit: 5,
      failedJobsHistoryLimit: 2,
      paused: true,
    });
    expect(acj.schedule).toBe('30 2 * * 1-5');
    expect(acj.concurrencyPolicy).toBe(AdvancedCronJobConcurrencyPolicy.FORBID);
    expect(acj.resourceType).toBe('advancedcronjobs');
  });

  test('a cdk8s Cron gives the schedule through its expression', () => {
    const chart = Testing.chart();
    new AdvancedCronJob(chart, 'nightly', { schedule: Cron.schedule({ minute: '15', hour: '3' }).expressionString, template: job });
    expect(synthAcj(chart).spec.schedule).toBe('15 3 * * *');
  });

  test('its default child is the AdvancedCronJob object', () => {
    const chart = Testing.chart();
    const acj = new AdvancedCronJob(chart, 'nightly', { schedule: '@daily', template: job });
    expect((acj.node.defaultChild as ApiObject).kind).toBe('AdvancedCronJob');
  });

  describe('job template', () => {
    test('renders the kplus Job props and the labels and annotations of the Jobs', () => {
      const chart = Testing.chart();
      const acj = new AdvancedCronJob(chart, 'nightly', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.job({
          metadata: { labels: { team: 'ops' }, annotations: { owner: 'ops@example.com' } },
          podMetadata: { labels: { app: 'report' } },
          containers: [{ image, command: ['report'] }],
          restartPolicy: kplus.RestartPolicy.ON_FAILURE,
          activeDeadline: Duration.minutes(30),
          backoffLimit: 2,
          ttlAfterFinished: Duration.hours(1),
        }),
      });
      // the hidden Job is a plain kplus workload: add to it after construction
      acj.workload!.addContainer({ name: 'sidecar', image });
      const t = synthAcj(chart).spec.template.jobTemplate;
      expect(t.metadata).toEqual({ labels: { team: 'ops' }, annotations: { owner: 'ops@example.com' } });
      expect(t.spec.activeDeadlineSeconds).toBe(1800);
      expect(t.spec.backoffLimit).toBe(2);
      expect(t.spec.ttlSecondsAfterFinished).toBe(3600);
      expect(t.spec.template.metadata.labels.app).toBe('report');
      expect(t.spec.template.spec.restartPolicy).toBe('OnFailure');
      expect(t.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['main', 'sidecar']);
      expect(acj.workload).toBeInstanceOf(kplus.Job);
    });
  });

  describe('broadcastJob template', () => {
    test('renders the BroadcastJob props', () => {
      const chart = Testing.chart();
      const acj = new AdvancedCronJob(chart, 'nightly', {
        schedule: '0 3 * * *',
        template: AdvancedCronJobTemplate.broadcastJob({
          podMetadata: { labels: { team: 'ops' } },
          containers: [{ image }],
          parallelism: kplus.PercentOrAbsolute.percent(10),
          completionPolicy: BroadcastJobCompletionPolicy.always({ activeDeadline: Duration.hours(2), ttlAfterFinished: Duration.hours(1) }),
          failurePolicy: BroadcastJobFailurePolicy.continueOnFailure({ restartLimit: 1 }),
          paused: false,
        }),
      });
      acj.workload!.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.is('dedicated', 'batch', { effect: kplus.TaintEffect.NO_SCHEDULE })));
      const manifests = Testing.synth(chart);
      expect(manifests.map((m: any) => m.kind)).toEqual(['AdvancedCronJob']);
      const t = manifests[0].spec.template;
      expect(Object.keys(t)).toEqual(['broadcastJobTemplate']);
      const b = t.broadcastJobTemplate;
      expect(Object.keys(b)).toEqual(['spec']);
      expect(b.spec.template.metadata.labels.team).toBe('ops');
      expect(b.spec.parallelism).toBe('10%');
      expect(b.spec.completionPolicy).toEqual({ type: 'Always', activeDeadlineSeconds: 7200, ttlSecondsAfterFinished: 3600 });
      expect(b.spec.failurePolicy).toEqual({ type: 'Continue', restartLimit: 1 });
      expect(b.spec.paused).toBe(false);
      expect(b.spec.template.spec.restartPolicy).toBe('Never');
      expect(b.spec.template.spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' }]);
      expect(acj.workload).toBeInstanceOf(BroadcastJob);
    });

    test('renders only the pod template when nothing else is set', () => {
      const chart = Testing.chart();
      new AdvancedCronJob(chart, 'nightly', { schedule: '@daily', template: AdvancedCronJobTemplate.broadcastJob({ containers: [{ image }] }) });
      const b = synthAcj(chart).spec.template.broadcastJobTemplate;
      expect(Object.keys(b)).toEqual(['spec']);
      expect(Object.keys(b.spec)).toEqual(['template']);
    });
  });

  describe('imageListPullJob template', () => {
    test('renders the images, the nodes and the pull settings', () => {
      const chart = Testing.chart();
      const acj = new AdvancedCronJob(chart, 'prepull', {
        schedule: '0 1 * * *',
        template: AdvancedCronJobTemplate.imageListPullJob({
          images: ['nginx:1.27', 'redis:7.4'],
          parallelism: 5,
          nodes: ImagePullNodes.labeled(kplus.LabelSelector.of({ labels: { pool: 'web' }, expressions: [kplus.LabelExpression.exists('ssd')] })),
          pullSecrets: [kplus.Secret.fromSecretName(chart, 'regcred', 'regcred')],
          imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
          pullTimeout: Duration.minutes(5),
          backoffLimit: 2,
          completionPolicy: ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.hours(1) }),
          sandboxConfig: { labels: { team: 'web' } },
        }),
      });
      expect(acj.workload).toBeUndefined();
      expect(synthAcj(chart).spec.template).toEqual({
        imageListPullJobTemplate: {
          spec: {
            images: ['nginx:1.27', 'redis:7.4'],
            parallelism: 5,
            selector: { matchLabels: { pool: 'web' }, matchExpressions: [{ key: 'ssd', operator: 'Exists' }] },
            pullSecrets: ['regcred'],
            imagePullPolicy: 'Always',
            pullPolicy: { timeoutSeconds: 300, backoffLimit: 2 },
            // type Always is left to the AdvancedCronJob's defaults, which add the pull defaults only when it is unset
            completionPolicy: { activeDeadlineSeconds: 3600 },
            sandboxConfig: { labels: { team: 'web' } },
          },
        },
      });
    });

    test('renders the required empty completion policy when only images are set, and node names', () => {
      const chart = Testing.chart();
      new AdvancedCronJob(chart, 'prepull', { schedule: '@daily', template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'], nodes: ImagePullNodes.named('node-1') }) });
      expect(synthAcj(chart).spec.template.imageListPullJobTemplate).toEqual({
        spec: { images: ['nginx:1.27'], selector: { names: ['node-1'] }, completionPolicy: {} },
      });
    });

    test('needs the KruiseDaemon and ImagePullJobGate gates of the app\'s control plane', () => {
      const chart = Testing.chart();
      _registerGateSource(chart, { path: 'test/kruise', isEnabled: g => g === 'KruiseDaemon', howToEnable: g => `set featureGates ${g}=true` });
      new AdvancedCronJob(chart, 'prepull', { schedule: '@daily', template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'] }) });
      expect(() => Testing.synth(chart)).toThrow("[test/prepull] AdvancedCronJob \"test-prepull-c858b712\" (apps.kruise.io/v1beta1) spec.template.imageListPullJobTemplate.spec.images: [\"nginx:1.27\"] needs the OpenKruise feature gate ImagePullJobGate, which is off in the control plane at 'test/kruise' (the webhook refuses the ImageListPullJob each run creates then); set featureGates ImagePullJobGate=true");
    });

    test('the pod templates need no gate', () => {
      const chart = Testing.chart();
      _registerGateSource(chart, { path: 'test/kruise', isEnabled: () => false, howToEnable: g => `set featureGates ${g}=true` });
      new AdvancedCronJob(chart, 'nightly', { schedule: '@daily', template: job });
      expect(() => Testing.synth(chart)).not.toThrow();
    });
  });

  describe('admission rules an AdvancedCronJob user can hit', () => {
    test('a schedule with a seconds field', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', { schedule: '0 0 2 * * *', template: job }),
        '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) spec.schedule: "0 0 2 * * *" has 6 fields, not 5; give minute, hour, day-of-month, month and day-of-week (there is no seconds or year field)');
    });

    test('a TZ prefix next to timeZone', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', { schedule: 'CRON_TZ=UTC 0 2 * * *', timeZone: 'Europe/Berlin', template: job }),
        '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) spec.schedule: "CRON_TZ=UTC 0 2 * * *" contains "TZ" while spec.timeZone is set; give the zone once: drop the TZ=/CRON_TZ= prefix or spec.timeZone');
    });

    test('an unknown time zone', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', { schedule: '@daily', timeZone: 'Mars/Olympus', template: job }),
        '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) spec.timeZone: "Mars/Olympus" is not a time zone of the tz database');
    });

    test('a negative history limit', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', { schedule: '@daily', successfulJobsHistoryLimit: -1, template: job }),
        '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) spec.successfulJobsHistoryLimit: -1 is negative; use 0 or more');
    });

    test('a job template restartPolicy Always', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.job({ containers: [{ image }], restartPolicy: kplus.RestartPolicy.ALWAYS }),
      }), '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) spec.template.jobTemplate.spec.template.spec.restartPolicy: "Always" is not allowed for the pods of a Job, which run to completion: the cluster admits the AdvancedCronJob, then refuses every Job it creates from this template when the schedule fires, so none ever runs; set restartPolicy to Never or OnFailure (it defaults to Always)');
    });

    test('a broadcastJob template restartPolicy Always', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.broadcastJob({ containers: [{ image }], restartPolicy: kplus.RestartPolicy.ALWAYS }),
      }), '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) spec.template.broadcastJobTemplate.spec.template.spec.restartPolicy: "Always" is not allowed for the pods of a BroadcastJob, which run to completion');
    });

    test('a template with no container', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', { schedule: '@daily', template: AdvancedCronJobTemplate.job() }),
        '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) spec.template.jobTemplate.spec.template.spec.containers: [] must list at least one container');
    });

    test('an imageListPullJob template with concurrencyPolicy Allow', () => {
      fails(chart => new AdvancedCronJob(chart, 'prepull', {
        schedule: '@daily',
        concurrencyPolicy: AdvancedCronJobConcurrencyPolicy.ALLOW,
        template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'] }),
      }), '[test/prepull] AdvancedCronJob "test-prepull-c858b712" (apps.kruise.io/v1beta1) spec.concurrencyPolicy: "Allow" is not allowed with an imageListPullJobTemplate; use Replace (the default here) or Forbid');
    });

    test('an imageListPullJob deadline over a day, and below the pull timeout', () => {
      fails(chart => new AdvancedCronJob(chart, 'prepull', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.imageListPullJob({
          images: ['nginx:1.27'], completionPolicy: ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.hours(25) }),
        }),
      }), '[test/prepull] AdvancedCronJob "test-prepull-c858b712" (apps.kruise.io/v1beta1) spec.template.imageListPullJobTemplate.spec.completionPolicy.activeDeadlineSeconds: 90000 is more than 86400 (one day); use at most 86400 seconds');
      fails(chart => new AdvancedCronJob(chart, 'prepull', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.imageListPullJob({
          images: ['nginx:1.27'], pullTimeout: Duration.minutes(10), completionPolicy: ImagePullJobCompletionPolicy.always({ activeDeadline: Duration.minutes(5) }),
        }),
      }), 'spec.template.imageListPullJobTemplate.spec.completionPolicy.activeDeadlineSeconds: 300 is less than pullPolicy.timeoutSeconds (600)');
    });

    test('an imageListPullJob that never completes, or keeps itself with a time to live', () => {
      fails(chart => new AdvancedCronJob(chart, 'prepull', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'], completionPolicy: ImagePullJobCompletionPolicy.never() }),
      }), '[test/prepull] AdvancedCronJob "test-prepull-c858b712" (apps.kruise.io/v1beta1) spec.template.imageListPullJobTemplate.spec.completionPolicy.type: "Never" must be Always for the pull jobs of an AdvancedCronJob; use Always or leave it unset');
      fails(chart => new AdvancedCronJob(chart, 'prepull', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'], completionPolicy: ImagePullJobCompletionPolicy.always({ ttlAfterFinished: Duration.hours(1) }) }),
      }), '[test/prepull] AdvancedCronJob "test-prepull-c858b712" (apps.kruise.io/v1beta1) spec.template.imageListPullJobTemplate.spec.completionPolicy.ttlSecondsAfterFinished: 3600 is not supported in an AdvancedCronJob');
    });

    test('an imageListPullJob on the nodes of some pods', () => {
      const chart = Testing.chart();
      new AdvancedCronJob(chart, 'prepull', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'], nodes: ImagePullNodes.ofPods(kplus.LabelSelector.of({ labels: { app: 'web' } })) }),
      });
      expect(synthAcj(chart).spec.template.imageListPullJobTemplate.spec.podSelector).toEqual({ matchLabels: { app: 'web' } });
    });

    test('an imageListPullJob with no image', () => {
      fails(chart => new AdvancedCronJob(chart, 'prepull', { schedule: '@daily', template: AdvancedCronJobTemplate.imageListPullJob({ images: [] }) }),
        '[test/prepull] AdvancedCronJob "test-prepull-c858b712" (apps.kruise.io/v1beta1) spec.template.imageListPullJobTemplate.spec.images');
    });
  });

  describe('errors of the construct', () => {
    test('a job template metadata name is refused', () => {
      expect(() => new AdvancedCronJob(Testing.chart(), 'nightly', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.job({ metadata: { name: 'report' }, containers: [{ image }] }),
      })).toThrow("AdvancedCronJob at 'test/nightly': template job 'metadata.name' (\"report\") is not used: each run's job is named after the AdvancedCronJob, in its namespace; set only labels and annotations");
    });

    test('a broadcastJob template metadata is refused: the CRD keeps none', () => {
      expect(() => new AdvancedCronJob(Testing.chart(), 'nightly', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.broadcastJob({ metadata: { labels: { team: 'ops' }, namespace: 'ops' }, containers: [{ image }] }),
      })).toThrow("AdvancedCronJob at 'test/nightly': template broadcastJob 'metadata' (labels: {\"team\":\"ops\"}, namespace: \"ops\") cannot be kept: "
        + "OpenKruise's CRD lists no fields under spec.template.broadcastJobTemplate.metadata, so the API server drops them (kubectl's strict field validation "
        + 'refuses them) and no BroadcastJob of a run gets them; leave out metadata, label the pods with podMetadata, or use AdvancedCronJobTemplate.job');
    });

    test('imagePullPolicy Never is refused for an imageListPullJob', () => {
      expect(() => new AdvancedCronJob(Testing.chart(), 'prepull', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'], imagePullPolicy: kplus.ImagePullPolicy.NEVER }),
      })).toThrow("AdvancedCronJob at 'test/prepull': template imageListPullJob 'imagePullPolicy' (Never) would pull nothing; use ImagePullPolicy.ALWAYS or IF_NOT_PRESENT");
    });

    test('a parallelism that is not a whole number of nodes is refused for an imageListPullJob', () => {
      expect(() => new AdvancedCronJob(Testing.chart(), 'prepull', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.imageListPullJob({ images: ['nginx:1.27'], parallelism: 1.5 }),
      })).toThrow("AdvancedCronJob at 'test/prepull': template imageListPullJob 'parallelism' (1.5) must be a whole number of nodes; use e.g. 2");
    });

    test('a starting deadline that is not whole seconds names the construct and the prop', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', { schedule: '@daily', startingDeadline: Duration.millis(2500), template: job }),
        '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) startingDeadline: "2.5 seconds" is not a whole number of seconds; use Duration.seconds(3)');
    });

    test('a template deadline that is not whole seconds', () => {
      fails(chart => new AdvancedCronJob(chart, 'nightly', {
        schedule: '@daily',
        template: AdvancedCronJobTemplate.job({ containers: [{ image }], activeDeadline: Duration.millis(100) }),
      }), '[test/nightly] AdvancedCronJob "test-nightly-c82305a2" (apps.kruise.io/v1beta1) template.activeDeadline: "0.1 seconds" is not a whole number of seconds; use Duration.seconds(1)');
    });
  });
});
