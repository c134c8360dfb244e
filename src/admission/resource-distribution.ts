/**
 * The ResourceDistribution webhook (apps.kruise.io/v1alpha1, cluster-scoped;
 * no mutating webhook upstream): the create-time rules that need no cluster
 * state, including the parts of the distributed resource's own validation
 * (upstream dry-runs creating it) that need none. Left out: namespaces that
 * exist in the cluster, conflicts with resources already there.
 */
import { dns1123LabelProblems, dns1123SubdomainProblems } from '../validation/names';
import { fieldError } from '../validation/report';
import { selectorProblems } from '../validation/selectors';
import { AdmissionModule } from './types';

const DATA_KEY = /^[-._a-zA-Z0-9]+$/;

/** §13 rules 2-5 and 8-11, plus the parts of rule 7 (the resource's own validation) that need no cluster. */
export function resourceDistributionErrors(json: any): string[] {
  const errors: string[] = [];
  for (const p of dns1123SubdomainProblems(json?.metadata?.name ?? '')) errors.push(fieldError('metadata.name', json?.metadata?.name, p, 'use a DNS-1123 subdomain'));
  if (json?.metadata?.namespace) errors.push(fieldError('metadata.namespace', json.metadata.namespace, 'is set, but ResourceDistribution is cluster-scoped', 'leave the namespace out'));
  const spec = json?.spec ?? {};
  const r = spec.resource;
  if (!r || Object.keys(r).length === 0) {
    errors.push(fieldError('spec.resource', r, 'is empty', 'give a Secret or ConfigMap'));
  } else if (!r.kind) {
    errors.push(fieldError('spec.resource.kind', r.kind, 'is missing', 'give a Secret or ConfigMap'));
  } else {
    if (r.apiVersion !== 'v1' || !['Secret', 'ConfigMap'].includes(r.kind)) {
      errors.push(fieldError('spec.resource', `${r.apiVersion}/${r.kind}`, 'is not a kind OpenKruise distributes', 'distribute a v1 Secret or ConfigMap'));
    }
    for (const p of dns1123SubdomainProblems(r.metadata?.name ?? '')) errors.push(fieldError('spec.resource.metadata.name', r.metadata?.name, p, 'use a DNS-1123 subdomain'));
    for (const f of ['data', 'binaryData', 'stringData']) {
      for (const k of Object.keys(r[f] ?? {})) {
        if (!DATA_KEY.test(k) || k.length > 253) errors.push(fieldError(`spec.resource.${f}[${JSON.stringify(k)}]`, k, 'is not a valid data key', "use letters, digits, '-', '_' or '.'"));
      }
    }
  }
  const t = spec.targets ?? {};
  const included: string[] = (t.includedNamespaces?.list ?? []).map((n: any) => n.name);
  const excluded: string[] = (t.excludedNamespaces?.list ?? []).map((n: any) => n.name);
  included.forEach((n, i) => { for (const p of dns1123LabelProblems(n ?? '')) errors.push(fieldError(`spec.targets.includedNamespaces.list[${i}].name`, n, p, 'use a namespace name')); });
  excluded.forEach((n, i) => { for (const p of dns1123LabelProblems(n ?? '')) errors.push(fieldError(`spec.targets.excludedNamespaces.list[${i}].name`, n, p, 'use a namespace name')); });
  for (const n of included) if (excluded.includes(n)) errors.push(fieldError('spec.targets.excludedNamespaces', n, 'is also an included namespace', 'list the namespace in one list only'));
  if (t.namespaceLabelSelector) for (const p of selectorProblems(t.namespaceLabelSelector)) errors.push(fieldError(`spec.targets.namespaceLabelSelector.${p.field}`, p.value, p.problem, 'fix the selector'));
  if (!t.allNamespaces && included.length === 0 && !t.namespaceLabelSelector) {
    errors.push(fieldError('spec.targets', t, 'selects no namespace', 'set allNamespaces, includedNamespaces or namespaceLabelSelector'));
  }
  return errors;
}

/** The ResourceDistribution webhook. */
export const resourceDistributionAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'ResourceDistribution',
  versions: ['v1alpha1'],
  validate: m => resourceDistributionErrors(m),
};
