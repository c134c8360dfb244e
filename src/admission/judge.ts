/**
 * What the API server and the webhooks do with one object on create, as a
 * plain function of its wire manifest and the release the context targets:
 * the same verdict for an object of a cdk8s app (the engine, engine.ts), a
 * document given to `cdk8s-kruise check`, and the objects `plan` and
 * `fleet` judge. No construct tree, no cdk8s.
 */
import { admissionModuleFor } from './index';
import { AdmissionApp, AdmissionContext, AdmissionModule, Manifest } from './types';
import { DEFAULT_LINE, PRODUCT_NAME, atLeast, isDefaultLine, productOfGroup, releaseName } from '../releases/registry';
import { TargetRelease, defaultTarget, targetNote, targetRelease } from '../releases/target';
import { workloadFailureErrors } from '../releases/workload-failures';
import { advice } from '../validation/advice';
import { fieldError } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { objectMetaProblems } from '../validation/names';
import { withTemplateViews } from '../validation/pod-template';
import { checkedAfterMutation, formatIssue, goZeroValues, hasStatusSubresource, ignoredFields, validateManifest, withoutNulls } from '../validation/schemas';

// how every message names its object, written once (validation/object-line.ts) for synth and the commands
export type { ObjectSource } from '../validation/object-line';
export { describeObject } from '../validation/object-line';

/**
 * The metadata a cluster sets on an object, as `kubectl get -o yaml` prints
 * it; never part of a manifest a user writes.
 */
export const SERVER_SET_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields'];

/**
 * The kinds OpenKruise has a mutating webhook for (pkg/webhook/<kind>/mutating
 * of v1.7.4 to v1.9.1): each answers with the object as its Go types marshal
 * it again.
 */
const MUTATING_WEBHOOKS = new Set(['AdvancedCronJob', 'BroadcastJob', 'CloneSet', 'ContainerRecreateRequest', 'DaemonSet', 'ImageListPullJob',
  'ImagePullJob', 'NodeImage', 'SidecarSet', 'StatefulSet', 'UnitedDeployment'].map(k => `apps.kruise.io/${k}`));

/** Whether upstream has a mutating webhook for the kind (its Go types write back what they decode). */
export function hasMutatingWebhook(apiVersion: unknown, kind: unknown): boolean {
  return MUTATING_WEBHOOKS.has(`${String(apiVersion).split('/')[0]}/${kind}`);
}

/** The verdict on one object. */
export interface Judgement {
  /** Error lines, `field: value problem; fix` (empty: admitted). */
  readonly errors: string[];
  /** Whether the object passed the schema (the warnings are asked only of objects that did). */
  readonly decoded: boolean;
}

/** The cluster-scoped kinds of OpenKruise (their CRDs' `scope: Cluster`). */
const CLUSTER_SCOPED = new Set(['apps.kruise.io/SidecarSet', 'apps.kruise.io/ResourceDistribution', 'apps.kruise.io/NodeImage', 'apps.kruise.io/NodePodProbe']);

/** Whether an object of this apiVersion and kind is cluster-scoped. */
export function isClusterScoped(apiVersion: unknown, kind: unknown): boolean {
  return CLUSTER_SCOPED.has(`${String(apiVersion).split('/')[0]}/${kind}`);
}

/**
 * The object as a create request carries it to admission: without `status`
 * when the kind serves it as a subresource (the API server drops it, so
 * `kubectl get -o yaml` output can be applied again), and without
 * `metadata.namespace` for a cluster-scoped kind (the API server clears it
 * before any webhook sees it).
 */
export function asCreated(manifest: Manifest): Manifest {
  let created = manifest;
  if (created.status !== undefined && hasStatusSubresource(String(created.apiVersion), String(created.kind))) {
    const { status: _status, ...rest } = created;
    created = rest;
  }
  const meta = created.metadata;
  if (meta !== null && typeof meta === 'object' && meta.namespace !== undefined && isClusterScoped(created.apiVersion, created.kind)) {
    const { namespace: _namespace, ...metadata } = meta;
    created = { ...created, metadata };
  }
  return created;
}

