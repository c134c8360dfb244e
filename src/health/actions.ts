/**
 * The operations a team runs on the OpenKruise and Kruise Rollouts kinds,
 * as Argo CD resource actions and as their Flux equivalents, each written
 * once (`action.ts`): when it applies, what it changes, and how Flux users do
 * the same. The fields are the ones the controllers read (OpenKruise v1.9,
 * Kruise Rollouts v0.6.2) and the ones `kubectl-kruise` writes where it has
 * a command for the operation.
 */
import { ActionDef, ActionValue, Effect, FluxWay, KindActions } from './action';
import { stepField, stepIndex } from './kinds';
import {
  and, eq, Expr, flag, gt, has, lit, match, minus, ne, not, or, ref, size, str,
} from './rule';

/** `Title namespace/name`, the object an action message speaks of. */
const who = (title: string): (string | Expr)[] => [`${title} `, str('metadata.namespace'), '/', str('metadata.name')];

const set = (path: string, value: ActionValue, onlyIf?: Expr): Effect => ({ op: 'set', path: path.split('.'), value, ...(onlyIf ? { onlyIf } : {}) });
const param = (name: string): ActionValue => ({ op: 'param', name });

const PAUSE_ICON = 'fa fa-fw fa-pause-circle';
const RESUME_ICON = 'fa fa-fw fa-play-circle';

/** Pause and resume of an update whose switch is the boolean at `field`. */
function pauseResume(title: string, field: string, o: { canPause?: Expr; pauseWhyNot?: (string | Expr)[]; flux: string }): ActionDef[] {
  const paused = flag(field);
  const commit = (v: boolean): FluxWay => ({
    way: 'commit',
    what: `${field}: ${v}${o.flux ? ` (${o.flux}${v ? '' : ', or leave it out'})` : ''}`,
    undoneByReconcile: 'if the manifest sets the field',
  });
  return [
    {
      name: 'pause',
      displayName: 'Pause the update',
      iconClass: PAUSE_ICON,
      when: o.canPause ? and(not(paused), o.canPause) : not(paused),
      whyNot: o.pauseWhyNot ?? [...who(title), `: the update is already paused (${field} is true); run resume to let it go on`],
      effects: [set(field, lit(true))],
      flux: commit(true),
    },
    {
      name: 'resume',
      displayName: 'Resume the update',
      iconClass: RESUME_ICON,
      when: paused,
      whyNot: [...who(title), `: the update is not paused (${field} is not true); there is nothing to resume`],
      effects: [set(field, lit(false))],
      flux: commit(false),
    },
  ];
}

function scale(title: string, prop: string): ActionDef {
  return {
    name: 'scale',
    displayName: 'Scale',
    iconClass: 'fa fa-fw fa-plus-circle',
    params: [{ name: 'replicas', type: 'count' }],
    when: lit(true),
    whyNot: [...who(title), ': cannot be scaled'],
    effects: [set('spec.replicas', param('replicas'))],
    flux: { way: 'commit', what: `spec.replicas (${prop})`, undoneByReconcile: 'if the manifest sets the field' },
  };
}

const CLONE_SET: KindActions = {
  group: 'apps.kruise.io',
  kind: 'CloneSet',
  title: 'CloneSet',
  actions: [
    ...pauseResume('CloneSet', 'spec.updateStrategy.paused', { flux: 'CloneSetUpdateStrategy.*({ paused })' }),
    scale('CloneSet', 'the replicas prop'),
  ],
};

const STATEFUL_SET: KindActions = {
  group: 'apps.kruise.io',
  kind: 'StatefulSet',
  title: 'Advanced StatefulSet',
  actions: [
    ...pauseResume('Advanced StatefulSet', 'spec.updateStrategy.rollingUpdate.paused', {
      canPause: ne(str('spec.updateStrategy.type'), lit('OnDelete')),
      pauseWhyNot: [...who('Advanced StatefulSet'), ': updateStrategy is ', str('spec.updateStrategy.type'),
        ' (pods update only when deleted) or the update is already paused; pause applies to a RollingUpdate'],
      flux: 'AdvancedStatefulSetUpdateStrategy.rollingUpdate({ paused })',
    }),
    scale('Advanced StatefulSet', 'the replicas prop'),
  ],
};

