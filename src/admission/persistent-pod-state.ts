/**
 * PersistentPodState admission (apps.kruise.io/v1alpha1; no mutating webhook
 * upstream).
 *
 * Rules: spec.targetRef apiVersion, kind and name non-empty; the apiVersion a
 * valid group/version; the target a StatefulSet of group `apps` or
 * `apps.kruise.io`; at least one of requiredPersistentTopology and
 * preferredPersistentTopology.
 *
 * The target rule needs cluster state for other workloads: upstream admits a
 * workload listed in the `PPS_Watch_Custom_Workload_WhiteList` of the
 * kruise-configuration ConfigMap. A default installation has no such list,
 * so any other target (a Deployment, a CloneSet, ...) is refused here, as the
 * webhook of a default installation refuses it.
 *
 * Skipped: targetRef immutability [update-only]; another PersistentPodState
 * of the namespace targeting the same workload [needs cluster state]. No
 * metadata rules upstream.
 */
import { AdmissionModule, Manifest } from './types';
import { fieldError } from '../validation/field-error';
import { TemplateProblem } from '../validation/pod-template';

type Json = Record<string, any>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The groups whose StatefulSet a PersistentPodState may always target. */
export const STATEFUL_SET_GROUPS = ['apps', 'apps.kruise.io'];

/** The PersistentPodState rules, as problems. */
export function persistentPodStateProblems(manifest: Manifest): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const s: Json = isObject(manifest.spec) ? manifest.spec : {};
  const ref: Json = isObject(s.targetRef) ? s.targetRef : {};
  const fixes: Record<string, string> = {
    apiVersion: 'give the target\'s apiVersion, e.g. apps.kruise.io/v1beta1',
    kind: 'give the target\'s kind, e.g. StatefulSet',
    name: 'give the name of the target StatefulSet',
  };
  for (const f of ['apiVersion', 'kind', 'name']) {
    if (typeof ref[f] !== 'string' || ref[f] === '') add(`spec.targetRef.${f}`, ref[f], 'is required', fixes[f]);
  }
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
  if (apiVersion !== '') {
    const parts = apiVersion.split('/');
    if (parts.length > 2) {
      add('spec.targetRef.apiVersion', apiVersion, 'is not of the form group/version', 'use e.g. apps.kruise.io/v1beta1 or apps/v1');
    } else if (ref.kind) {
      const group = parts.length === 2 ? parts[0] : '';
      if (ref.kind !== 'StatefulSet' || !STATEFUL_SET_GROUPS.includes(group)) {
        add('spec.targetRef', { apiVersion, kind: ref.kind },
          'is not a StatefulSet; OpenKruise refuses any other target unless the kruise-configuration ConfigMap lists it in PPS_Watch_Custom_Workload_WhiteList',
          'target an Advanced StatefulSet (apps.kruise.io) or a StatefulSet (apps)');
      }
    }
  }
  const required = s.requiredPersistentTopology;
  const preferred = Array.isArray(s.preferredPersistentTopology) ? s.preferredPersistentTopology : [];
  if (!isObject(required) && preferred.length === 0) {
    add('spec.requiredPersistentTopology', required, 'and spec.preferredPersistentTopology are both unset, so no pod state is kept',
      'name the node labels to keep, e.g. requiredPersistentTopology.nodeTopologyKeys: ["kubernetes.io/hostname"]');
  }
  return out;
}

/** The PersistentPodState webhook. */
export const persistentPodStateAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'PersistentPodState',
  versions: ['v1alpha1'],
  validate: m => persistentPodStateProblems(m).map(p => fieldError(p.field, p.value, p.problem, p.fix)),
};
