/**
 * The ResourceDistribution webhook (apps.kruise.io/v1alpha1, cluster-scoped;
 * no mutating webhook upstream): the create-time rules that need no cluster
 * state, including the parts of the distributed resource's own validation
 * (upstream dry-runs creating it) that need none. Left out: namespaces that
 * exist in the cluster, conflicts with resources already there.
 */
import { AdmissionModule } from './types';
import { fieldError, stricterProblem } from '../validation/field-error';
import { dns1123LabelProblems, dns1123SubdomainProblems } from '../validation/names';
import { selectorProblems } from '../validation/selectors';

const DATA_KEY = /^[-._a-zA-Z0-9]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** The API server's limit on the data of one Secret or ConfigMap. */
const MAX_DATA_BYTES = 1024 * 1024;

/** A data value as shown in messages: Secret values are never printed. */
const hidden = (v: unknown): string => (typeof v === 'string' ? `<${v.length} characters, not shown>` : `<${typeof v}, not shown>`);

/** The bytes of a base64 value in wire form, or undefined when the API server could not decode it. */
function base64Bytes(v: unknown): Buffer | undefined {
  if (typeof v !== 'string') return undefined;
  const body = v.replace(/[\r\n]/g, '');
  if (body.length % 4 !== 0 || !BASE64.test(body)) return undefined;
  return Buffer.from(body, 'base64');
}

/** Problems of one data key (IsConfigMapKey), as phrases. */
function dataKeyProblems(k: string): string[] {
  if (!DATA_KEY.test(k) || k.length > 253) return ['is not a valid data key'];
  if (k === '.' || k === '..') return ['is not a valid data key (\'.\' and \'..\' are reserved)'];
  if (k.startsWith('..')) return ['is not a valid data key (it must not start with \'..\')'];
  return [];
}