const DAEMON_SET: KindActions = {
  group: 'apps.kruise.io',
  kind: 'DaemonSet',
  title: 'Advanced DaemonSet',
  actions: pauseResume('Advanced DaemonSet', 'spec.updateStrategy.rollingUpdate.paused', {
    canPause: ne(str('spec.updateStrategy.type'), lit('OnDelete')),
    pauseWhyNot: [...who('Advanced DaemonSet'), ': updateStrategy is ', str('spec.updateStrategy.type'),
      ' (pods update only when deleted) or the update is already paused; pause applies to a RollingUpdate'],
    flux: 'AdvancedDaemonSetUpdateStrategy.rollingUpdate({ paused })',
  }),
};

/** Suspend and resume of a job or cron job whose switch is `spec.paused`. */
function suspendResume(title: string, o: { canSuspend?: Expr; suspendWhyNot?: (string | Expr)[]; flux: string }): ActionDef[] {
  const paused = flag('spec.paused');
  return [
    {
      name: 'suspend',
      displayName: 'Suspend',
      iconClass: PAUSE_ICON,
      when: o.canSuspend ? and(not(paused), o.canSuspend) : not(paused),
      whyNot: o.suspendWhyNot ?? [...who(title), ': already suspended (spec.paused is true); run resume to go on'],
      effects: [set('spec.paused', lit(true))],
      flux: { way: 'commit', what: `spec.paused: true (${o.flux})`, undoneByReconcile: 'if the manifest sets the field' },
    },
    {
      name: 'resume',
      displayName: 'Resume',
      iconClass: RESUME_ICON,
      when: paused,
      whyNot: [...who(title), ': not suspended (spec.paused is not true); there is nothing to resume'],
      effects: [set('spec.paused', lit(false))],
      flux: { way: 'commit', what: `spec.paused: false (${o.flux}, or leave it out)`, undoneByReconcile: 'if the manifest sets the field' },
    },
  ];
}

const phaseIs = (v: string): Expr => eq(str('status.phase'), lit(v));

const BROADCAST_JOB: KindActions = {
  group: 'apps.kruise.io',
  kind: 'BroadcastJob',
  title: 'BroadcastJob',
  actions: suspendResume('BroadcastJob', {
    canSuspend: not(or(phaseIs('completed'), phaseIs('failed'))),
    suspendWhyNot: [...who('BroadcastJob'), ': ', str('status.phase', 'not started'),
      ' and spec.paused is ', flag('spec.paused'), '; only a running job that is not paused can be suspended'],
    flux: 'the paused prop',
  }),
};

const ADVANCED_CRON_JOB: KindActions = {
  group: 'apps.kruise.io',
  kind: 'AdvancedCronJob',
  title: 'AdvancedCronJob',
  actions: [
    ...suspendResume('AdvancedCronJob', { flux: 'the paused prop' }),
    {
      name: 'run-now',
      displayName: 'Run now',
      iconClass: 'fa fa-fw fa-play',
      when: or(has('spec.template.jobTemplate'), has('spec.template.broadcastJobTemplate'), has('spec.template.imageListPullJobTemplate')),
      whyNot: [...who('AdvancedCronJob'), ': spec.template holds no jobTemplate, broadcastJobTemplate or imageListPullJobTemplate to run'],
      effects: [{ op: 'runJobNow' }],
      flux: {
        way: 'kubectl',
        what: 'kubectl create -f with the job the template describes, named <cron job>-<unix time>, annotated apps.kruise.io/scheduled-at and owned by the AdvancedCronJob (a job in git would run once more each time it is deleted)',
        undoneByReconcile: 'never',
      },
    },
  ],
};

/** The Rollout's step state and index, once. */
const STEP = ref('step');
const STATE = ref('state');
const releasing = eq(str('status.phase'), lit('Progressing'));
const stepStatus = (field: string, value: ActionValue): Effect[] => [
  set(`status.canaryStatus.${field}`, value, has('status.canaryStatus')),
  set(`status.blueGreenStatus.${field}`, value, has('status.blueGreenStatus')),
];

