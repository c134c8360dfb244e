import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { parse } from 'yaml';
import { HEALTH_FIXTURES } from './fixtures';
import { ArgoCdHealthChecks, KruiseActions, KruiseHealthChecks } from '../../src';
import { main } from '../../src/cli';
import { KIND_ACTIONS } from '../../src/health/actions';
import { ActionOutcome, describeWithArgoCd, runActions } from '../argocd/engine';

function run(args: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = main(args, { out: t => { out += t; }, err: t => { err += t; } });
  return { code, out, err };
}

const DATA = KruiseActions.argoCdConfigData();

describe('Argo CD resource actions in argocd-cm', () => {
  test('one key per kind, named as Argo CD reads them (resource.customizations.actions.<group>_<Kind>, Pod for the core group)', () => {
    expect(Object.keys(DATA)).toEqual([
      'resource.customizations.actions.apps.kruise.io_CloneSet',
      'resource.customizations.actions.apps.kruise.io_StatefulSet',
      'resource.customizations.actions.apps.kruise.io_DaemonSet',
      'resource.customizations.actions.apps.kruise.io_BroadcastJob',
      'resource.customizations.actions.apps.kruise.io_AdvancedCronJob',
      'resource.customizations.actions.rollouts.kruise.io_Rollout',
      'resource.customizations.actions.Pod',
    ]);
  });

  test('each value holds discovery.lua and one definition per action, the actions of the model', () => {
    for (const kind of KIND_ACTIONS) {
      const key = `resource.customizations.actions.${kind.group ? `${kind.group}_` : ''}${kind.kind}`;
      const value = parse(DATA[key]);
      expect(Object.keys(value)).toEqual(['discovery.lua', 'definitions']);
      expect(value.definitions.map((d: any) => d.name)).toEqual(kind.actions.map(a => a.name));
      for (const d of value.definitions) expect(Object.keys(d)).toEqual(['name', 'action.lua']);
    }
  });

  test('the scripts use no Lua library Argo CD leaves closed to actions (only base, table and its safe os)', () => {
    for (const [key, value] of Object.entries(DATA)) {
      const scripts = parse(value);
      for (const script of [scripts['discovery.lua'], ...scripts.definitions.map((d: any) => d['action.lua'])]) {
        expect({ key, libraries: script.match(/\b(string|math|io|coroutine|debug)\.\w+|\bos\.(?!time\(|date\()\w+|:\w+\(/g) }).toEqual({ key, libraries: null });
      }
    }
  });

  test('ArgoCdHealthChecks writes the actions beside the health scripts, unless actions is false', () => {
    const chart = Testing.chart();
    new ArgoCdHealthChecks(chart, 'argo');
    new ArgoCdHealthChecks(chart, 'health-only', { namespace: 'other', actions: false });
    const [withActions, healthOnly] = Testing.synth(chart);
    expect(withActions.data).toEqual({ ...KruiseHealthChecks.argoCdConfigData(), ...DATA });
    expect(healthOnly.data).toEqual(KruiseHealthChecks.argoCdConfigData());
  });

  test('cdk8s-kruise health --argocd prints them too; --no-actions leaves them out', () => {
    expect(parse(run(['health', '--argocd']).out).data).toEqual({ ...KruiseHealthChecks.argoCdConfigData(), ...DATA });
    expect(parse(run(['health', '--argocd', '--no-actions']).out).data).toEqual(KruiseHealthChecks.argoCdConfigData());
    expect(run(['health', '--flux', '--no-actions'])).toEqual({
      code: 1,
      out: '',
      err: 'cdk8s-kruise health: --no-actions leaves the Argo CD actions out of argocd-cm; Flux has no actions (docs/control-planes.md gives the Flux way of each), so leave it out with --flux (cdk8s-kruise health --help)\n',
    });
  });
});

describe('the docs list each action as the model has it', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'control-planes.md'), 'utf8');
  const table = (heading: string) => {
    const at = doc.indexOf(heading);
    return doc.slice(at, doc.indexOf('\n\n', doc.indexOf('| ---', at)));
  };
  const argo = table('#### Operations from Argo CD: resource actions');
  const flux = table('#### The same operations with Flux');

  test('every action of every kind is a row of the Argo CD table, by name', () => {
    for (const kind of KIND_ACTIONS) {
      for (const a of kind.actions) {
        const rows = argo.split('\n').filter(l => l.includes(`\`${a.name}\``) && (l.includes(kind.title) || (kind.kind === 'Pod' && l.startsWith('| Pod'))));
        expect({ kind: kind.kind, action: a.name, rows: rows.length > 0 }).toEqual({ kind: kind.kind, action: a.name, rows: true });
      }
    }
  });

  test('the Flux table gives the command of each action no manifest can say, and a commit for the others', () => {
    for (const kind of KIND_ACTIONS) {
      for (const a of kind.actions) {
        const command = a.flux.what.split(' ').slice(0, 3).join(' ');
        const found = a.flux.way === 'kubectl' ? flux.includes(command) : /commit `[^`]*paused|commit `replicas`/.test(flux);
        const row = { kind: kind.kind, action: a.name, way: a.flux.way, command };
        expect({ ...row, found }).toEqual({ ...row, found: true });
        expect(a.flux.undoneByReconcile).toBe(a.flux.way === 'kubectl' ? 'never' : 'if the manifest sets the field');
      }
    }
  });
});

