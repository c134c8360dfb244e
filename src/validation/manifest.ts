/**
 * What the app-wide and fleet checks read of one object in wire form: its
 * group, namespace, pod template and targets. Plain functions over JSON (no
 * construct tree), shared by synth, `cdk8s-kruise check` and the fleet check.
 */
import { isObject } from './shape';

/** The identity of an object in a cluster: group, kind, namespace and name. */
export function identityOf(json: any): string {
  return `${groupOf(json?.apiVersion)}/${json?.kind}/${json?.metadata?.namespace || 'default'}/${json?.metadata?.name}`;
}

/** `group` of an apiVersion (`''` for the core group). */
export function groupOf(apiVersion: string | undefined): string {
  if (typeof apiVersion !== 'string' || !apiVersion) return '';
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The objects of several lists, each once, in construct-path order. */
export function mergeInPathOrder<O extends { readonly order: number }>(...lists: Array<O[] | undefined>): O[] {
  const seen = new Set<O>();
  for (const l of lists) for (const o of l ?? []) seen.add(o);
  return [...seen].sort((a, b) => a.order - b.order);
}

/** The pod a workload object creates: labels, annotations and spec of its template. */
export interface PodTemplateJson {
  readonly metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  readonly spec: any;
}

/**
 * The pod template of a workload in wire form (Deployment-like, Job, CronJob,
 * AdvancedCronJob, Pod), or undefined when it has none, or one the API server
 * cannot decode as far as the app-wide checks read it (a list that is not a
 * list of objects, a map that is not an object). Such a template is not
 * checked here: the admission of an OpenKruise workload reports it with the
 * field, and the API server refuses any other.
 */
export function podTemplateOf(json: any): PodTemplateJson | undefined {
  if (!isObject(json)) return undefined;
  // read many times per object by the checks of a synth (or a fleet check): the objects they read are never changed
  const hit = templates.get(json);
  if (hit !== undefined) return hit ?? undefined;
  const t = templateOf(json);
  templates.set(json, t ?? null);
  return t;
}

const templates = new WeakMap<object, PodTemplateJson | null>();

function templateOf(json: any): PodTemplateJson | undefined {
  if (json.kind === 'Pod' && groupOf(json.apiVersion) === '') return decodable({ metadata: json.metadata ?? {}, spec: json.spec ?? {} });
  const spec = isObject(json.spec) ? json.spec : {};
  const tpl = spec.template?.spec ? spec.template
    : spec.jobTemplate?.spec?.template?.spec ? spec.jobTemplate.spec.template
      : spec.template?.broadcastJobTemplate?.spec?.template ?? spec.template?.jobTemplate?.spec?.template;
  if (!isObject(tpl) || !tpl.spec) return undefined;
  return decodable({ metadata: tpl.metadata ?? {}, spec: tpl.spec });
}

/**
 * Where `podTemplateOf` found the pod template of `json`, for messages: the
 * field paths of its metadata and spec (e.g. `spec.template.metadata` and
 * `spec.template.spec`).
 */
export function templatePathOf(json: any): { readonly metadata: string; readonly spec: string } {
  if (json?.kind === 'Pod' && groupOf(json.apiVersion) === '') return { metadata: 'metadata', spec: 'spec' };
  const spec = isObject(json?.spec) ? json.spec : {};
  const at = spec.template?.spec ? 'spec.template'
    : spec.jobTemplate?.spec?.template?.spec ? 'spec.jobTemplate.spec.template'
      : spec.template?.broadcastJobTemplate?.spec?.template ? 'spec.template.broadcastJobTemplate.spec.template' : 'spec.template.jobTemplate.spec.template';
  return { metadata: `${at}.metadata`, spec: `${at}.spec` };
}

const listOfObjects = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.every(isObject));
const POD_LISTS = ['containers', 'initContainers', 'volumes', 'imagePullSecrets'];
const CONTAINER_LISTS = ['env', 'envFrom', 'volumeMounts', 'volumeDevices', 'ports'];

/** `t` when the parts the app-wide checks read decode; undefined otherwise. */
function decodable(t: PodTemplateJson): PodTemplateJson | undefined {
  const m: any = t.metadata;
  if (!isObject(m) || !isObject(t.spec)) return undefined;
  if ((m.labels !== undefined && !isObject(m.labels)) || (m.annotations !== undefined && !isObject(m.annotations))) return undefined;
  if (!POD_LISTS.every(f => listOfObjects(t.spec[f]))) return undefined;
  for (const f of ['containers', 'initContainers']) {
    for (const c of t.spec[f] ?? []) if (!CONTAINER_LISTS.every(g => listOfObjects(c[g]))) return undefined;
  }
  return t;
}

/** The namespace an object lands in; objects without one go to `default` (as OpenKruise assumes for pods). */
export function namespaceOf(json: any): string {
  return json?.metadata?.namespace || 'default';
}

/** `Kind "name"` for messages. */
export function describe(json: any): string {
  return `${json?.kind} "${json?.metadata?.name}"`;
}

/** A target reference in wire form. */
interface TargetRefJson {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
}

/** Whether two target references name the same workload: group, kind and name (the version does not make it another workload). */
export function sameTargetRef(a: TargetRefJson | undefined, b: TargetRefJson | undefined): boolean {
  return !!a && !!b && groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}

/** The index key of "this target in this namespace" (the app-wide checks of WorkloadSpread, PodUnavailableBudget, PersistentPodState). */
export function targetKey(namespace: string, ref: { apiVersion?: string; kind?: string; name?: string } | undefined): string {
  return JSON.stringify([namespace, groupOf(ref?.apiVersion), ref?.kind, ref?.name]);
}