const ROLLOUT: KindActions = {
  group: 'rollouts.kruise.io',
  kind: 'Rollout',
  title: 'Rollout',
  lets: [['step', stepIndex], ['state', stepField('currentStepState')]],
  actions: [
    {
      name: 'approve',
      displayName: 'Approve the step (continue)',
      iconClass: 'fa fa-fw fa-forward',
      when: and(releasing, eq(STATE, lit('StepPaused'))),
      whyNot: [...who('Rollout'), ': no step waits for approval (phase ', str('status.phase', 'Initial'), ', step ', STEP, ' ', STATE,
        '); a step can be approved while its state is StepPaused'],
      // kubectl-kruise rollout approve: the step state StepPaused becomes StepReady, in the status subresource
      effects: stepStatus('currentStepState', lit('StepReady')),
      flux: {
        way: 'kubectl',
        what: 'kubectl-kruise rollout approve rollout/<name> -n <namespace>',
        undoneByReconcile: 'never',
      },
    },
    {
      name: 'pause',
      displayName: 'Pause the release',
      iconClass: PAUSE_ICON,
      when: and(releasing, not(flag('spec.strategy.paused'))),
      whyNot: [...who('Rollout'), ': no release to pause (phase ', str('status.phase', 'Initial'),
        ', spec.strategy.paused ', flag('spec.strategy.paused'), '); pause applies while a release is Progressing'],
      effects: [set('spec.strategy.paused', lit(true))],
      flux: { way: 'commit', what: 'spec.strategy.paused: true (the paused prop)', undoneByReconcile: 'if the manifest sets the field' },
    },
    {
      name: 'resume',
      displayName: 'Resume the release',
      iconClass: RESUME_ICON,
      when: flag('spec.strategy.paused'),
      whyNot: [...who('Rollout'), ': not paused (spec.strategy.paused is not true); there is nothing to resume'],
      effects: [set('spec.strategy.paused', lit(false))],
      flux: { way: 'commit', what: 'spec.strategy.paused: false (the paused prop, or leave it out)', undoneByReconcile: 'if the manifest sets the field' },
    },
    {
      name: 'step-back',
      displayName: 'Back to an earlier step',
      iconClass: 'fa fa-fw fa-backward',
      params: [{ name: 'step', type: 'step', dflt: minus(STEP, lit(1)) }],
      when: and(releasing, gt(STEP, lit(1))),
      whyNot: [...who('Rollout'), ': no earlier step to go back to (phase ', str('status.phase', 'Initial'), ', step ', STEP,
        '); going back applies from step 2 of a release in progress; to cancel a release, revert the workload in git'],
      // kubectl-kruise rollout rollback --step N (Kruise Rollouts 0.6 and later): the controller jumps to nextStepIndex
      effects: stepStatus('nextStepIndex', param('step')),
      flux: {
        way: 'kubectl',
        what: 'kubectl-kruise rollout rollback rollout/<name> -n <namespace> --step <step>',
        undoneByReconcile: 'never',
      },
    },
  ],
};

/** A pod of an Advanced StatefulSet or DaemonSet (either version) or a CloneSet. */
const kruiseOwner = or(
  match('metadata.ownerReferences', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' }),
  match('metadata.ownerReferences', { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' }),
  match('metadata.ownerReferences', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'StatefulSet' }),
  match('metadata.ownerReferences', { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet' }),
  match('metadata.ownerReferences', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet' }),
);

const POD: KindActions = {
  group: '',
  kind: 'Pod',
  title: 'Pod',
  actions: [
    {
      name: 'restart-in-place',
      displayName: 'Restart containers in place',
      iconClass: 'fa fa-fw fa-redo',
      params: [{ name: 'container', type: 'name' }],
      when: and(
        kruiseOwner,
        eq(str('status.phase'), lit('Running')),
        has('spec.nodeName'),
        eq(size('status.containerStatuses'), size('spec.containers')),
        not(match('status.containerStatuses', { containerID: '' })),
      ),
      whyNot: [...who('Pod'), ': is not a running pod of a CloneSet, Advanced StatefulSet or Advanced DaemonSet with every container started (phase ',
        str('status.phase', 'Pending'), '); kruise-daemon restarts containers only in such a pod'],
      effects: [{ op: 'recreateContainers' }],
      flux: {
        way: 'kubectl',
        what: 'kubectl create -f with a ContainerRecreateRequest naming the pod and its containers (new ContainerRecreateRequest(...) of this library, synthesized)',
        undoneByReconcile: 'never',
      },
    },
  ],
};

/** Every kind's actions, in the order the outputs list them. */
export const KIND_ACTIONS: readonly KindActions[] = [CLONE_SET, STATEFUL_SET, DAEMON_SET, BROADCAST_JOB, ADVANCED_CRON_JOB, ROLLOUT, POD];

/** How long a ContainerRecreateRequest an action created stays after it finished (seconds). */
export const RECREATE_TTL_SECONDS = 600;
/** How long kruise-daemon may take over the restarts before the request fails (seconds). */
export const RECREATE_DEADLINE_SECONDS = 300;