// ---- live objects as the controllers leave them ----
const meta = { name: 'web', namespace: 'shop', uid: '1f0c6f0e-0000-4000-8000-000000000001', generation: 2 };
const fixture = (name: string) => structuredClone(HEALTH_FIXTURES.find(f => f.name === name)!.object);
const cloneSet = (updateStrategy: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: meta,
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, updateStrategy },
  status: { observedGeneration: 2, replicas: 3, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3, updatedReadyReplicas: 1 },
});
const statefulSet = (updateStrategy: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: meta, spec: { replicas: 2, serviceName: 'web', updateStrategy }, status: { observedGeneration: 2, replicas: 2 },
});
const daemonSet = (updateStrategy: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: meta, spec: { updateStrategy }, status: { observedGeneration: 2, desiredNumberScheduled: 1 },
});
const broadcastJob = (spec: Record<string, unknown>, phase: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob', metadata: meta, spec: { template: {}, ...spec }, status: { phase, desired: 1 },
});
const cronJob = (spec: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'AdvancedCronJob',
  metadata: { name: 'nightly', namespace: 'shop', uid: '1f0c6f0e-0000-4000-8000-000000000002' },
  spec: {
    schedule: '0 3 * * *',
    template: {
      broadcastJobTemplate: {
        metadata: { labels: { job: 'nightly' } },
        spec: {
          completionPolicy: { type: 'Always' },
          template: {
            metadata: {},
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'main', image: 'busybox:1.36', args: ['true'], resources: {}, volumeMounts: [{ name: 'scratch', mountPath: '/tmp' }] }],
              volumes: [{ name: 'scratch', emptyDir: {} }],
            },
          },
        },
      },
    },
    ...spec,
  },
});
const rollout = (spec: Record<string, unknown>, status: Record<string, unknown>) => ({
  apiVersion: 'rollouts.kruise.io/v1beta1',
  kind: 'Rollout',
  metadata: meta,
  spec: { workloadRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' }, strategy: { canary: { steps: [{ replicas: 1 }, { replicas: '50%' }, { replicas: '100%' }] }, ...spec } },
  status,
});
const releasing = (step: number, state: string) => ({
  observedGeneration: 2,
  phase: 'Progressing',
  currentStepIndex: step,
  currentStepState: state,
  canaryStatus: { observedWorkloadGeneration: 3, canaryRevision: 'c', canaryReplicas: step, canaryReadyReplicas: step, podTemplateHash: 'h', currentStepIndex: step, nextStepIndex: step + 1, finalisingStep: '', currentStepState: state },
});
const pod = (owner: { apiVersion: string; kind: string }, status: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-x7k2p', namespace: 'shop', uid: '1f0c6f0e-0000-4000-8000-000000000003', ownerReferences: [{ ...owner, name: 'web', uid: 'u', controller: true }] },
  spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'app:1' }, { name: 'log', image: 'log:1' }] },
  status,
});
const running = {
  phase: 'Running',
  containerStatuses: [{ name: 'app', containerID: 'containerd://a1', ready: true, restartCount: 0 }, { name: 'log', containerID: 'containerd://b2', ready: true, restartCount: 0 }],
};
const CLONE_SET_OWNER = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' };