/** The release the context targets for the product of a manifest's API group (a context without a target: the default lines). */
function releaseFor(manifest: Manifest, ctx: AdmissionContext): TargetRelease {
  const group = String(manifest.apiVersion ?? '').split('/')[0];
  return targetRelease(ctx.target ?? defaultTarget(), productOfGroup(group));
}

/**
 * The errors of the kind's release rules that the target's release has:
 * what it refuses that other releases accept, and what it refuses that newer
 * releases accept (named with the release and the target).
 */
function releaseRuleErrors(
  module: AdmissionModule, defaulted: Manifest, ctx: AdmissionContext, t: TargetRelease,
): { refuses: string[]; older: string[] } {
  const refuses: string[] = [];
  const older: string[] = [];
  if (!module.releaseRules) return { refuses, older };
  const product = productOfGroup(module.group);
  const release = t.release;
  for (const rule of module.releaseRules) {
    const has = atLeast(release, rule.release);
    if (rule.change === 'refuses' ? !has : has) continue;
    for (const f of rule.find(defaulted, ctx)) {
      if (typeof f === 'string') refuses.push(f);
      else if (rule.change === 'refuses') refuses.push(fieldError(f.field, f.value, f.problem, f.fix));
      else older.push(fieldError(f.field, f.value, `${f.problem}, which ${PRODUCT_NAME[product]} accepts from ${rule.release}; ${targetNote(t)}`, f.fix));
    }
  }
  return { refuses, older };
}

/**
 * The validating webhook of a kind as the context's target release has it
 * (`target`: the release of the kind's product, when the caller has it):
 * the module's rules, then its release rules that the release has, on the
 * defaulted object.
 */
export function moduleErrors(module: AdmissionModule, defaulted: Manifest, ctx: AdmissionContext, target = releaseFor(defaulted, ctx)): string[] {
  const base = module.validate(defaulted, ctx);
  const { refuses, older } = releaseRuleErrors(module, defaulted, ctx, target);
  if (older.length === 0) return refuses.length === 0 ? base : [...base, ...refuses];
  // an older release that refuses a field outright says so; the library's own lines on that field (or inside it) give way
  const fields = older.map(l => l.slice(0, l.indexOf(': ')));
  const under = (l: string) => {
    const f = l.slice(0, l.indexOf(': '));
    return fields.some(x => f === x || f.startsWith(`${x}.`) || f.startsWith(`${x}[`));
  };
  return [...base.filter(l => !under(l)), ...refuses, ...older];
}

/**
 * A kind whose CRD the chart of the target's line does not install
 * (`chartLeavesOut`: EphemeralJob on 1.7 and 1.8), unless the cluster is
 * known to have the CRD: such a cluster has no resource for it, and the
 * request fails before the API server decodes it (kubectl: "no matches for
 * kind"). The refusal line, or undefined.
 */
function missingCrd(manifest: Manifest, ctx: AdmissionContext, t: TargetRelease): string | undefined {
  const kind = String(manifest.kind);
  const [group, version] = String(manifest.apiVersion).split('/');
  if (productOfGroup(group) !== 'openkruise' || !(t.release.line.chartLeavesOut ?? []).includes(kind)) return undefined;
  // the plural of every OpenKruise kind is its name in lower case with an s (config/crd/bases)
  const crd = `${kind.toLowerCase()}s.${group}`;
  if (ctx.crdInstalled?.(crd)) return undefined;
  const command = t.declared.startsWith('given with ');
  return fieldError('kind', kind, `has no resource in a cluster of ${PRODUCT_NAME.openkruise} ${t.release.line.line}: its chart does not install the CRD ${crd}, `
    + `so the API server answers "no matches for kind ${kind} in version ${group}/${version}"; ${targetNote(t)}`,
  `install the CRD (config/crd/bases/${group}_${kind.toLowerCase()}s.yaml of the release's sources) and `
    + (command ? `pass it with the documents or with --live (kubectl get crd ${crd} -o json)` : 'add it to the app, or read the cluster\'s CRDs into its KruiseContext (addLiveState)')
    + `, or upgrade the cluster to ${PRODUCT_NAME.openkruise} ${DEFAULT_LINE.openkruise} and declare that release`);
}

