/**
 * Reading the objects of an app the way the cluster will see them: every
 * ApiObject rendered to wire JSON, the pod a workload creates, the labels a
 * namespace carries. App-wide checks (SidecarSet conflicts, the injection
 * preview, PodUnavailableBudget conflicts) build on these.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { _renderForChecks } from '../validation/render';

/** One synthesized object of the app, with the construct that owns it. */
export interface AppObject {
  /** The ApiObject. */
  readonly apiObject: ApiObject;
  /** The construct users refer to: the L2 when the ApiObject is its 'Resource' child. */
  readonly owner: IConstruct;
  /** The wire form, as `ApiObject.toJson()` renders it. */
  readonly json: any;
}

/** `group` of an apiVersion (`''` for the core group). */
export function groupOf(apiVersion: string | undefined): string {
  if (!apiVersion) return '';
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The construct that owns an ApiObject: its parent when the ApiObject is the parent's default child. */
export function ownerOf(obj: ApiObject): IConstruct {
  const parent = obj.node.scope;
  if (parent && obj.node.id === 'Resource' && parent.node.defaultChild === obj) return parent;
  return obj;
}

/** Every ApiObject of the app of `scope`, in construct-path order. */
export function allAppObjects(scope: IConstruct, filter: (o: ApiObject) => boolean = () => true): AppObject[] {
  const out: AppObject[] = [];
  for (const c of scope.node.root.node.findAll()) {
    if (!(c instanceof ApiObject) || !filter(c)) continue;
    out.push({ apiObject: c, owner: ownerOf(c), json: _renderForChecks(c) });
  }
  return out.sort((a, b) => a.owner.node.path.localeCompare(b.owner.node.path));
}

/** Every ApiObject of the app of `scope` whose group and kind match, in construct-path order. */
export function appObjects(scope: IConstruct, group: string, kind: string): AppObject[] {
  return allAppObjects(scope, c => c.kind === kind && groupOf(c.apiVersion) === group);
}

/** The pod a workload object creates: labels, annotations and spec of its template. */
export interface PodTemplateJson {
  readonly metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  readonly spec: any;
}

/** The pod template of a workload in wire form (Deployment-like, Job, CronJob, AdvancedCronJob, Pod). */
export function podTemplateOf(json: any): PodTemplateJson | undefined {
  if (!json || typeof json !== 'object') return undefined;
  if (json.kind === 'Pod' && groupOf(json.apiVersion) === '') return { metadata: json.metadata ?? {}, spec: json.spec ?? {} };
  const spec = json.spec ?? {};
  const tpl = spec.template?.spec ? spec.template
    : spec.jobTemplate?.spec?.template?.spec ? spec.jobTemplate.spec.template
      : spec.template?.broadcastJobTemplate?.spec?.template ?? spec.template?.jobTemplate?.spec?.template;
  if (!tpl || !tpl.spec) return undefined;
  return { metadata: tpl.metadata ?? {}, spec: tpl.spec };
}

/** The namespace an object lands in; objects without one go to `default` (as OpenKruise assumes for pods). */
export function namespaceOf(json: any): string {
  return json?.metadata?.namespace || 'default';
}

/** The labels of a namespace as the cluster sets them: its Namespace object's labels (if in the app) plus kubernetes.io/metadata.name. */
export function namespaceLabels(scope: IConstruct, name: string): Record<string, string> {
  const own = appObjects(scope, '', 'Namespace').find(o => o.json.metadata?.name === name);
  return { ...(own?.json.metadata?.labels ?? {}), 'kubernetes.io/metadata.name': name };
}

/** `Kind "name"` for messages. */
export function describe(json: any): string {
  return `${json?.kind} "${json?.metadata?.name}"`;
}
