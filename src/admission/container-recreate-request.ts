/**
 * ContainerRecreateRequest admission (apps.kruise.io/v1alpha1). Upstream has
 * only a mutating webhook, which also refuses what it cannot accept.
 *
 * Defaults: strategy {} with failurePolicy Fail; the label
 * `crr.apps.kruise.io/active: "true"`.
 *
 * Rules: spec.podName non-empty; spec.containers non-empty, each name at most
 * once; activeDeadlineSeconds at least 3; strategy.terminationGracePeriodSeconds
 * and unreadyGracePeriodSeconds >= 0; strategy.failurePolicy Fail or Ignore;
 * no preStop, ports or statusContext on a container (the webhook fills them
 * from the pod).
 *
 * Stricter than upstream only in form: podName must be a valid pod name and
 * each container name a valid container name. Upstream refuses both too, when
 * it looks the pod up and finds no such pod or container.
 *
 * Skipped: the refusal when the KruiseDaemon gate is off (declared by the
 * constructs); the update-only rules (spec, the pod-uid and node-name labels
 * and the unready-acquired annotation are immutable); everything that reads
 * the pod or its node (it must exist, be active and scheduled, and run the
 * named containers; the defaults copied from it).
 */
import { AdmissionModule, Manifest } from './types';
import { fieldError } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { dns1123LabelProblems, dns1123SubdomainProblems } from '../validation/names';
import { TemplateProblem } from '../validation/pod-template';

type Json = Record<string, any>;

const clone = cloneJson;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** The label the webhook sets on every new request. */
export const CRR_ACTIVE_LABEL = 'crr.apps.kruise.io/active';

function defaults(manifest: Manifest): Manifest {
  const m = clone(manifest);
  if (!isObject(m.spec)) m.spec = {};
  if (!isObject(m.spec.strategy)) m.spec.strategy = {};
  m.spec.strategy.failurePolicy ||= 'Fail';
  if (!isObject(m.metadata)) m.metadata = {};
  m.metadata.labels = { ...(isObject(m.metadata.labels) ? m.metadata.labels : {}), [CRR_ACTIVE_LABEL]: 'true' };
  return m;
}

/** The ContainerRecreateRequest rules of a defaulted object, as problems. */
export function containerRecreateRequestProblems(manifest: Manifest): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const s: Json = isObject(manifest.spec) ? manifest.spec : {};
  if (typeof s.podName !== 'string' || s.podName === '') {
    add('spec.podName', s.podName, 'is required', 'name the pod whose containers to recreate (in the same namespace)');
  } else {
    for (const p of dns1123SubdomainProblems(s.podName)) add('spec.podName', s.podName, `${p}, so it names no pod`, 'give the name of a pod in the same namespace');
  }
  const containers: unknown[] = Array.isArray(s.containers) ? s.containers : [];
  if (containers.length === 0) add('spec.containers', s.containers, 'is empty', 'list the containers to recreate by name');
  const seen = new Map<string, number>();
  containers.forEach((raw, i) => {
    const k: Json = isObject(raw) ? raw : {};
    const at = `spec.containers[${i}]`;
    const name = typeof k.name === 'string' ? k.name : '';
    const first = seen.get(name);
    if (first !== undefined) add(`${at}.name`, k.name, `is also listed as containers[${first}]`, 'list every container once');
    else seen.set(name, i);
    if (name === '') add(`${at}.name`, k.name, 'is required', 'give the name of a container of the pod');
    else for (const p of dns1123LabelProblems(name)) add(`${at}.name`, k.name, `${p}, so it names no container`, 'give the name of a container of the pod');
    for (const f of ['preStop', 'ports', 'statusContext']) {
      if (present(k[f])) add(`${at}.${f}`, k[f], 'is filled in by OpenKruise from the pod and may not be set', `remove ${f}`);
    }
  });
  if (typeof s.activeDeadlineSeconds === 'number' && s.activeDeadlineSeconds < 3) {
    add('spec.activeDeadlineSeconds', s.activeDeadlineSeconds, 'is less than 3', 'give the recreation at least 3 seconds, or remove the deadline');
  }
  const st: Json = isObject(s.strategy) ? s.strategy : {};
  for (const f of ['terminationGracePeriodSeconds', 'unreadyGracePeriodSeconds']) {
    if (typeof st[f] === 'number' && st[f] < 0) add(`spec.strategy.${f}`, st[f], 'is negative', 'use 0 or more seconds');
  }
  if (present(st.failurePolicy) && st.failurePolicy !== '' && st.failurePolicy !== 'Fail' && st.failurePolicy !== 'Ignore') {
    add('spec.strategy.failurePolicy', st.failurePolicy, 'is not a failure policy', 'use Fail (stop at the first container that fails) or Ignore (go on with the next)');
  }
  return out;
}

/** The ContainerRecreateRequest webhook. */
export const containerRecreateRequestAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'ContainerRecreateRequest',
  versions: ['v1alpha1'],
  defaults,
  validate: m => containerRecreateRequestProblems(m).map(p => fieldError(p.field, p.value, p.problem, p.fix)),
};