/**
 * What the API server does with a create, in its order, as the context's
 * target release does it: a kind whose CRD the cluster lacks has no resource
 * (`missingCrd`); the object decodes against the release's schema
 * as written (types, unknown fields; a field or apiVersion a newer release
 * serves is named with that release and where the target was declared);
 * the mutating webhook defaults it; the required fields are checked on the
 * defaulted object (a webhook default may fill one); then the validating
 * webhook's rules, the kind's release rules the release has, a known
 * failure of the release on the target's Kubernetes that breaks the object
 * (src/releases/failures.ts), and, when `app` is given and nothing else was
 * found, the rules that read the other objects. `manifest` is only read.
 */
export function judgeManifest(manifest: Manifest, ctx: AdmissionContext, app?: AdmissionApp): Judgement {
  return withTemplateViews(() => judgeCreate(manifest, ctx, app));
}

function judgeCreate(manifest: Manifest, ctx: AdmissionContext, app?: AdmissionApp): Judgement {
  const target = releaseFor(manifest, ctx);
  const asSent = withoutNulls(asCreated(manifest), target);
  // a kind the cluster has no resource for: kubectl stops before any request
  const noCrd = missingCrd(asSent, ctx, target);
  if (noCrd) return { errors: [noCrd], decoded: false };
  const module = admissionModuleFor(String(asSent.apiVersion), String(asSent.kind));
  // what a mutating webhook's Go types write back is what the schema and the validating webhook then see, when it answers with them
  const answers = module?.writesBack?.(asSent) ?? true;
  const mutated = answers && MUTATING_WEBHOOKS.has(`${String(asSent.apiVersion).split('/')[0]}/${asSent.kind}`);
  const created = mutated ? goZeroValues(asSent, target) : asSent;
  const strayStatus = asSent === manifest ? [] : unknownStatusFields(manifest, target);
  if (strayStatus.length > 0) return { errors: strayStatus, decoded: false };
  const undecodable = metadataDecodeErrors(created);
  if (undecodable.length > 0) return { errors: undecodable, decoded: false };
  const issues = validateManifest(created, target);
  const structural = issues.filter(i => !checkedAfterMutation(i));
  if (structural.length > 0) return { errors: structural.map(formatIssue), decoded: false };
  // the manifest may be shared with other checks and the output: defaults return a copy, a module without defaults gets one
  const webhookDefaults = module?.defaults && answers ? module.defaults(created, ctx) : cloneJson(created);
  const defaulted = mutated ? goZeroValues(webhookDefaults, target) : webhookDefaults;
  if (issues.length > 0) {
    // required fields and values: the schema meets them after the mutating webhook answered
    const after = defaulted !== webhookDefaults || module?.defaults ? validateManifest(defaulted, target).filter(checkedAfterMutation) : issues;
    if (after.length > 0) return { errors: after.map(formatIssue), decoded: false };
  }
  const meta = metadataErrors(created);
  if (!module) return { errors: meta, decoded: true };
  const found = dedupe([...meta, ...moduleErrors(module, defaulted, ctx, target), ...workloadFailureErrors(defaulted, ctx)]);
  return { errors: found.length === 0 && module.appRules && app ? module.appRules(defaulted, app, ctx) : found, decoded: true };
}

/** Lines in order, each once (a module that checks the metadata too finds what the API server found). */
function dedupe(lines: string[]): string[] {
  return lines.length < 2 ? lines : [...new Set(lines)];
}

/**
 * A `status` the API server drops on create is still decoded first: with
 * strict field validation (kubectl's default) a field the status schema does
 * not have fails the request, whatever its value.
 */
function unknownStatusFields(manifest: Manifest, target: TargetRelease): string[] {
  if (manifest.status === undefined || manifest.status === null) return [];
  const only = { apiVersion: manifest.apiVersion, kind: manifest.kind, metadata: manifest.metadata, status: manifest.status };
  const withStatus = withoutNulls(only, target);
  return validateManifest(withStatus, target)
    .filter(i => i.keyword === 'additionalProperties' && (i.field === 'status' || i.field.startsWith('status.')))
    .map(formatIssue);
}

/**
 * The API server decodes every object's metadata into its Go type first: a
 * name, label, annotation or finalizer of another type than a string fails
 * the request before anything else (null is left unset).
 */
