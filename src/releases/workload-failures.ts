/**
 * The workloads a known failure of the target's release on the target's
 * Kubernetes breaks (./failures.ts, `inPlaceWorkloads`): each CloneSet,
 * Advanced StatefulSet, Advanced DaemonSet and UnitedDeployment whose
 * update strategy updates pods in place is refused, naming that field.
 * Admission asks this of every object it judges (synth and check), after
 * the kind's own rules.
 */
import { failureFix, failureSubject } from './failures';
import { clusterText } from './kubernetes';
import { knownFailures, moveToFor, targetNote } from './target';
import type { AdmissionContext, Manifest } from '../admission/types';
import { advice } from '../validation/advice';
import { fieldError } from '../validation/field-error';

/** A strategy field that updates pods in place, and how to update them by recreating them instead. */
interface InPlaceStrategy {
  readonly field: string;
  readonly value: string;
  readonly manifest: string;
  readonly construct: string;
}

const IN_PLACE = ['InPlaceIfPossible', 'InPlaceOnly'];

const at = (o: any, path: string[]): unknown => path.reduce((x, k) => (x !== null && typeof x === 'object' ? x[k] : undefined), o);

/** The strategy fields of a manifest that make its controller update pods in place. */
export function inPlaceStrategies(m: Manifest): InPlaceStrategy[] {
  if (String(m.apiVersion ?? '').split('/')[0] !== 'apps.kruise.io') return [];
  const out: InPlaceStrategy[] = [];
  const cloneSet = (spec: unknown, prefix: string) => {
    const type = at(spec, ['updateStrategy', 'type']);
    if (typeof type === 'string' && IN_PLACE.includes(type)) {
      out.push({ field: `${prefix}updateStrategy.type`, value: type, manifest: `set ${prefix}updateStrategy.type to ReCreate`, construct: 'use CloneSetUpdateStrategy.recreate()' });
    }
  };
  const statefulSet = (spec: unknown, prefix: string) => {
    const policy = at(spec, ['updateStrategy', 'rollingUpdate', 'podUpdatePolicy']);
    if (typeof policy === 'string' && IN_PLACE.includes(policy)) {
      out.push({
        field: `${prefix}updateStrategy.rollingUpdate.podUpdatePolicy`,
        value: policy,
        manifest: `set ${prefix}updateStrategy.rollingUpdate.podUpdatePolicy to ReCreate`,
        construct: 'use AdvancedStatefulSetUpdateStrategy.rollingUpdate({ podUpdatePolicy: PodUpdatePolicy.RECREATE })',
      });
    }
  };
  switch (m.kind) {
    case 'CloneSet':
      cloneSet(m.spec, 'spec.');
      break;
    case 'StatefulSet':
      statefulSet(m.spec, 'spec.');
      break;
    case 'DaemonSet': {
      const type = at(m.spec, ['updateStrategy', 'rollingUpdate', 'rollingUpdateType']);
      if (type === 'InPlaceIfPossible') {
        out.push({
          field: 'spec.updateStrategy.rollingUpdate.rollingUpdateType',
          value: type,
          manifest: 'set spec.updateStrategy.rollingUpdate.rollingUpdateType to Standard',
          construct: 'use AdvancedDaemonSetUpdateStrategy.rollingUpdate()',
        });
      }
      break;
    }
    case 'UnitedDeployment':
      cloneSet(at(m.spec, ['template', 'cloneSetTemplate', 'spec']), 'spec.template.cloneSetTemplate.spec.');
      statefulSet(at(m.spec, ['template', 'advancedStatefulSetTemplate', 'spec']), 'spec.template.advancedStatefulSetTemplate.spec.');
      break;
  }
  return out;
}

/**
 * The errors of a workload that a known failure of the context's target
 * breaks: one per in-place strategy field, naming the failure, where the
 * release and the Kubernetes were declared, and the fix.
 */
export function workloadFailureErrors(m: Manifest, ctx: AdmissionContext): string[] {
  const t = ctx.target;
  if (!t?.kubernetes) return [];
  const met = knownFailures(t, name => ctx.gate(name)).filter(f => f.failure.inPlaceWorkloads && f.release.product === 'openkruise');
  if (met.length === 0) return [];
  const strategies = inPlaceStrategies(m);
  const out: string[] = [];
  for (const f of met) {
    for (const s of strategies) {
      out.push(fieldError(s.field, s.value,
        `updates pods in place, which ${failureSubject(f)} cannot do: ${f.failure.workloadProblem ?? f.failure.problem}; `
          + `${targetNote(t.openKruise)}, on ${clusterText(t.kubernetes.cluster)} (${t.kubernetes.declared})`,
        `${failureFix(f, moveToFor(t.openKruise), name => ctx.gate(name))}; until then, ${advice(s.manifest, s.construct)}`));
    }
  }
  return out;
}