/** [state, object, the actions discovery lists (name: its parameters)] */
const DISCOVERY: [string, unknown, Record<string, string[] | undefined>][] = [
  ['CloneSet updating', cloneSet({ type: 'InPlaceIfPossible' }), { pause: undefined, scale: ['replicas'] }],
  ['CloneSet paused', cloneSet({ paused: true }), { resume: undefined, scale: ['replicas'] }],
  ['Advanced StatefulSet rolling', statefulSet({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } }), { pause: undefined, scale: ['replicas'] }],
  ['Advanced StatefulSet paused', statefulSet({ type: 'RollingUpdate', rollingUpdate: { paused: true } }), { resume: undefined, scale: ['replicas'] }],
  ['Advanced StatefulSet OnDelete', statefulSet({ type: 'OnDelete' }), { scale: ['replicas'] }],
  ['Advanced DaemonSet rolling', daemonSet({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }), { pause: undefined }],
  ['Advanced DaemonSet paused', daemonSet({ type: 'RollingUpdate', rollingUpdate: { paused: true } }), { resume: undefined }],
  ['Advanced DaemonSet OnDelete', daemonSet({ type: 'OnDelete' }), {}],
  ['BroadcastJob running', broadcastJob({}, 'running'), { suspend: undefined }],
  ['BroadcastJob paused', broadcastJob({ paused: true }, 'paused'), { resume: undefined }],
  ['BroadcastJob completed', broadcastJob({}, 'completed'), {}],
  ['AdvancedCronJob', cronJob({}), { 'run-now': undefined, 'suspend': undefined }],
  ['AdvancedCronJob paused', cronJob({ paused: true }), { 'resume': undefined, 'run-now': undefined }],
  ['Rollout with no release in progress', fixture('Rollout with no release in progress'), {}],
  ['Rollout step 1 waiting for approval', rollout({}, releasing(1, 'StepPaused')), { approve: undefined, pause: undefined }],
  ['Rollout (v1alpha1) step 1 waiting for approval', fixture('Rollout (read as v1alpha1) step 1 paused for approval'), { approve: undefined, pause: undefined }],
  ['Rollout upgrading step 2', rollout({}, releasing(2, 'StepUpgrade')), { 'pause': undefined, 'step-back': ['step'] }],
  ['Rollout paused at step 3 waiting for approval', rollout({ paused: true }, releasing(3, 'StepPaused')), { 'approve': undefined, 'resume': undefined, 'step-back': ['step'] }],
  ['Pod of a CloneSet, running', pod(CLONE_SET_OWNER, running), { 'restart-in-place': ['container'] }],
  ['Pod of an Advanced StatefulSet, running', pod({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' }, running), { 'restart-in-place': ['container'] }],
  ['Pod of a CloneSet, a container not started', pod(CLONE_SET_OWNER, { phase: 'Running', containerStatuses: [running.containerStatuses[0], { name: 'log', ready: false, restartCount: 0 }] }), {}],
  ['Pod of a CloneSet, pending', pod(CLONE_SET_OWNER, { phase: 'Pending' }), {}],
  ['Pod of a ReplicaSet', pod({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }, running), {}],
];

describeWithArgoCd('the actions run by Argo CD v3.5.8\'s Lua VM (util/lua), as its API server runs them', () => {
  const discovered = new Map(runActions(DATA, DISCOVERY.map(([id, object]) => ({ id, object }))).map(o => [o.id!, o]));

  test.each(DISCOVERY)('discovery: %s', (id, _object, expected) => {
    const o = discovered.get(id)!;
    expect(o.discoveryError).toBeUndefined();
    expect(Object.fromEntries(o.actions!.map(a => [a.name, a.params]))).toEqual(expected);
    expect(o.actions!.every(a => a.disabled === undefined && a.displayName && a.iconClass)).toBe(true);
  });

  const one = (object: unknown, action: string, params?: Record<string, string>): ActionOutcome =>
    runActions(DATA, [{ id: action, object, action, params }])[0];

  test('pause and resume patch the switch the controller reads, and nothing else', () => {
    expect(one(cloneSet({ type: 'InPlaceIfPossible' }), 'pause')).toMatchObject({ patch: { spec: { updateStrategy: { paused: true } } } });
    expect(one(cloneSet({ paused: true }), 'resume')).toMatchObject({ patch: { spec: { updateStrategy: { paused: false } } } });
    expect(one(statefulSet({ type: 'RollingUpdate' }), 'pause')).toMatchObject({ patch: { spec: { updateStrategy: { rollingUpdate: { paused: true } } } } });
    expect(one(daemonSet({ type: 'RollingUpdate', rollingUpdate: { paused: true } }), 'resume')).toMatchObject({ patch: { spec: { updateStrategy: { rollingUpdate: { paused: false } } } } });
    expect(one(broadcastJob({}, 'running'), 'suspend')).toMatchObject({ patch: { spec: { paused: true } } });
    expect(one(cronJob({ paused: true }), 'resume')).toMatchObject({ patch: { spec: { paused: false } } });
    expect(one(rollout({}, releasing(2, 'StepUpgrade')), 'pause')).toMatchObject({ patch: { spec: { strategy: { paused: true } } } });
    for (const o of [one(cloneSet({}), 'pause'), one(rollout({ paused: true }, releasing(2, 'StepUpgrade')), 'resume')]) {
      expect(o.statusPatch).toBeUndefined();
      expect(o.create).toBeUndefined();
    }
  });

  test('an action run where it does not apply fails with why, and changes nothing', () => {
    expect(one(cloneSet({}), 'resume')).toEqual({
      id: 'resume',
      actions: expect.any(Array),
      actionError: 'CloneSet shop/web: the update is not paused (spec.updateStrategy.paused is not true); there is nothing to resume',
    });
    expect(one(statefulSet({ type: 'OnDelete' }), 'pause').actionError)
      .toBe('Advanced StatefulSet shop/web: updateStrategy is OnDelete (pods update only when deleted) or the update is already paused; pause applies to a RollingUpdate');
    expect(one(broadcastJob({}, 'completed'), 'suspend').actionError)
      .toBe('BroadcastJob shop/web: completed and spec.paused is false; only a running job that is not paused can be suspended');
    expect(one(rollout({}, releasing(2, 'StepUpgrade')), 'approve').actionError)
      .toBe('Rollout shop/web: no step waits for approval (phase Progressing, step 2 StepUpgrade); a step can be approved while its state is StepPaused');
    expect(one(fixture('Rollout with no release in progress'), 'step-back').actionError)
      .toBe('Rollout shop/web: no earlier step to go back to (phase Healthy, step 0); going back applies from step 2 of a release in progress; to cancel a release, revert the workload in git');
    expect(one(pod({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }, running), 'restart-in-place').actionError)
      .toBe('Pod shop/web-x7k2p: is not a running pod of a CloneSet, Advanced StatefulSet or Advanced DaemonSet with every container started (phase Running); kruise-daemon restarts containers only in such a pod');
  });

  test('a null of the live object comes back as its removal in Argo CD\'s patch (Lua has no null)', () => {
    const withNull = cloneSet({});
    (withNull.spec as any).template = { metadata: { creationTimestamp: null, labels: { app: 'web' } } };
    expect(one(withNull, 'pause').patch).toEqual({ spec: { updateStrategy: { paused: true }, template: { metadata: { creationTimestamp: null } } } });
  });

  test('scale reads its replicas as a whole number, and names a bad one', () => {
    expect(one(cloneSet({}), 'scale', { replicas: '5' })).toMatchObject({ patch: { spec: { replicas: 5 } } });
    expect(one(statefulSet({}), 'scale', { replicas: '0' })).toMatchObject({ patch: { spec: { replicas: 0 } } });
    expect(one(cloneSet({}), 'scale', { replicas: 'five' }).actionError).toBe('CloneSet shop/web: replicas \'five\' is not a whole number of 0 or more');
    expect(one(cloneSet({}), 'scale', { replicas: '2.5' }).actionError).toBe('CloneSet shop/web: replicas \'2.5\' is not a whole number of 0 or more');
    expect(one(cloneSet({}), 'scale', { replicas: '-1' }).actionError).toBe('CloneSet shop/web: replicas \'-1\' is not a whole number of 0 or more');
    expect(one(cloneSet({}), 'scale').actionError).toBe('CloneSet shop/web: give replicas, a whole number of 0 or more');
  });

  test('approve writes the step state kubectl-kruise rollout approve writes, to the status subresource only', () => {
    expect(one(rollout({}, releasing(1, 'StepPaused')), 'approve')).toEqual({
      id: 'approve', actions: expect.any(Array), statusPatch: { status: { canaryStatus: { currentStepState: 'StepReady' } } },
    });
    const blueGreen = rollout({}, { observedGeneration: 2, phase: 'Progressing', currentStepIndex: 1, currentStepState: 'StepPaused', blueGreenStatus: { currentStepIndex: 1, currentStepState: 'StepPaused' } });
    expect(one(blueGreen, 'approve').statusPatch).toEqual({ status: { blueGreenStatus: { currentStepState: 'StepReady' } } });
  });

  test('step-back sets the step the controller jumps to (nextStepIndex), the previous one unless given', () => {
    expect(one(rollout({}, releasing(3, 'StepPaused')), 'step-back').statusPatch).toEqual({ status: { canaryStatus: { nextStepIndex: 2 } } });
    expect(one(rollout({}, releasing(3, 'StepPaused')), 'step-back', { step: '1' }).statusPatch).toEqual({ status: { canaryStatus: { nextStepIndex: 1 } } });
    expect(one(rollout({}, releasing(3, 'StepPaused')), 'step-back', { step: '3' }).actionError)
      .toBe('Rollout shop/web: step \'3\' is not an earlier step; give a step from 1 to 2');
    expect(one(rollout({}, releasing(3, 'StepPaused')), 'step-back', { step: 'first' }).actionError)
      .toBe('Rollout shop/web: step \'first\' is not an earlier step; give a step from 1 to 2');
  });

  test('restart-in-place creates a ContainerRecreateRequest for the pod, every container or the one named', () => {
    const all = one(pod(CLONE_SET_OWNER, running), 'restart-in-place');
    expect(all.patch).toBeUndefined();
    expect(all.create).toHaveLength(1);
    const crr = all.create![0].resource;
    expect(crr).toEqual({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ContainerRecreateRequest',
      metadata: {
        name: expect.stringMatching(/^web-x7k2p-restart-\d{10}$/),
        namespace: 'shop',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-x7k2p', uid: '1f0c6f0e-0000-4000-8000-000000000003' }],
      },
      spec: {
        podName: 'web-x7k2p',
        containers: [{ name: 'app' }, { name: 'log' }],
        strategy: { failurePolicy: 'Fail' },
        activeDeadlineSeconds: 300,
        ttlSecondsAfterFinished: 600,
      },
    });
    const now = Math.floor(Date.now() / 1000);
    expect(Math.abs(Number(crr.metadata.name.split('-').pop()) - now)).toBeLessThan(60);
    expect(one(pod(CLONE_SET_OWNER, running), 'restart-in-place', { container: 'log' }).create![0].resource.spec.containers).toEqual([{ name: 'log' }]);
    expect(one(pod(CLONE_SET_OWNER, running), 'restart-in-place', { container: 'proxy' }).actionError)
      .toBe('Pod shop/web-x7k2p: no container named proxy (its containers: app, log)');
  });

  test('run-now creates the job of the template as the controller names, annotates and owns a scheduled one', () => {
    const o = one(cronJob({}), 'run-now');
    expect(o.create).toHaveLength(1);
    const job = o.create![0].resource;
    expect(job).toEqual({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
      metadata: {
        name: expect.stringMatching(/^nightly-\d{10}$/),
        namespace: 'shop',
        labels: { job: 'nightly' },
        annotations: { 'apps.kruise.io/scheduled-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
        ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', name: 'nightly', uid: '1f0c6f0e-0000-4000-8000-000000000002', controller: true, blockOwnerDeletion: true }],
      },
      spec: {
        completionPolicy: { type: 'Always' },
        template: {
          spec: {
            restartPolicy: 'Never',
            // an empty map is written as a list by Argo CD's Lua-to-JSON: left out, except emptyDir, which is the volume's source
            containers: [{ name: 'main', image: 'busybox:1.36', args: ['true'], volumeMounts: [{ name: 'scratch', mountPath: '/tmp' }] }],
            volumes: [{ name: 'scratch', emptyDir: { medium: '' } }],
          },
        },
      },
    });
    const at = Date.parse(job.metadata.annotations['apps.kruise.io/scheduled-at']) / 1000;
    expect(Math.abs(Number(job.metadata.name.split('-').pop()) - at)).toBeLessThanOrEqual(1);
    const jobTemplate = cronJob({ template: { jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox:1.36' }] } } } } } });
    expect(one(jobTemplate, 'run-now').create![0].resource).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', spec: { template: { spec: { restartPolicy: 'OnFailure' } } } });
  });
});