function metadataDecodeErrors(created: Manifest): string[] {
  const out = objectMetaDecodeErrors(created.metadata, 'metadata', 'the API server cannot decode the object\'s metadata');
  for (const p of EMBEDDED_METADATA[`${String(created.apiVersion).split('/')[0]}/${created.kind}`] ?? []) {
    for (const { value, at } of valuesAt(created, p)) out.push(...objectMetaDecodeErrors(value, at, `the webhook cannot decode the ${created.kind}`));
  }
  return out;
}

/**
 * The object metadata a kind embeds where its schema keeps any value
 * (x-kubernetes-preserve-unknown-fields), which its webhooks decode into Go
 * types with the object (a label of another type than a string fails the
 * request): a UnitedDeployment's subset workload templates
 * (apis/apps/v1alpha1/uniteddeployment_types.go, the metadata of each
 * template), an AdvancedCronJob's Job template, the claim templates of a
 * CloneSet and an Advanced StatefulSet. `[]` is every item of a list.
 */
const EMBEDDED_METADATA: Record<string, readonly string[]> = {
  'apps.kruise.io/UnitedDeployment': ['statefulSetTemplate', 'advancedStatefulSetTemplate', 'cloneSetTemplate', 'deploymentTemplate'].map(t => `spec.template.${t}.metadata`),
  'apps.kruise.io/AdvancedCronJob': ['spec.template.jobTemplate.metadata'],
  'apps.kruise.io/CloneSet': ['spec.volumeClaimTemplates[].metadata'],
  'apps.kruise.io/StatefulSet': ['spec.volumeClaimTemplates[].metadata'],
};

/** The values at a dotted path (`[]`: each item of a list there), with their paths. */
function valuesAt(m: unknown, path: string): Array<{ value: unknown; at: string }> {
  let here: Array<{ value: unknown; at: string }> = [{ value: m, at: '' }];
  for (const part of path.split('.')) {
    const list = part.endsWith('[]');
    const key = list ? part.slice(0, -2) : part;
    const next: Array<{ value: unknown; at: string }> = [];
    for (const { value, at } of here) {
      const v = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
      if (v === undefined) continue;
      const p = at === '' ? key : `${at}.${key}`;
      if (!list) next.push({ value: v, at: p });
      else if (Array.isArray(v)) v.forEach((x, i) => next.push({ value: x, at: `${p}[${i}]` }));
    }
    if (next.length === 0) return next;
    here = next;
  }
  return here;
}

/** The fields of an ObjectMeta at `at` that do not decode into its Go type (null is left unset), each saying what cannot decode. */
function objectMetaDecodeErrors(meta: unknown, at: string, what: string): string[] {
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return [];
  const m = meta as Record<string, any>;
  const out: string[] = [];
  const notDecoded = (field: string, value: unknown, type: string) => out.push(fieldError(field, value,
    `is not ${type}, so ${what}`, typeof value === 'number' || typeof value === 'boolean' ? 'quote it' : `give ${type}`));
  // the strings of ObjectMeta, a cluster's as well as the user's (YAML 1.1 reads an unquoted resourceVersion: 4711 as a number)
  for (const f of ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'selfLink']) {
    if (m[f] !== undefined && m[f] !== null && typeof m[f] !== 'string') notDecoded(`${at}.${f}`, m[f], 'a string');
  }
  if (m.generation !== undefined && m.generation !== null && !Number.isInteger(m.generation)) {
    out.push(fieldError(`${at}.generation`, m.generation, `is not a whole number, so ${what}`, 'remove it (the API server sets it)'));
  }
  // a metav1.Time decodes from an RFC 3339 string only
  for (const f of ['creationTimestamp', 'deletionTimestamp']) {
    if (m[f] !== undefined && m[f] !== null && typeof m[f] !== 'string') notDecoded(`${at}.${f}`, m[f], 'an RFC 3339 time string');
  }
  for (const f of ['labels', 'annotations']) {
    const map = m[f];
    if (map === undefined || map === null) continue;
    if (typeof map !== 'object' || Array.isArray(map)) notDecoded(`${at}.${f}`, map, 'a map of strings');
    else for (const [k, v] of Object.entries(map)) if (v !== null && typeof v !== 'string') notDecoded(`${at}.${f}[${JSON.stringify(k)}]`, v, 'a string');
  }
  if (m.finalizers !== undefined && m.finalizers !== null) {
    if (!Array.isArray(m.finalizers)) notDecoded(`${at}.finalizers`, m.finalizers, 'a list of strings');
    else m.finalizers.forEach((f: unknown, i: number) => { if (f !== null && typeof f !== 'string') notDecoded(`${at}.finalizers[${i}]`, f, 'a string'); });
  }
  return out;
}