const isJsonObject = (b: Buffer): boolean => {
  try {
    const v = JSON.parse(b.toString('utf-8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
};

/** The keys each built-in Secret type needs (ValidateSecret); `any` means one of them is enough. */
const SECRET_TYPE_KEYS: Record<string, { keys: string[]; any?: boolean; nonEmpty?: boolean; json?: boolean; what: string }> = {
  'kubernetes.io/tls': { keys: ['tls.crt', 'tls.key'], what: 'the PEM certificate and key (kplus.TlsSecret sets both)' },
  'kubernetes.io/dockerconfigjson': { keys: ['.dockerconfigjson'], json: true, what: 'a Docker config.json (kplus.DockerConfigSecret sets it)' },
  'kubernetes.io/dockercfg': { keys: ['.dockercfg'], json: true, what: 'a legacy ~/.dockercfg JSON object' },
  'kubernetes.io/basic-auth': { keys: ['username', 'password'], any: true, what: 'the username and/or password (kplus.BasicAuthSecret sets them)' },
  'kubernetes.io/ssh-auth': { keys: ['ssh-privatekey'], nonEmpty: true, what: 'the private key (kplus.SshAuthSecret sets it)' },
};

/** What the API server refuses in a Secret or ConfigMap on create (the parts of rule 7 that need no cluster). */
function distributedResourceErrors(r: any): string[] {
  const errors: string[] = [];
  const isSecret = r.kind === 'Secret';
  const fields = isSecret ? ['data', 'stringData'] : ['data', 'binaryData'];
  const values = new Map<string, { field: string; bytes: Buffer | undefined }>();
  let size = 0;
  for (const f of ['data', 'binaryData', 'stringData']) {
    const map = r[f];
    if (map === undefined || map === null) continue;
    const at = `spec.resource.${f}`;
    if (typeof map !== 'object' || Array.isArray(map)) {
      errors.push(fieldError(at, map, 'is not a map of keys to values', `give ${f} as key: value pairs`));
      continue;
    }
    for (const [k, v] of Object.entries<unknown>(map)) {
      const here = `${at}[${JSON.stringify(k)}]`;
      for (const p of dataKeyProblems(k)) errors.push(fieldError(here, k, p, "use letters, digits, '-', '_' or '.'"));
      if (!fields.includes(f)) continue;
      let bytes: Buffer | undefined;
      const base64 = f === 'binaryData' || (isSecret && f === 'data');
      if (base64) {
        bytes = base64Bytes(v);
        if (!bytes) {
          errors.push(fieldError(here, isSecret ? hidden(v) : v, 'is not base64-encoded, so the API server refuses the object',
            isSecret ? 'encode the value in base64, or put the plain text in stringData' : 'encode the value in base64, or put text in data'));
        }
      } else if (typeof v !== 'string') {
        errors.push(fieldError(here, isSecret ? hidden(v) : v, 'is not a string', 'quote the value'));
      } else {
        bytes = Buffer.from(v, 'utf-8');
      }
      if (!isSecret && f === 'binaryData' && r.data && Object.prototype.hasOwnProperty.call(r.data, k)) {
        errors.push(fieldError(here, k, 'is also a key of spec.resource.data', 'keep each key in data or binaryData, not both'));
      }
      // stringData is merged over data by the API server
      if (bytes) values.set(k, { field: f, bytes });
      else if (!values.has(k)) values.set(k, { field: f, bytes: undefined });
    }
  }
  for (const v of values.values()) size += v.bytes?.length ?? 0;
  if (size > MAX_DATA_BYTES) {
    errors.push(fieldError('spec.resource.data', `${size} bytes`, `is larger than the ${MAX_DATA_BYTES} bytes the API server allows in one ${r.kind}`, 'split the data across several objects'));
  }
  if (!isSecret) return errors;
  const type = r.type ?? 'Opaque';
  const need = SECRET_TYPE_KEYS[type];
  if (need) {
    const present = need.keys.filter(k => values.has(k) && (!need.nonEmpty || (values.get(k)!.bytes?.length ?? 0) > 0));
    const missing = need.any ? (present.length === 0 ? need.keys : []) : need.keys.filter(k => !present.includes(k));
    if (missing.length > 0) {
      const keys = [...values.keys()];
      const list = missing.map(k => JSON.stringify(k)).join(need.any ? ' or ' : ' and ');
      errors.push(fieldError('spec.resource.data', keys, `has no ${list} key${missing.length > 1 && !need.any ? 's' : ''}${need.nonEmpty ? ' with a value' : ''}, which a ${type} Secret needs (the API server refuses it)`,
        `add ${need.what} under data (base64) or stringData`));
    }
    if (need.json) {
      for (const k of need.keys) {
        const v = values.get(k);
        if (v?.bytes && !isJsonObject(v.bytes)) {
          errors.push(fieldError(`spec.resource.${v.field}[${JSON.stringify(k)}]`, hidden(r[v.field][k]), `is not a JSON object, which a ${type} Secret needs`, 'give the whole Docker config file as JSON'));
        }
      }
    }
  }
  if (type === 'kubernetes.io/service-account-token' && !r.metadata?.annotations?.['kubernetes.io/service-account.name']) {
    errors.push(fieldError('spec.resource.metadata.annotations["kubernetes.io/service-account.name"]', undefined,
      'is required for a kubernetes.io/service-account-token Secret (the API server refuses it)', 'name the ServiceAccount whose token the Secret holds'));
  }
  return errors;
}

/** §13 rules 2-5 and 8-11, plus the parts of rule 7 (the resource's own validation) that need no cluster. */
export function resourceDistributionErrors(json: any): string[] {
  const errors: string[] = [];
  for (const p of dns1123SubdomainProblems(json?.metadata?.name ?? '')) errors.push(fieldError('metadata.name', json?.metadata?.name, p, 'use a DNS-1123 subdomain'));
  const spec = json?.spec ?? {};
  const r = spec.resource;
  if (!r || Object.keys(r).length === 0) {
    errors.push(fieldError('spec.resource', r, 'is empty', 'give a Secret or ConfigMap'));
  } else if (!r.kind) {
    errors.push(fieldError('spec.resource.kind', r.kind, 'is missing', 'give a Secret or ConfigMap'));
  } else {
    const distributable = r.apiVersion === 'v1' && ['Secret', 'ConfigMap'].includes(r.kind);
    if (!distributable) {
      errors.push(fieldError('spec.resource', `${r.apiVersion}/${r.kind}`, 'is not a kind OpenKruise distributes', 'distribute a v1 Secret or ConfigMap'));
    }
    for (const p of dns1123SubdomainProblems(r.metadata?.name ?? '')) errors.push(fieldError('spec.resource.metadata.name', r.metadata?.name, p, 'use a DNS-1123 subdomain'));
    if (distributable) {
      errors.push(...distributedResourceErrors(r));
    } else {
      for (const f of ['data', 'binaryData', 'stringData']) {
        for (const k of Object.keys(r[f] ?? {})) {
          for (const p of dataKeyProblems(k)) errors.push(fieldError(`spec.resource.${f}[${JSON.stringify(k)}]`, k, p, "use letters, digits, '-', '_' or '.'"));
        }
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
    errors.push(fieldError('spec.targets', t, stricterProblem('selects no namespace', 'OpenKruise', 'the resource is then copied nowhere'), 'set allNamespaces, includedNamespaces or namespaceLabelSelector'));
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