/**
 * What the API server checks of the metadata of every custom resource on
 * create, before any validating webhook (apimachinery's
 * ValidateObjectMetaAccessor, names checked as DNS subdomains): a name (or a
 * generateName), the namespace, label keys and values, annotation keys and
 * their total size, finalizers.
 */
function metadataErrors(created: Manifest): string[] {
  const meta = created.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return [];
  const kind = String(created.kind);
  // as decoded: a null label, annotation or finalizer is the empty string
  const decoded = { ...meta };
  for (const f of ['labels', 'annotations']) if (meta[f]) decoded[f] = Object.fromEntries(Object.entries(meta[f]).map(([k, v]) => [k, v ?? '']));
  if (Array.isArray(meta.finalizers)) decoded.finalizers = meta.finalizers.map((f: unknown) => f ?? '');
  const out = objectMetaProblems(decoded, 'subdomain', kind).map(p => fieldError(p.field, p.value, p.problem, p.fix));
  const unnamed = (v: unknown) => v === undefined || v === null || v === '';
  if (unnamed(meta.name) && unnamed(meta.generateName)) {
    out.unshift(fieldError('metadata.name', meta.name, 'is required: the API server refuses an object without a name (or generateName)', `name the ${kind}`));
  }
  return out;
}

/**
 * What upstream accepts but the user rarely means, of an object that passed
 * admission: the metadata a cluster set (unless `keepsServerFields`), the
 * kind's own warnings, and the fields the target's release keeps but ignores.
 */
export function manifestWarnings(manifest: Manifest, ctx: AdmissionContext, app: AdmissionApp, keepsServerFields = false): string[] {
  const found: string[] = [];
  const ns = manifest.metadata?.namespace;
  if (ns !== undefined && ns !== null && ns !== '' && isClusterScoped(manifest.apiVersion, manifest.kind)) {
    found.push(fieldError('metadata.namespace', ns, `is ignored: ${manifest.kind} is cluster-scoped, so the API server clears the namespace before any webhook sees it`,
      manifest.kind === 'SidecarSet' ? 'remove metadata.namespace (spec.namespaceSelector chooses the namespaces of the pods)' : 'remove metadata.namespace'));
  }
  const server = SERVER_SET_METADATA.filter(f => manifest.metadata?.[f] !== undefined);
  if (server.length > 0 && !keepsServerFields) {
    found.push(fieldError('metadata', server, 'were set by the cluster the object was read from: the API server refuses to create an object with a resourceVersion, and applies it to nothing but that one object',
      'remove them, or include the file with KruiseInclude, which leaves them out'));
  }
  // the object as the API server keeps it: the nulls it takes out are no values to warn about (a partition: null is no partition)
  const created = withoutNulls(asCreated(manifest), releaseFor(manifest, ctx));
  const module = admissionModuleFor(String(created.apiVersion), String(created.kind));
  if (module?.warnings) found.push(...module.warnings(created, ctx, app));
  found.push(...ignoredFieldWarnings(created, ctx));
  return found;
}

/**
 * What the target's release keeps but ignores: a newer release's field where
 * its schema keeps unknown fields (a SidecarSet container, ...). Accepted,
 * and it does nothing there.
 */
function ignoredFieldWarnings(manifest: Manifest, ctx: AdmissionContext): string[] {
  const t = releaseFor(manifest, ctx);
  if (isDefaultLine(t.release)) return [];
  const product = PRODUCT_NAME[t.release.product];
  return ignoredFields(manifest, t).map(f => fieldError(f.field, f.value,
    `is accepted and ignored by ${releaseName(t.release)}, which keeps it but has no such field (it is served from ${product} ${f.since}); ${targetNote(t)}`,
    advice(`remove it, or keep it for when the cluster runs ${product} ${f.since} (it takes effect then)`,
      `leave unset the prop that writes it, or keep it for when the cluster runs ${product} ${f.since} (it takes effect then)`)));
}
