/**
 * Pod templates as the OpenKruise webhooks see them: the pod-template
 * defaults (TEMPLATE-DEFAULTS) applied in memory, then the subset of the
 * upstream Kubernetes pod-template validation (POD-TEMPLATE-VALID) that
 * needs no cluster state. Works on the wire (JSON) form of a pod template,
 * so any kind that embeds one (workloads, jobs, UnitedDeployment subsets)
 * reuses it. Defaults are never written to the output: they only make the
 * validation see what the API server will see.
 */
import { stricterProblem } from './field-error';
import { cloneJson } from './json';
import {
  dns1123LabelProblems, dns1123SubdomainProblems, envVarNameProblems, labelValueProblems, labelsProblems,
  portNameProblems, qualifiedNameProblems,
} from './names';
import { selectorProblems } from './selectors';
import { eachObject, isObject, listShapeProblem } from './shape';

/** One problem in a pod template: field path, value found, what is wrong, how to fix it. */
export interface TemplateProblem {
  readonly field: string;
  readonly value: unknown;
  readonly problem: string;
  readonly fix: string;
}

/** Options of `podTemplateProblems`. */
export interface PodTemplateCheckOptions {
  /** Where the template sits in the object, e.g. `spec.template`. */
  readonly path: string;
  /**
   * Volume names the workload adds to every pod from its volumeClaimTemplates
   * (CloneSet and Advanced StatefulSet): container mounts may reference them.
   */
  readonly claimVolumes?: string[];
}

type Json = Record<string, any>;

const clone = cloneJson;

/** A list field as the checks read it: anything but an array (reported by the shape check) reads as empty. */
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);
/** A list of objects as the checks read it (other items are reported by the shape check). */
const objs = (v: unknown): any[] => arr(v).filter(isObject);

const POD_LISTS = ['containers', 'initContainers', 'volumes', 'tolerations', 'topologySpreadConstraints', 'readinessGates', 'schedulingGates', 'hostAliases', 'imagePullSecrets', 'ephemeralContainers'];
const CONTAINER_LISTS = ['ports', 'env', 'envFrom', 'volumeMounts', 'volumeDevices'];
const POD_OBJECTS = ['securityContext', 'affinity', 'dnsConfig', 'os', 'nodeSelector', 'overhead'];
const CONTAINER_OBJECTS = ['livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resources', 'securityContext'];

/** Reports values Go types cannot decode: `why` says who cannot decode what (e.g. `the API server cannot decode the pod`). */
function shapeChecks(c: { add(field: string, value: unknown, problem: string, fix: string): void }, why: string) {
  const object = (at: string, v: unknown) => {
    if (v !== undefined && v !== null && !isObject(v)) c.add(at, v, `is not an object, so ${why}`, 'give an object (or leave it out)');
  };
  const list = (at: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (!Array.isArray(v)) {
      c.add(at, v, `is not a list, so ${why}`, 'give a list (or leave it out)');
      return;
    }
    v.forEach((x, i) => { if (!isObject(x)) c.add(`${at}[${i}]`, x, `is not an object, so ${why}`, 'give each item as an object'); });
  };
  return { object, list };
}

/** The lists and objects of one container that must decode (a pod container, an ephemeral or a sidecar container). */
function containerShape(c: Collector, here: string, k: Json, why: string, scalars = true): void {
  const { object, list } = shapeChecks(c, why);
  for (const g of CONTAINER_LISTS) list(`${here}.${g}`, k[g]);
  for (const g of CONTAINER_OBJECTS) object(`${here}.${g}`, k[g]);
  if (isObject(k.lifecycle)) for (const h of ['postStart', 'preStop']) object(`${here}.lifecycle.${h}`, k.lifecycle[h]);
  eachObject(k.env, (e: Json, j: number) => object(`${here}.env[${j}].valueFrom`, e.valueFrom));
  for (const f of ['command', 'args']) {
    const v = k[f];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) c.add(`${here}.${f}`, v, `is not a list of strings, so ${why}`, 'give a list of strings, e.g. ["sh", "-c", "..."]');
    else v.forEach((x, i) => { if (typeof x !== 'string') c.add(`${here}.${f}[${i}]`, x, `is not a string, so ${why}`, 'quote it'); });
  }
  for (const f of ['stdin', 'stdinOnce', 'tty']) {
    const v = k[f];
    if (v !== undefined && v !== null && typeof v !== 'boolean') c.add(`${here}.${f}`, v, `is not a boolean, so ${why}`, 'give true or false (unquoted)');
  }
  // a pod's container checks report the name, the image and the enums
  for (const f of scalars ? ['name', 'image', 'imagePullPolicy', 'workingDir', 'terminationMessagePath', 'terminationMessagePolicy'] : ['workingDir', 'terminationMessagePath']) {
    const v = k[f];
    if (v !== undefined && v !== null && typeof v !== 'string') c.add(`${here}.${f}`, v, `is not a string, so ${why}`, 'give it as a string');
  }
}

/**
 * A list of containers in a field the CRD leaves untyped (an EphemeralJob's
 * ephemeralContainers, ...), as the webhook decodes it into typed Go
 * structs: a list of objects whose lists, objects and strings have their types.
 */
export function containerListShapeProblems(v: unknown, at: string, kind: string): TemplateProblem[] {
  const why = `the webhook cannot decode the ${kind}`;
  const c = new Collector();
  shapeChecks(c, why).list(at, v);
  eachObject(v, (k: Json, i: number) => containerShape(c, `${at}[${i}]`, k, why));
  return c.out;
}

/** Lists that are not lists of objects, and objects that are not objects: the API server cannot decode such a pod. */
function shapeProblems(c: Collector, sp: string, s: Json, why = 'the API server cannot decode the pod', scalars = false): void {
  const { object, list } = shapeChecks(c, why);
  for (const f of POD_LISTS) list(`${sp}.${f}`, s[f]);
  for (const f of POD_OBJECTS) object(`${sp}.${f}`, s[f]);
  for (const f of ['containers', 'initContainers']) {
    eachObject(s[f], (k: Json, i: number) => containerShape(c, `${sp}.${f}[${i}]`, k, why, scalars));
  }
  eachObject(s.volumes, (v: Json, i: number) => { for (const src of VOLUME_SOURCES) object(`${sp}.volumes[${i}].${src}`, v[src]); });
}

/**
 * A label or annotation value is a string in Go: anything else does not decode
 * (an unquoted on, yes or no is a boolean to kubectl); null decodes to "".
 */
function metadataStringProblems(c: Collector, at: string, meta: Json, why: string): void {
  for (const f of ['labels', 'annotations']) {
    for (const [k, v] of Object.entries<unknown>(isObject(meta[f]) ? meta[f] : {})) {
      if (v !== null && typeof v !== 'string') c.add(`${at}.metadata.${f}[${JSON.stringify(k)}]`, v, `is not a string, so ${why}`, 'quote it in the YAML, so it stays the text written there');
    }
  }
}

/**
 * What a webhook's Go types cannot decode in a pod template the CRD leaves
 * untyped (a UnitedDeployment's StatefulSet templates): labels and
 * annotations that are no strings, lists and objects of another type, and
 * container fields of another type. `why` says who fails to decode it.
 */
export function podTemplateDecodeProblems(template: unknown, at: string, why: string): TemplateProblem[] {
  const c = new Collector();
  if (!isObject(template)) return c.out;
  metadataStringProblems(c, at, isObject(template.metadata) ? template.metadata : {}, why);
  if (isObject(template.spec)) shapeProblems(c, `${at}.spec`, template.spec, why, true);
  return c.out;
}

// --- TEMPLATE-DEFAULTS --------------------------------------------------------

function hasLatestOrNoTag(image: unknown): boolean {
  if (typeof image !== 'string' || !image) return true; // not a string: reported by the container checks
  if (image.includes('@')) return false;
  const lastSlash = image.lastIndexOf('/');
  const tail = image.slice(lastSlash + 1);
  const colon = tail.lastIndexOf(':');
  if (colon < 0) return true;
  return tail.slice(colon + 1) === 'latest';
}

function defaultHttpGet(h: unknown): void {
  if (!isObject(h)) return;
  h.path ??= '/';
  h.scheme ??= 'HTTP';
}

function defaultProbe(p: unknown): void {
  if (!isObject(p)) return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
  defaultHttpGet(p.httpGet);
}

function defaultFieldRef(holder: unknown): void {
  if (isObject(holder) && isObject(holder.fieldRef)) holder.fieldRef.apiVersion ??= 'v1';
}

function defaultContainer(c: Json, kind: 'regular' | 'init', kubernetes = false): void {
  if (!c.imagePullPolicy) {
    // OpenKruise sets Always on every regular container (for in-place updates); Kubernetes only on :latest or untagged images
    c.imagePullPolicy = (kind === 'regular' && !kubernetes) || hasLatestOrNoTag(c.image) ? 'Always' : 'IfNotPresent';
  }
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  for (const p of objs(c.ports)) p.protocol ??= 'TCP';
  for (const e of objs(c.env)) defaultFieldRef(e.valueFrom);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  if (isObject(c.lifecycle)) {
    for (const h of [c.lifecycle.postStart, c.lifecycle.preStop]) if (isObject(h)) defaultHttpGet(h.httpGet);
  }
}

export const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc',
  'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected',
  'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
];

function defaultVolume(v: Json): void {
  if (!VOLUME_SOURCES.some(s => v[s] !== undefined)) v.emptyDir = {};
  if (isObject(v.hostPath)) v.hostPath.type ??= '';
  for (const s of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isObject(v[s])) v[s].defaultMode ??= 420;
  }
  if (isObject(v.downwardAPI)) objs(v.downwardAPI.items).forEach(defaultFieldRef);
  if (isObject(v.projected)) {
    for (const src of objs(v.projected.sources)) {
      if (isObject(src.serviceAccountToken)) src.serviceAccountToken.expirationSeconds ??= 3600;
      if (isObject(src.downwardAPI)) objs(src.downwardAPI.items).forEach(defaultFieldRef);
    }
  }
}

/** The defaulted pod templates of the judgement running now, by the template given (`withTemplateViews`). */
let views: WeakMap<object, Json> | undefined;
/** Whether `views` is a scope of `sharingTemplateViews` (a judgement inside it keeps using it). */
let sharing = false;

/**
 * Run `judge` (one object's judgement) with one defaulted copy of each pod
 * template it asks for by `defaultedTemplateView`: the webhook's rules, the
 * release rules and the warnings of one object read the same template, and
 * none of them changes it. Inside `sharingTemplateViews`, the copies of
 * that scope.
 */
export function withTemplateViews<T>(judge: () => T): T {
  if (sharing) return judge();
  const outer = views;
  views = new WeakMap();
  try {
    return judge();
  } finally {
    views = outer;
  }
}

/**
 * Run `fn` (the judgement of objects and then their warnings, none of which
 * changes what it reads) with the defaulted templates of `shared`: the
 * warnings of an object read the copy its judgement made. The caller keeps
 * `shared` only as long as the objects judged stay unchanged (a synth round,
 * one file of `check`).
 */
export function sharingTemplateViews<T>(shared: WeakMap<object, Json>, fn: () => T): T {
  const outer = { views, sharing };
  views = shared;
  sharing = true;
  try {
    return fn();
  } finally {
    views = outer.views;
    sharing = outer.sharing;
  }
}

/**
 * `defaultPodTemplate(template)`, to be read and never changed: inside
 * `withTemplateViews`, the same copy for the same template object.
 */
export function defaultedTemplateView(template: Json | undefined): Json {
  if (!views || template === null || typeof template !== 'object') return defaultPodTemplate(template);
  let t = views.get(template);
  if (!t) views.set(template, t = defaultPodTemplate(template));
  return t;
}

/**
 * TEMPLATE-DEFAULTS: a copy of the pod template with the defaults the
 * OpenKruise mutating webhooks (and the in-memory copy their validators use)
 * apply. The input is not modified.
 */
export function defaultPodTemplate(template: Json | undefined, kubernetes = false): Json {
  const t: Json = clone(template ?? {});
  if (!isObject(t)) return t; // the schema or the shape check reports it
  t.spec ??= {};
  const s = t.spec;
  if (!isObject(s)) return t; // the shape check reports it
  s.dnsPolicy ||= 'ClusterFirst';
  s.restartPolicy ||= 'Always';
  s.securityContext ??= {};
  s.terminationGracePeriodSeconds ??= 30;
  s.schedulerName ||= 'default-scheduler';
  for (const c of objs(s.containers)) defaultContainer(c, 'regular', kubernetes);
  for (const c of objs(s.initContainers)) defaultContainer(c, 'init');
  for (const v of objs(s.volumes)) defaultVolume(v);
  return t;
}

// --- quantities ---------------------------------------------------------------

const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const SUFFIX: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** A Kubernetes quantity as a number (rounded up to milli precision, as the defaulter does), or undefined. */
export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  if (typeof q !== 'string') return undefined;
  const m = QUANTITY.exec(q);
  if (!m) return undefined;
  const base = Number(m[1]);
  const suffix = m[2] ?? '';
  const mult = suffix === '' ? 1 : /^[eE]/.test(suffix) ? 10 ** Number(suffix.slice(1)) : SUFFIX[suffix];
  const v = base * mult;
  return Math.ceil(v * 1000 - 1e-9) / 1000;
}

// --- POD-TEMPLATE-VALID -------------------------------------------------------

const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
const TOLERATION_OPERATORS = ['Exists', 'Equal'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];
const FIELD_REF_PATHS = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName',
  'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
];
const RESOURCE_FIELD_REFS = [
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
];
const STANDARD_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];
/** supportedHostPathTypes (validation.go of Kubernetes v1.28.9 to v1.32.10). */
const HOST_PATH_TYPES = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'];
const NODE_SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const MAX_ANNOTATIONS_BYTES = 256 * 1024;
const MAX_INT32 = 2147483647;

class Collector {
  public readonly out: TemplateProblem[] = [];
  public add(field: string, value: unknown, problem: string, fix: string): void {
    this.out.push({ field, value, problem, fix });
  }
}

function isIntInRange(v: unknown, min: number, max: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

function checkPortRef(c: Collector, at: string, port: unknown, containerPortNames: string[] | undefined): void {
  if (typeof port === 'number') {
    if (!isIntInRange(port, 1, 65535)) c.add(at, port, 'is not a valid port number', 'use a port between 1 and 65535');
    return;
  }
  if (typeof port === 'string') {
    const problems = portNameProblems(port);
    if (problems.length > 0) {
      c.add(at, port, `is not a valid port name (${problems.join('; ')})`, 'use a port number or the name of a container port');
    } else if (containerPortNames && !containerPortNames.includes(port)) {
      // core validation checks only the name's syntax (validateHTTPGetAction, validation.go:3258 of Kubernetes v1.32.10)
      c.add(at, port, stricterProblem('names no port of the container', 'the API server', 'the kubelet finds no such port and the handler fails on every pod'),
        `use one of ${JSON.stringify(containerPortNames)} or a port number`);
    }
    return;
  }
  c.add(at, port, 'is required', 'set the port number or name');
}

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

function checkHandler(c: Collector, at: string, h: Json, kinds: string[], portNames: string[]): void {
  const set = kinds.filter(k => h[k] !== undefined);
  // a sleep action is a handler of the releases whose Kubernetes types have it: their release rules judge it
  const counted = set.filter(k => k !== 'sleep');
  if (set.length === 0) {
    c.add(at, h, 'has no handler', `set exactly one of ${kinds.join(', ')}`);
  } else if (counted.length > 1) {
    c.add(at, counted, 'sets more than one handler', `keep exactly one of ${counted.join(', ')}`);
  }
  if (h.exec && (!Array.isArray(h.exec.command) || h.exec.command.length === 0)) {
    c.add(`${at}.exec.command`, h.exec.command, 'is empty', 'give the command to run');
  }
  if (h.httpGet) {
    checkPortRef(c, `${at}.httpGet.port`, h.httpGet.port, portNames);
    if (h.httpGet.scheme !== undefined && !['HTTP', 'HTTPS'].includes(h.httpGet.scheme)) {
      c.add(`${at}.httpGet.scheme`, h.httpGet.scheme, 'is not a supported scheme', 'use HTTP or HTTPS');
    }
    // validateHTTPGetAction: header names are HTTP tokens (validation.IsHTTPHeaderName, validation.go:3267 of Kubernetes v1.32.10)
    arr(h.httpGet.httpHeaders).forEach((hd: unknown, i: number) => {
      const name = isObject(hd) ? hd.name : undefined;
      if (typeof name !== 'string' || !/^[-A-Za-z0-9]+$/.test(name)) {
        c.add(`${at}.httpGet.httpHeaders[${i}].name`, name, 'is not a valid HTTP header name', 'use letters, digits and \'-\', e.g. X-Probe');
      }
    });
  }
  if (h.tcpSocket) checkPortRef(c, `${at}.tcpSocket.port`, h.tcpSocket.port, portNames);
  if (h.grpc && !isIntInRange(h.grpc.port, 1, 65535)) {
    c.add(`${at}.grpc.port`, h.grpc.port, 'is not a valid port number', 'use a port between 1 and 65535');
  }
}

function checkProbe(c: Collector, at: string, p: Json, kind: 'liveness' | 'readiness' | 'startup', portNames: string[]): void {
  checkHandler(c, at, p, HANDLERS, portNames);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    if (p[f] !== undefined && !(typeof p[f] === 'number' && p[f] >= 0)) {
      c.add(`${at}.${f}`, p[f], 'must be non-negative', 'use 0 or more');
    }
  }
  if (kind !== 'readiness' && p.successThreshold !== undefined && p.successThreshold !== 1) {
    c.add(`${at}.successThreshold`, p.successThreshold, `must be 1 for a ${kind} probe`, 'remove it or set 1');
  }
  if (kind === 'readiness' && p.terminationGracePeriodSeconds !== undefined) {
    c.add(`${at}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'is not allowed on a readiness probe', 'remove it');
  } else if (p.terminationGracePeriodSeconds !== undefined && !(p.terminationGracePeriodSeconds > 0)) {
    c.add(`${at}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'must be greater than 0', 'use a positive number of seconds or remove it');
  }
}

function checkEnv(c: Collector, at: string, env: unknown[]): void {
  env.forEach((e, i) => {
    if (!isObject(e)) return; // reported by the shape check
    const here = `${at}.env[${i}]`;
    if (!e.name) c.add(`${here}.name`, e.name, 'is required', 'name the variable');
    else for (const p of envVarNameProblems(e.name)) c.add(`${here}.name`, e.name, p, 'rename the variable, e.g. MY_VAR');
    // EnvVar.value is a string in Go: a number or boolean does not decode (YAML reads an unquoted 1, true or on as one)
    if (e.value !== undefined && e.value !== null && typeof e.value !== 'string') {
      c.add(`${here}.value`, e.value, 'is not a string, so the webhook cannot decode the pod', 'quote it in the YAML, so it stays the text written there');
    }
    const vf = e.valueFrom;
    if (!isObject(vf)) return; // a non-object is reported by the shape check
    if (e.value !== undefined && e.value !== '') {
      c.add(`${here}.valueFrom`, vf, 'may not be combined with a non-empty value', 'keep either value or valueFrom');
    }
    const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter(k => vf[k] !== undefined);
    if (sources.length !== 1) {
      c.add(`${here}.valueFrom`, sources, sources.length === 0 ? 'has no source' : 'sets more than one source',
        'set exactly one of fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef');
    }
    if (vf.fieldRef) {
      const path = String(vf.fieldRef.fieldPath ?? '');
      const subscripted = /^metadata\.(labels|annotations)\['[^']+'\]$/.test(path);
      if (!subscripted && !FIELD_REF_PATHS.includes(path)) {
        c.add(`${here}.valueFrom.fieldRef.fieldPath`, vf.fieldRef.fieldPath, 'is not a supported field path',
          `use one of ${FIELD_REF_PATHS.join(', ')}, metadata.labels['<key>'] or metadata.annotations['<key>']`);
      }
      if (vf.fieldRef.apiVersion !== undefined && vf.fieldRef.apiVersion !== 'v1') {
        c.add(`${here}.valueFrom.fieldRef.apiVersion`, vf.fieldRef.apiVersion, 'is not supported', 'use v1 or leave it unset');
      }
    }
    if (vf.resourceFieldRef) {
      const r = String(vf.resourceFieldRef.resource ?? '');
      if (!RESOURCE_FIELD_REFS.includes(r) && !/^(limits|requests)\.hugepages-/.test(r)) {
        c.add(`${here}.valueFrom.resourceFieldRef.resource`, vf.resourceFieldRef.resource, 'is not a supported resource', `use one of ${RESOURCE_FIELD_REFS.join(', ')}`);
      }
    }
    for (const k of ['configMapKeyRef', 'secretKeyRef']) {
      const ref = vf[k];
      if (!ref) continue;
      if (!ref.name) c.add(`${here}.valueFrom.${k}.name`, ref.name, 'is required', `name the ${k === 'secretKeyRef' ? 'Secret' : 'ConfigMap'}`);
      if (!ref.key || !CONFIG_KEY.test(ref.key) || ref.key.length > 253) {
        c.add(`${here}.valueFrom.${k}.key`, ref.key, 'is not a valid key', 'use letters, digits, \'-\', \'_\' or \'.\' (at most 253 characters)');
      }
    }
  });
}

function checkResources(c: Collector, at: string, r: Json): void {
  const lists: Array<'limits' | 'requests'> = ['limits', 'requests'];
  for (const l of lists) {
    for (const [name, q] of Object.entries(r[l] ?? {})) {
      const here = `${at}.resources.${l}[${JSON.stringify(name)}]`;
      const standard = STANDARD_RESOURCES.includes(name) || name.startsWith('hugepages-');
      if (!standard && (!name.includes('/') || qualifiedNameProblems(name).length > 0)) {
        c.add(here, name, 'is not a valid resource name', 'use cpu, memory, ephemeral-storage, hugepages-<size> or a qualified extended resource name such as example.com/gpu');
      }
      const v = parseQuantity(q);
      // an extended resource is counted in whole units (core validation's ValidateResourceQuantityValue with
      // helper.IsIntegerResourceName, validation.go of Kubernetes v1.28.9 to v1.32.10)
      const extended = !standard && !name.startsWith('requests.') && !/(^|\.)kubernetes\.io\//.test(name);
      if (v === undefined) c.add(here, q, 'is not a valid quantity', 'use a quantity such as 500m, 1, 128Mi or 1Gi');
      else if (v < 0) c.add(here, q, 'must be non-negative', 'use 0 or more');
      else if (extended && !Number.isInteger(v)) c.add(here, q, 'must be an integer: an extended resource is counted in whole units', 'use a whole number, e.g. 1');
    }
  }
  // validateContainerResourceRequirements: hugepages only beside cpu or memory
  const names = [...Object.keys(isObject(r.limits) ? r.limits : {}), ...Object.keys(isObject(r.requests) ? r.requests : {})];
  if (names.some(n => n.startsWith('hugepages-')) && !names.some(n => n === 'cpu' || n === 'memory')) {
    c.add(`${at}.resources`, r, 'asks for hugepages without cpu or memory, which Kubernetes requires beside them', 'add a cpu or memory request or limit');
  }
  for (const [name, q] of Object.entries(r.requests ?? {})) {
    const lim = r.limits?.[name];
    // helper.IsOvercommitAllowed: a native resource that is no hugepages; any other request needs a limit, and equals it
    // (validateContainerResourceRequirements, validation.go:6370-6378 of Kubernetes v1.28.9; the same to v1.32.10)
    const overcommit = (!name.includes('/') || name.includes('kubernetes.io/')) && !name.startsWith('hugepages-');
    if (!overcommit && lim === undefined) {
      c.add(`${at}.resources.limits[${JSON.stringify(name)}]`, undefined, `is required beside the request of ${name}, which cannot be overcommitted`, `set the limit of ${name} to the request (${String(q)})`);
    }
    if (lim === undefined) continue;
    if (!overcommit && parseQuantity(q) !== undefined && parseQuantity(q) !== parseQuantity(lim)) {
      c.add(`${at}.resources.requests[${JSON.stringify(name)}]`, q, `must equal the limit ${JSON.stringify(lim)}: ${name} cannot be overcommitted`, 'request as much as the limit, or leave the request out');
      continue;
    }
    const req = parseQuantity(q);
    const max = parseQuantity(lim);
    if (req !== undefined && max !== undefined && req > max) {
      c.add(`${at}.resources.requests[${JSON.stringify(name)}]`, q, `is greater than the limit ${JSON.stringify(lim)}`, 'request at most the limit');
    }
  }
}

function checkContainerSecurity(c: Collector, at: string, sc: Json | undefined): void {
  if (!sc) return;
  checkSeccomp(c, at, sc);
  // core validation's ValidateSecurityContext: procMount is Default or Unmasked (validation.go of Kubernetes v1.28.9 to v1.32.10)
  if (sc.procMount !== undefined && sc.procMount !== null && !['Default', 'Unmasked'].includes(sc.procMount)) {
    c.add(`${at}.securityContext.procMount`, sc.procMount, 'is not supported', 'use Default or Unmasked');
  }
  for (const f of ['runAsUser', 'runAsGroup']) {
    if (sc[f] !== undefined && !isIntInRange(sc[f], 0, MAX_INT32)) c.add(`${at}.securityContext.${f}`, sc[f], 'must be between 0 and 2147483647', 'use a valid id');
  }
  if (sc.privileged === true && sc.allowPrivilegeEscalation === false) {
    c.add(`${at}.securityContext.allowPrivilegeEscalation`, false, 'cannot be false when privileged is true', 'drop one of the two settings');
  }
  // upstream compares the name as written: CAP_SYS_ADMIN, not SYS_ADMIN (validation.go:7233 of Kubernetes v1.30.10, the same in 1.28 and 1.32)
  if (sc.allowPrivilegeEscalation === false && arr(sc.capabilities?.add).includes('CAP_SYS_ADMIN')) {
    c.add(`${at}.securityContext.allowPrivilegeEscalation`, false, 'cannot be false when the CAP_SYS_ADMIN capability is added', 'drop one of the two settings');
  }
}

interface HostPortKey { hostPort: number; protocol: string; hostIP: string; at: string }

function checkContainer(
  c: Collector, at: string, k: Json, kind: 'regular' | 'init', volumes: Map<string, Json>, hostNetwork: boolean, hostPorts: HostPortKey[],
): void {
  const isSidecar = kind === 'init' && k.restartPolicy === 'Always';
  // validateInitContainers: no resize policy on any init container (validation.go:3311 of Kubernetes v1.28.9, :3532 of
  // v1.30.10, :3554 of v1.32.10, where the webhooks' options leave AllowSidecarResizePolicy off)
  if (kind === 'init' && Array.isArray(k.resizePolicy) && k.resizePolicy.length > 0) {
    c.add(`${at}.resizePolicy`, k.resizePolicy, 'must not be set for init containers', 'remove it');
  }
  if (k.image !== undefined && k.image !== null && typeof k.image !== 'string') {
    c.add(`${at}.image`, k.image, 'is not a string, so the API server cannot decode the pod', 'give the image as a string, e.g. "nginx:1.27"');
  } else if (!k.image || String(k.image).trim() === '') {
    c.add(`${at}.image`, k.image, 'is required', 'set the container image');
  } else if (String(k.image) !== String(k.image).trim()) {
    // a template check admits it, but the API server refuses every pod created from the template
    c.add(`${at}.image`, k.image, stricterProblem('has leading or trailing whitespace', 'OpenKruise', 'the API server refuses it in every pod created from the template'), 'remove the spaces around the image name');
  }
  if (k.imagePullPolicy !== undefined && !PULL_POLICIES.includes(k.imagePullPolicy)) {
    c.add(`${at}.imagePullPolicy`, k.imagePullPolicy, 'is not supported', `use one of ${PULL_POLICIES.join(', ')}`);
  }
  if (k.terminationMessagePolicy !== undefined && !TERMINATION_MESSAGE_POLICIES.includes(k.terminationMessagePolicy)) {
    c.add(`${at}.terminationMessagePolicy`, k.terminationMessagePolicy, 'is not supported', `use one of ${TERMINATION_MESSAGE_POLICIES.join(', ')}`);
  }
  if (k.restartPolicy !== undefined) {
    if (kind === 'regular') c.add(`${at}.restartPolicy`, k.restartPolicy, 'is only allowed on init containers', 'remove it');
    else if (k.restartPolicy !== 'Always') c.add(`${at}.restartPolicy`, k.restartPolicy, 'is not supported', 'use Always (a native sidecar) or remove it');
  }
  // ports
  const names = new Set<string>();
  const portNames: string[] = [];
  eachObject(k.ports, (p: Json, i: number) => {
    const here = `${at}.ports[${i}]`;
    if (!isIntInRange(p.containerPort, 1, 65535)) c.add(`${here}.containerPort`, p.containerPort, 'is not a valid port number', 'use a port between 1 and 65535');
    if (p.hostPort !== undefined && !isIntInRange(p.hostPort, 0, 65535)) c.add(`${here}.hostPort`, p.hostPort, 'is not a valid port number', 'use 0 or a port between 1 and 65535');
    if (hostNetwork && p.hostPort !== undefined && p.hostPort !== 0 && p.hostPort !== p.containerPort) {
      c.add(`${here}.hostPort`, p.hostPort, `must equal containerPort (${p.containerPort}) with hostNetwork`, 'remove hostPort or set it to the container port');
    }
    if (p.protocol !== undefined && !PROTOCOLS.includes(p.protocol)) c.add(`${here}.protocol`, p.protocol, 'is not supported', `use one of ${PROTOCOLS.join(', ')}`);
    if (p.name !== undefined) {
      for (const prob of portNameProblems(p.name)) c.add(`${here}.name`, p.name, prob, 'use a short lowercase name such as http');
      if (names.has(p.name)) c.add(`${here}.name`, p.name, 'is used by another port of this container', 'give every port its own name');
      names.add(p.name);
      portNames.push(p.name);
    }
    const hp = hostNetwork && (p.hostPort ?? 0) === 0 ? p.containerPort : p.hostPort;
    if (hp) {
      const key = { hostPort: hp, protocol: p.protocol ?? 'TCP', hostIP: p.hostIP ?? '', at: here };
      const dup = hostPorts.find(h => h.hostPort === key.hostPort && h.protocol === key.protocol && h.hostIP === key.hostIP);
      if (dup) c.add(`${here}.hostPort`, hp, `is already used by ${dup.at}`, 'use a different host port');
      else hostPorts.push(key);
    }
  });
  checkEnv(c, at, arr(k.env));
  eachObject(k.envFrom, (e: Json, i: number) => {
    const here = `${at}.envFrom[${i}]`;
    const srcs = ['configMapRef', 'secretRef'].filter(s => e[s] !== undefined);
    if (srcs.length !== 1) c.add(here, srcs, srcs.length === 0 ? 'has no source' : 'sets more than one source', 'set exactly one of configMapRef, secretRef');
    if (e.prefix) for (const p of envVarNameProblems(e.prefix)) c.add(`${here}.prefix`, e.prefix, p, 'use a prefix that forms valid variable names');
  });
  // mounts
  const mountPaths = new Set<string>();
  const mounted = new Set<string>();
  eachObject(k.volumeMounts, (m: Json, i: number) => {
    const here = `${at}.volumeMounts[${i}]`;
    if (!m.name || !volumes.has(m.name)) {
      c.add(`${here}.name`, m.name, 'names no volume of the pod', `add the volume, or use one of ${JSON.stringify([...volumes.keys()])}`);
    }
    mounted.add(m.name);
    if (!m.mountPath) c.add(`${here}.mountPath`, m.mountPath, 'is required', 'give the path to mount at');
    else if (mountPaths.has(m.mountPath)) c.add(`${here}.mountPath`, m.mountPath, 'is used by another mount of this container', 'mount each volume at its own path');
    mountPaths.add(m.mountPath);
    if (m.subPath !== undefined && m.subPathExpr !== undefined) c.add(`${here}.subPathExpr`, m.subPathExpr, 'may not be combined with subPath', 'keep one of them');
    // core validation's validateMountPropagation (Kubernetes 1.28 to 1.32): the three modes, Bidirectional for privileged containers only
    if (m.mountPropagation !== undefined && m.mountPropagation !== null) {
      if (!MOUNT_PROPAGATIONS.includes(m.mountPropagation)) {
        c.add(`${here}.mountPropagation`, m.mountPropagation, 'is not supported', `use one of ${MOUNT_PROPAGATIONS.join(', ')}`);
      } else if (m.mountPropagation === 'Bidirectional' && !(isObject(k.securityContext) && k.securityContext.privileged === true)) {
        c.add(`${here}.mountPropagation`, m.mountPropagation, 'is only allowed in a privileged container', 'use HostToContainer, or make the container privileged');
      }
    }
    for (const f of ['subPath', 'subPathExpr']) {
      const sp = m[f];
      if (typeof sp !== 'string' || sp === '') continue;
      if (sp.startsWith('/')) c.add(`${here}.${f}`, sp, 'must be a relative path', 'remove the leading \'/\'');
      if (sp.split('/').includes('..')) c.add(`${here}.${f}`, sp, 'must not contain \'..\'', 'use a path inside the volume');
    }
  });
  eachObject(k.volumeDevices, (d: Json, i: number) => {
    const here = `${at}.volumeDevices[${i}]`;
    const v = volumes.get(d.name);
    if (!v || (v.persistentVolumeClaim === undefined && v.ephemeral === undefined)) {
      c.add(`${here}.name`, d.name, 'names no persistentVolumeClaim volume of the pod', 'use a PVC-backed volume (or a volumeClaimTemplate)');
    }
    if (mounted.has(d.name)) c.add(`${here}.name`, d.name, 'is also mounted as a filesystem by this container', 'use the volume either as a mount or as a device');
    if (!d.devicePath) c.add(`${here}.devicePath`, d.devicePath, 'is required', 'give the device path');
  });
  if (isObject(k.resources)) checkResources(c, at, k.resources);
  // core validation's validateResizePolicy: cpu or memory, NotRequired or RestartContainer, each resource once
  const resized = new Set<unknown>();
  eachObject(k.resizePolicy, (p: Json, i: number) => {
    const here = `${at}.resizePolicy[${i}]`;
    if (resized.has(p.resourceName)) c.add(`${here}.resourceName`, p.resourceName, 'is listed twice', 'give one policy per resource');
    resized.add(p.resourceName);
    if (!['cpu', 'memory'].includes(p.resourceName)) c.add(`${here}.resourceName`, p.resourceName, 'is not supported', 'use cpu or memory');
    if (!['NotRequired', 'RestartContainer'].includes(p.restartPolicy)) c.add(`${here}.restartPolicy`, p.restartPolicy, 'is not supported', 'use NotRequired or RestartContainer');
  });
  // probes and lifecycle
  const probes: Array<['livenessProbe' | 'readinessProbe' | 'startupProbe', 'liveness' | 'readiness' | 'startup']> = [
    ['livenessProbe', 'liveness'], ['readinessProbe', 'readiness'], ['startupProbe', 'startup'],
  ];
  for (const [f, pk] of probes) {
    if (!isObject(k[f])) continue; // a non-object is reported by the shape check
    if (kind === 'init' && !isSidecar) {
      c.add(`${at}.${f}`, k[f], 'is not allowed on an init container', 'remove it, or make the init container a sidecar (restartPolicy Always)');
    } else {
      checkProbe(c, `${at}.${f}`, k[f], pk, portNames);
    }
  }
  if (isObject(k.lifecycle)) {
    if (kind === 'init' && !isSidecar) {
      c.add(`${at}.lifecycle`, k.lifecycle, 'is not allowed on an init container', 'remove it, or make the init container a sidecar (restartPolicy Always)');
    } else {
      for (const h of ['postStart', 'preStop']) if (isObject(k.lifecycle[h])) checkHandler(c, `${at}.lifecycle.${h}`, k.lifecycle[h], LIFECYCLE_HANDLERS, portNames);
    }
  }
  if (isObject(k.securityContext)) checkContainerSecurity(c, at, k.securityContext);
}

function checkVolumes(c: Collector, at: string, volumes: unknown): Map<string, Json> {
  const byName = new Map<string, Json>();
  eachObject(volumes, (v, i) => {
    const here = `${at}.volumes[${i}]`;
    if (!v.name) c.add(`${here}.name`, v.name, 'is required', 'name the volume');
    else for (const p of dns1123LabelProblems(v.name)) c.add(`${here}.name`, v.name, p, 'rename the volume');
    if (v.name && byName.has(v.name)) c.add(`${here}.name`, v.name, 'is used by another volume of the pod', 'give every volume its own name');
    byName.set(v.name, v);
    const sources = VOLUME_SOURCES.filter(s => v[s] !== undefined);
    if (sources.length > 1) c.add(here, sources, 'sets more than one volume source', 'keep exactly one');
    if (isObject(v.configMap) && !v.configMap.name) c.add(`${here}.configMap.name`, v.configMap.name, 'is required', 'name the ConfigMap');
    if (isObject(v.secret) && !v.secret.secretName) c.add(`${here}.secret.secretName`, v.secret.secretName, 'is required', 'name the Secret');
    if (isObject(v.persistentVolumeClaim) && !v.persistentVolumeClaim.claimName) {
      c.add(`${here}.persistentVolumeClaim.claimName`, v.persistentVolumeClaim.claimName, 'is required', 'name the claim');
    }
    if (isObject(v.hostPath) && !v.hostPath.path) c.add(`${here}.hostPath.path`, v.hostPath.path, 'is required', 'give the host path');
    // validateHostPathVolumeSource: no '..' step in the path (validatePathNoBacksteps), a type of the list (validateHostPathType)
    if (isObject(v.hostPath) && typeof v.hostPath.path === 'string' && v.hostPath.path !== '') {
      if (v.hostPath.path.split('/').includes('..')) c.add(`${here}.hostPath.path`, v.hostPath.path, 'must not contain \'..\'', 'give the path without a \'..\' step, e.g. /etc');
      const type = v.hostPath.type;
      if (type !== undefined && type !== null && !HOST_PATH_TYPES.includes(type)) {
        c.add(`${here}.hostPath.type`, type, 'is not a host path type', `use one of ${HOST_PATH_TYPES.filter(t => t !== '').join(', ')}, or leave it unset`);
      }
    }
    // validateNFSVolumeSource (validation.go:960 of Kubernetes v1.28.9; the same to v1.32.10): a server, and an absolute path
    if (isObject(v.nfs)) {
      if (typeof v.nfs.server !== 'string' || v.nfs.server === '') c.add(`${here}.nfs.server`, v.nfs.server, 'is required', 'give the NFS server\'s host name or IP address');
      if (typeof v.nfs.path !== 'string' || !v.nfs.path.startsWith('/')) {
        c.add(`${here}.nfs.path`, v.nfs.path, v.nfs.path ? 'must be an absolute path' : 'is required', 'give the exported path, starting with /');
      }
    }
    // core validation's ValidateCSIDriverName: required, at most 63 characters, a DNS subdomain
    if (isObject(v.csi)) {
      const driver = v.csi.driver;
      if (typeof driver !== 'string' || driver === '') {c.add(`${here}.csi.driver`, driver, 'is required', 'name the CSI driver, e.g. secrets-store.csi.k8s.io');} else {
        if (driver.length > 63) c.add(`${here}.csi.driver`, driver, `is ${driver.length} characters long, more than 63`, 'use the name the CSI driver registers');
        for (const p of dns1123SubdomainProblems(driver.toLowerCase())) c.add(`${here}.csi.driver`, driver, p, 'use the name the CSI driver registers');
      }
    }
    // validateKeyToPath / ValidateLocalNonReservedPath: an item's path is relative, without a '..' step, and not under '..'
    const itemPaths = [
      ...['configMap', 'secret', 'downwardAPI'].flatMap(k => arr(v[k]?.items).map((it: unknown, j: number) => ({ it, at: `${here}.${k}.items[${j}]` }))),
      ...arr(v.projected?.sources).flatMap((src: unknown, j: number) => (isObject(src) ? ['configMap', 'secret', 'downwardAPI'].flatMap(k => arr(src[k]?.items)
        .map((it: unknown, n: number) => ({ it, at: `${here}.projected.sources[${j}].${k}.items[${n}]` }))) : [])),
    ];
    for (const { it, at: iat } of itemPaths) {
      const path = isObject(it) ? it.path : undefined;
      if (typeof path !== 'string') continue;
      if (path.startsWith('/')) c.add(`${iat}.path`, path, 'must be a relative path', 'give a path inside the volume, e.g. config/app.yaml');
      else if (path.split('/').includes('..') || path.startsWith('..')) c.add(`${iat}.path`, path, 'must not contain \'..\'', 'give a path inside the volume, e.g. config/app.yaml');
    }
    // validateEphemeralVolumeSource: the claim template asks for storage with an access mode (ValidatePersistentVolumeClaimSpec)
    const tmpl = isObject(v.ephemeral) && isObject(v.ephemeral.volumeClaimTemplate) ? v.ephemeral.volumeClaimTemplate.spec : undefined;
    if (isObject(v.ephemeral)) {
      if (!isObject(tmpl)) {c.add(`${here}.ephemeral.volumeClaimTemplate`, v.ephemeral.volumeClaimTemplate, 'is required', 'give the claim template (accessModes and resources.requests.storage)');} else {
        if (arr(tmpl.accessModes).length === 0 && !tmpl.dataSource && !tmpl.dataSourceRef) c.add(`${here}.ephemeral.volumeClaimTemplate.spec.accessModes`, tmpl.accessModes, 'must list at least one access mode', 'e.g. [ReadWriteOnce]');
        if (tmpl.resources?.requests?.storage === undefined) c.add(`${here}.ephemeral.volumeClaimTemplate.spec.resources.requests.storage`, undefined, 'is required', 'ask for a size, e.g. 1Gi');
      }
    }
    // validateScaleIOVolumeSource: a volume name is required
    if (isObject(v.scaleIO) && !v.scaleIO.volumeName) c.add(`${here}.scaleIO.volumeName`, v.scaleIO.volumeName, 'is required', 'name the ScaleIO volume');
    // validateProjectionSources: a service account token lives at least 10 minutes (and at most 2^32 seconds)
    arr(v.projected?.sources).forEach((src: unknown, j: number) => {
      const e = isObject(src) && isObject(src.serviceAccountToken) ? src.serviceAccountToken.expirationSeconds : undefined;
      if (typeof e === 'number' && (e < 600 || e > 4294967296)) {
        c.add(`${here}.projected.sources[${j}].serviceAccountToken.expirationSeconds`, e, e < 600 ? 'is less than 10 minutes' : 'is more than 2^32 seconds', 'use 600 or more seconds');
      }
    });
    // validateDownwardAPIVolumeFile: the field paths a downward API volume supports
    const files = [...arr(v.downwardAPI?.items).map((f: unknown, j: number) => ({ f, at: `${here}.downwardAPI.items[${j}]` })),
      ...arr(v.projected?.sources).flatMap((src: unknown, j: number) => (isObject(src) && isObject(src.downwardAPI)
        ? arr(src.downwardAPI.items).map((f: unknown, k: number) => ({ f, at: `${here}.projected.sources[${j}].downwardAPI.items[${k}]` })) : []))];
    for (const { f, at: fat } of files) {
      if (!isObject(f) || !isObject(f.fieldRef)) continue;
      const path = String(f.fieldRef.fieldPath ?? '');
      if (!/^metadata\.(labels|annotations)\['[^']+'\]$/.test(path) && !DOWNWARD_VOLUME_PATHS.includes(path)) {
        c.add(`${fat}.fieldRef.fieldPath`, f.fieldRef.fieldPath, 'is not a field path a downward API volume supports', `use one of ${DOWNWARD_VOLUME_PATHS.join(', ')}, metadata.labels['<key>'] or metadata.annotations['<key>']`);
      }
    }
    if (v.emptyDir?.sizeLimit !== undefined) {
      const q = parseQuantity(v.emptyDir.sizeLimit);
      if (q === undefined || q < 0) c.add(`${here}.emptyDir.sizeLimit`, v.emptyDir.sizeLimit, 'is not a valid non-negative quantity', 'use a size such as 1Gi');
    }
    for (const s of ['secret', 'configMap', 'downwardAPI', 'projected']) {
      const mode = v[s]?.defaultMode;
      if (mode !== undefined && !isIntInRange(mode, 0, 0o777)) c.add(`${here}.${s}.defaultMode`, mode, 'is not a valid file mode', 'use a mode between 0 and 0777 (511)');
    }
  });
  return byName;
}

function checkTolerations(c: Collector, at: string, tolerations: unknown): void {
  eachObject(tolerations, (t, i) => {
    const here = `${at}.tolerations[${i}]`;
    if (t.key) for (const p of qualifiedNameProblems(t.key)) c.add(`${here}.key`, t.key, p, 'use a valid taint key');
    const op = t.operator ?? 'Equal';
    if (!TOLERATION_OPERATORS.includes(op)) c.add(`${here}.operator`, t.operator, 'is not supported', 'use Exists or Equal');
    if (!t.key && op !== 'Exists') c.add(`${here}.operator`, t.operator, 'must be Exists when key is empty', 'set operator Exists or give a key');
    if (op === 'Exists' && t.value) c.add(`${here}.value`, t.value, 'must be empty when operator is Exists', 'remove the value');
    if (op === 'Equal' && t.value) for (const p of labelValueProblems(t.value)) c.add(`${here}.value`, t.value, p, 'use a valid label value');
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) c.add(`${here}.effect`, t.effect, 'is not supported', `use one of ${TAINT_EFFECTS.join(', ')}`);
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      c.add(`${here}.tolerationSeconds`, t.tolerationSeconds, 'only applies to the NoExecute effect', 'set effect NoExecute or remove tolerationSeconds');
    }
  });
}

function checkSpreadConstraints(c: Collector, at: string, list: unknown): void {
  const seen = new Set<string>();
  eachObject(list, (t, i) => {
    const here = `${at}.topologySpreadConstraints[${i}]`;
    if (!(Number.isInteger(t.maxSkew) && t.maxSkew > 0)) c.add(`${here}.maxSkew`, t.maxSkew, 'must be greater than 0', 'use 1 or more');
    if (!t.topologyKey) c.add(`${here}.topologyKey`, t.topologyKey, 'is required', 'use a node label key such as topology.kubernetes.io/zone');
    else for (const p of qualifiedNameProblems(t.topologyKey)) c.add(`${here}.topologyKey`, t.topologyKey, p, 'use a valid node label key');
    if (!WHEN_UNSATISFIABLE.includes(t.whenUnsatisfiable)) c.add(`${here}.whenUnsatisfiable`, t.whenUnsatisfiable, 'is not supported', `use one of ${WHEN_UNSATISFIABLE.join(', ')}`);
    if (t.minDomains !== undefined) {
      if (!(Number.isInteger(t.minDomains) && t.minDomains > 0)) c.add(`${here}.minDomains`, t.minDomains, 'must be greater than 0', 'use 1 or more');
      else if (t.whenUnsatisfiable !== 'DoNotSchedule') c.add(`${here}.minDomains`, t.minDomains, 'only applies with whenUnsatisfiable DoNotSchedule', 'remove minDomains or use DoNotSchedule');
    }
    // validateNodeAffinityPolicy / validateNodeTaintsPolicy: Honor or Ignore
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (t[f] !== undefined && t[f] !== null && !['Honor', 'Ignore'].includes(t[f])) c.add(`${here}.${f}`, t[f], 'is not supported', 'use Honor or Ignore');
    }
    // validateMatchLabelKeys (Kubernetes v1.28.9; validateMatchLabelKeysInTopologySpread of v1.30.10 and v1.32.10): only beside
    // a labelSelector, label keys, none of them in the selector
    const labelKeys = arr(t.matchLabelKeys);
    if (labelKeys.length > 0) {
      const sel = isObject(t.labelSelector) ? t.labelSelector : undefined;
      if (!sel) c.add(`${here}.matchLabelKeys`, labelKeys, 'must not be set when labelSelector is not', 'give the constraint a labelSelector, or remove matchLabelKeys');
      const selectorLabels = isObject(sel?.matchLabels) ? sel!.matchLabels : {};
      const inSelector = new Set([...Object.keys(selectorLabels), ...objs(sel?.matchExpressions).map(e => e.key)]);
      labelKeys.forEach((k: unknown, j: number) => {
        for (const p of qualifiedNameProblems(String(k))) c.add(`${here}.matchLabelKeys[${j}]`, k, p, 'use a pod label key');
        if (inSelector.has(k)) c.add(`${here}.matchLabelKeys[${j}]`, k, 'is a key of the labelSelector too', 'keep the key in one of the two');
      });
    }
    const key = `${t.topologyKey}/${t.whenUnsatisfiable}`;
    if (seen.has(key)) c.add(here, { topologyKey: t.topologyKey, whenUnsatisfiable: t.whenUnsatisfiable }, 'repeats the topologyKey and whenUnsatisfiable of another constraint', 'merge the two constraints');
    seen.add(key);
  });
}

/** ValidateNodeSelectorRequirement (validation.go of Kubernetes v1.28.9 to v1.32.10; 1.32's label values are a release rule). */
function checkNodeRequirement(c: Collector, at: string, rq: Json): void {
  const values = arr(rq.values);
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length === 0) c.add(`${at}.values`, rq.values, `must list at least one value for operator ${rq.operator}`, 'add the node label values to match');
  } else if (rq.operator === 'Exists' || rq.operator === 'DoesNotExist') {
    if (values.length > 0) c.add(`${at}.values`, rq.values, `must be empty for operator ${rq.operator}`, 'remove the values');
  } else if (rq.operator === 'Gt' || rq.operator === 'Lt') {
    if (values.length !== 1) c.add(`${at}.values`, rq.values, `must list exactly one value for operator ${rq.operator}`, 'give one whole number');
  } else {
    c.add(`${at}.operator`, rq.operator, 'is not a node selector operator', `use one of ${NODE_SELECTOR_OPERATORS.join(', ')}`);
  }
  for (const p of qualifiedNameProblems(typeof rq.key === 'string' ? rq.key : '')) c.add(`${at}.key`, rq.key, p, 'use a node label key such as topology.kubernetes.io/zone');
}

/** ValidateNodeSelectorTerm: its expressions, and its field requirements (metadata.name In or NotIn one node name). */
function checkNodeTerm(c: Collector, at: string, term: Json): void {
  eachObject(term.matchExpressions, (rq, j) => checkNodeRequirement(c, `${at}.matchExpressions[${j}]`, rq));
  eachObject(term.matchFields, (rq, j) => {
    const here = `${at}.matchFields[${j}]`;
    if (rq.operator !== 'In' && rq.operator !== 'NotIn') c.add(`${here}.operator`, rq.operator, 'is not an operator of a node field selector', 'use In or NotIn');
    else if (arr(rq.values).length !== 1) c.add(`${here}.values`, rq.values, `must list exactly one value for operator ${rq.operator} of a node field selector`, 'give one node name');
    if (rq.key !== 'metadata.name') c.add(`${here}.key`, rq.key, 'is not a node field selector key', 'use metadata.name');
    else arr(rq.values).forEach((v: unknown, k: number) => { for (const p of dns1123SubdomainProblems(String(v))) c.add(`${here}.values[${k}]`, v, p, 'give a node name'); });
  });
}

/** A weight of a preferred term: 1 to 100. */
function checkWeight(c: Collector, at: string, w: unknown): void {
  if (!(typeof w === 'number' && w > 0 && w <= 100)) c.add(`${at}.weight`, w, 'is not in the range 1-100', 'use a weight from 1 to 100');
}

/**
 * validatePodAffinityTerm: its selectors' keys and operators (the webhooks
 * allow any label value there: AllowInvalidLabelValueInSelector of
 * pkg/webhook/util/pod_validation.go), namespace names and a topology key.
 */
function checkPodAffinityTerm(c: Collector, at: string, t: Json): void {
  for (const f of ['labelSelector', 'namespaceSelector']) {
    if (!isObject(t[f])) continue;
    for (const p of selectorProblems(t[f] as any)) {
      if (p.field.includes('.values[') || p.problem.startsWith('value ')) continue;
      c.add(`${at}.${f}.${p.field}`, p.value, p.problem, 'use a label key and one of the operators In, NotIn, Exists, DoesNotExist');
    }
  }
  arr(t.namespaces).forEach((n: unknown, i: number) => {
    for (const p of dns1123LabelProblems(String(n))) c.add(`${at}.namespaces[${i}]`, n, p, 'give a namespace name');
  });
  if (typeof t.topologyKey !== 'string' || t.topologyKey === '') c.add(`${at}.topologyKey`, t.topologyKey, 'is required', 'use a node label key such as kubernetes.io/hostname');
  else for (const p of qualifiedNameProblems(t.topologyKey)) c.add(`${at}.topologyKey`, t.topologyKey, p, 'use a node label key');
}

/** validateAffinity (validation.go of Kubernetes v1.28.9 to v1.32.10): node affinity and pod (anti-)affinity. */
function checkAffinity(c: Collector, sp: string, a: unknown): void {
  if (!isObject(a)) return;
  const at = `${sp}.affinity`;
  const na = a.nodeAffinity;
  if (isObject(na)) {
    const req = na.requiredDuringSchedulingIgnoredDuringExecution;
    const rat = `${at}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`;
    if (isObject(req)) {
      if (arr(req.nodeSelectorTerms).length === 0) {
        c.add(`${rat}.nodeSelectorTerms`, req.nodeSelectorTerms ?? [], 'must list at least one node selector term', 'add a term, or remove requiredDuringSchedulingIgnoredDuringExecution');
      }
      eachObject(req.nodeSelectorTerms, (t, i) => checkNodeTerm(c, `${rat}.nodeSelectorTerms[${i}]`, t));
    }
    eachObject(na.preferredDuringSchedulingIgnoredDuringExecution, (p, i) => {
      const here = `${at}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      checkWeight(c, here, p.weight);
      if (isObject(p.preference)) checkNodeTerm(c, `${here}.preference`, p.preference);
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const pa = a[kind];
    if (!isObject(pa)) continue;
    eachObject(pa.requiredDuringSchedulingIgnoredDuringExecution, (t, i) => checkPodAffinityTerm(c, `${at}.${kind}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`, t));
    eachObject(pa.preferredDuringSchedulingIgnoredDuringExecution, (w, i) => {
      const here = `${at}.${kind}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      checkWeight(c, here, w.weight);
      if (isObject(w.podAffinityTerm)) checkPodAffinityTerm(c, `${here}.podAffinityTerm`, w.podAffinityTerm);
    });
  }
}

/**
 * validateResourceClaimNames (validation.go:6403 of Kubernetes v1.28.9; the
 * same to v1.32.10): a container's or init container's claim names an entry
 * of the pod's resourceClaims, once.
 */
function checkContainerClaims(c: Collector, sp: string, s: Json): void {
  const podClaims = new Set(objs(s.resourceClaims).map(e => e.name).filter(n => typeof n === 'string' && n !== ''));
  for (const f of ['initContainers', 'containers']) {
    eachObject(s[f], (k, i) => {
      const claims = isObject(k.resources) ? k.resources.claims : undefined;
      const seen = new Set<string>();
      eachObject(claims, (cl, j) => {
        const here = `${sp}.${f}[${i}].resources.claims[${j}]`;
        if (typeof cl.name !== 'string' || cl.name === '') {
          c.add(`${here}.name`, cl.name, 'is required', 'name an entry of spec.resourceClaims');
          return;
        }
        if (seen.has(cl.name)) c.add(`${here}.name`, cl.name, 'is listed twice', 'list each claim once');
        seen.add(cl.name);
        if (!podClaims.has(cl.name)) {
          c.add(`${here}.name`, cl.name, `is not the name of an entry of the pod's resourceClaims (${podClaims.size === 0 ? 'it has none' : [...podClaims].join(', ')})`,
            'add the claim to spec.resourceClaims, or remove it here');
        }
      });
    });
  }
}

/** validateSeccompProfileField: a Localhost profile names its file (validation.go of Kubernetes v1.28.9 to v1.32.10). */
function checkSeccomp(c: Collector, at: string, sc: Json): void {
  const p = sc.seccompProfile;
  if (isObject(p) && p.type === 'Localhost' && (typeof p.localhostProfile !== 'string' || p.localhostProfile === '')) {
    c.add(`${at}.securityContext.seccompProfile.localhostProfile`, p.localhostProfile, 'is required when the seccomp type is Localhost', 'name the profile file, e.g. profiles/audit.json');
  }
}

function checkPodSecurity(c: Collector, at: string, sc: Json | undefined): void {
  if (!sc) return;
  checkSeccomp(c, at, sc);
  for (const f of ['runAsUser', 'runAsGroup', 'fsGroup']) {
    if (sc[f] !== undefined && !isIntInRange(sc[f], 0, MAX_INT32)) c.add(`${at}.securityContext.${f}`, sc[f], 'must be between 0 and 2147483647', 'use a valid id');
  }
  // validateFSGroupChangePolicy (validation.go:3479 of Kubernetes v1.28.9; the same to v1.32.10)
  const fcp = sc.fsGroupChangePolicy;
  if (fcp !== undefined && fcp !== null && fcp !== 'Always' && fcp !== 'OnRootMismatch') {
    c.add(`${at}.securityContext.fsGroupChangePolicy`, fcp, 'is not an fsGroup change policy', 'use Always or OnRootMismatch');
  }
  arr(sc.supplementalGroups).forEach((g: unknown, i: number) => {
    if (!isIntInRange(g, 0, MAX_INT32)) c.add(`${at}.securityContext.supplementalGroups[${i}]`, g, 'must be between 0 and 2147483647', 'use a valid group id');
  });
  const sysctls = new Set<string>();
  eachObject(sc.sysctls, (s: Json, i: number) => {
    // validateSysctls (validation.go:4544 of Kubernetes v1.28.9; the same to v1.32.10): a name listed twice
    if (typeof s.name === 'string' && s.name !== '' && sysctls.has(s.name)) {
      c.add(`${at}.securityContext.sysctls[${i}].name`, s.name, 'is listed twice', 'set each sysctl once');
    }
    if (typeof s.name === 'string') sysctls.add(s.name);
    if (s.value !== undefined && s.value !== null && typeof s.value !== 'string') {
      c.add(`${at}.securityContext.sysctls[${i}].value`, s.value, 'is not a string, so the webhook cannot decode the pod', 'quote it in the YAML, so it stays the text written there');
    }
    if (!s.name || !/^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/.test(s.name)) {
      c.add(`${at}.securityContext.sysctls[${i}].name`, s.name, 'is not a valid sysctl name', 'use a name such as net.core.somaxconn');
    }
  });
}

/** A pod field's value as the webhook decodes it: set unless absent or null (an empty list, false and 0 are set). */
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * The fields of one operating system in a pod of the other (validateWindows
 * and validateLinux, validation.go:4033 and :4050 of Kubernetes v1.28.9; the
 * same fields to v1.32.10, whose newer fields the releases' rules judge).
 */
function checkOsFields(c: Collector, sp: string, s: Json, os: 'windows' | 'linux'): void {
  const containers: Array<{ c: Json; at: string }> = [];
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    arr(s[list]).forEach((x: unknown, i: number) => { if (isObject(x)) containers.push({ c: x, at: `${sp}.${list}[${i}]` }); });
  }
  const sc: Json = isObject(s.securityContext) ? s.securityContext : {};
  if (os === 'linux') {
    const fix = 'remove windowsOptions, or set os.name to windows';
    if (isSet(sc.windowsOptions)) c.add(`${sp}.securityContext.windowsOptions`, sc.windowsOptions, 'cannot be set for a linux pod', fix);
    for (const x of containers) {
      if (isObject(x.c.securityContext) && isSet(x.c.securityContext.windowsOptions)) {
        c.add(`${x.at}.securityContext.windowsOptions`, x.c.securityContext.windowsOptions, 'cannot be set for a linux pod', fix);
      }
    }
    return;
  }
  const forbid = (field: string, value: unknown) => c.add(field, value, 'cannot be set for a windows pod', 'remove it, or set os.name to linux');
  for (const f of ['seLinuxOptions', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'runAsUser', 'runAsGroup', 'supplementalGroups']) {
    if (isSet(sc[f])) forbid(`${sp}.securityContext.${f}`, sc[f]);
  }
  if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) forbid(`${sp}.securityContext.sysctls`, sc.sysctls);
  if (isSet(s.hostUsers)) forbid(`${sp}.hostUsers`, s.hostUsers);
  if (isSet(s.shareProcessNamespace)) forbid(`${sp}.shareProcessNamespace`, s.shareProcessNamespace);
  for (const f of ['hostPID', 'hostIPC']) if (s[f] === true) forbid(`${sp}.${f}`, true);
  for (const x of containers) {
    const csc = x.c.securityContext;
    if (!isObject(csc)) continue;
    for (const f of ['seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup']) {
      if (isSet(csc[f])) forbid(`${x.at}.securityContext.${f}`, csc[f]);
    }
  }
}

/** The field paths of a downward API volume file (validVolumeDownwardAPIFieldPathExpressions, validation.go:1040 of Kubernetes v1.28.9; the same to v1.32.10). */
const DOWNWARD_VOLUME_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.labels', 'metadata.annotations', 'metadata.uid'];

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIp = (s: string): boolean => IPV4.test(s) || (s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s));

/**
 * POD-TEMPLATE-VALID: the upstream checks of a pod template (metadata and
 * spec) that need no cluster state, on a template that already carries the
 * TEMPLATE-DEFAULTS (see `defaultPodTemplate`).
 */
export function podTemplateProblems(template: Json | undefined, options: PodTemplateCheckOptions): TemplateProblem[] {
  const c = new Collector();
  const at = options.path;
  const meta = template?.metadata ?? {};
  metadataStringProblems(c, at, meta, 'the pod template does not decode (YAML reads an unquoted on, off, yes, no, true or a number as one)');
  for (const p of labelsProblems(meta.labels)) {
    c.add(`${at}.metadata.labels[${JSON.stringify(p.key)}]`, p.key, p.problem, 'use a qualified key and a valid label value');
  }
  let size = 0;
  for (const [k, v] of Object.entries<string>(meta.annotations ?? {})) {
    size += k.length + String(v).length;
    for (const p of qualifiedNameProblems(k)) c.add(`${at}.metadata.annotations[${JSON.stringify(k)}]`, k, `key ${p}`, 'use a qualified annotation key');
  }
  if (size > MAX_ANNOTATIONS_BYTES) c.add(`${at}.metadata.annotations`, `${size} bytes`, 'are larger than 262144 bytes in total', 'move large data into a ConfigMap');

  const s: Json = template?.spec ?? {};
  const sp = `${at}.spec`;
  if (!isObject(s)) {
    c.add(sp, s, 'is not an object, so the API server cannot decode the pod', 'give the pod spec as an object');
    return c.out;
  }
  shapeProblems(c, sp, s);
  const volumes = checkVolumes(c, sp, s.volumes);
  for (const name of arr(options.claimVolumes)) {
    if (!volumes.has(name)) volumes.set(name, { name, persistentVolumeClaim: { claimName: name } });
  }

  const containers: Json[] = objs(s.containers);
  if (containers.length === 0) c.add(`${sp}.containers`, s.containers ?? [], 'must list at least one container', 'add a container');
  const names = new Map<string, string>();
  const hostPorts: HostPortKey[] = [];
  const eachContainer = (list: unknown, f: 'containers' | 'initContainers', kind: 'regular' | 'init') => eachObject(list, (k, i) => {
    const here = `${sp}.${f}[${i}]`;
    if (!k.name) {c.add(`${here}.name`, k.name, 'is required', 'name the container');} else if (typeof k.name !== 'string') {
      c.add(`${here}.name`, k.name, 'is not a string, so the API server cannot decode the pod', 'name the container with a DNS-1123 label, e.g. "web"');
    } else {
      for (const p of dns1123LabelProblems(k.name)) c.add(`${here}.name`, k.name, p, 'rename the container');
      const other = names.get(k.name);
      if (other) c.add(`${here}.name`, k.name, `is also the name of ${other}`, 'give every container (init containers included) its own name');
      names.set(k.name, here);
    }
    checkContainer(c, here, k, kind, volumes, s.hostNetwork === true, hostPorts);
  });
  eachContainer(s.initContainers, 'initContainers', 'init');
  eachContainer(s.containers, 'containers', 'regular');
  if (arr(s.ephemeralContainers).length > 0) {
    c.add(`${sp}.ephemeralContainers`, arr(s.ephemeralContainers).map((e: unknown) => (isObject(e) ? e.name : e)), 'are not allowed in a pod template', 'remove them; add ephemeral containers to running pods instead');
  }

  if (s.restartPolicy !== undefined && !RESTART_POLICIES.includes(s.restartPolicy)) {
    c.add(`${sp}.restartPolicy`, s.restartPolicy, 'is not supported', `use one of ${RESTART_POLICIES.join(', ')}`);
  }
  if (s.dnsPolicy !== undefined && !DNS_POLICIES.includes(s.dnsPolicy)) {
    c.add(`${sp}.dnsPolicy`, s.dnsPolicy, 'is not supported', `use one of ${DNS_POLICIES.join(', ')}`);
  }
  if (s.dnsPolicy === 'None' && !s.dnsConfig) c.add(`${sp}.dnsConfig`, s.dnsConfig, 'is required when dnsPolicy is None', 'give nameservers in dnsConfig or use another dnsPolicy');
  if (arr(s.dnsConfig?.nameservers).length > 3) c.add(`${sp}.dnsConfig.nameservers`, s.dnsConfig.nameservers, 'lists more than 3 nameservers', 'keep at most 3');
  // validatePodDNSConfig: each nameserver is an IP address
  arr(s.dnsConfig?.nameservers).forEach((n: unknown, i: number) => {
    if (typeof n !== 'string' || !isIp(n)) c.add(`${sp}.dnsConfig.nameservers[${i}]`, n, 'is not an IP address', 'give the nameserver\'s IP address, e.g. 192.0.2.53');
  });
  if (s.dnsPolicy === 'None' && s.dnsConfig && arr(s.dnsConfig.nameservers).length === 0) {
    c.add(`${sp}.dnsConfig.nameservers`, s.dnsConfig.nameservers, 'must list at least one nameserver when dnsPolicy is None', 'add a nameserver');
  }
  if (arr(s.dnsConfig?.searches).length > 32) c.add(`${sp}.dnsConfig.searches`, s.dnsConfig.searches.length, 'lists more than 32 search domains', 'keep at most 32');
  if (s.activeDeadlineSeconds !== undefined && !(Number.isInteger(s.activeDeadlineSeconds) && s.activeDeadlineSeconds >= 1)) {
    c.add(`${sp}.activeDeadlineSeconds`, s.activeDeadlineSeconds, 'must be at least 1', 'use a positive number of seconds');
  }
  // a negative terminationGracePeriodSeconds is admitted: core validation does not check it, and a pod's is treated as 1
  // (the API server's warning, pkg/api/pod/warnings.go:324 of Kubernetes v1.32.10)
  if (s.terminationGracePeriodSeconds !== undefined && typeof s.terminationGracePeriodSeconds !== 'number') {
    c.add(`${sp}.terminationGracePeriodSeconds`, s.terminationGracePeriodSeconds, 'is not a number of seconds', 'use 0 or more seconds');
  }
  for (const [f, check] of [
    ['serviceAccountName', dns1123SubdomainProblems], ['priorityClassName', dns1123SubdomainProblems],
    ['hostname', dns1123LabelProblems], ['subdomain', dns1123LabelProblems], ['nodeName', dns1123SubdomainProblems],
  ] as Array<[string, (v: string) => string[]]>) {
    if (s[f]) for (const p of check(s[f])) c.add(`${sp}.${f}`, s[f], p, `use a valid ${f}`);
  }
  // imagePullSecrets: core validation checks nothing but that only a name is set, which JSON cannot break (Kubernetes 1.28 to 1.32)
  if (isObject(s.nodeSelector)) for (const p of labelsProblems(s.nodeSelector)) c.add(`${sp}.nodeSelector[${JSON.stringify(p.key)}]`, p.key, p.problem, 'use a qualified key and a valid label value');
  checkTolerations(c, sp, s.tolerations);
  checkAffinity(c, sp, s.affinity);
  checkSpreadConstraints(c, sp, s.topologySpreadConstraints);
  checkContainerClaims(c, sp, s);
  // scheduling gates: qualified names, each once (core validation's validateSchedulingGates, Kubernetes 1.28 to 1.32)
  const gates = new Set<string>();
  eachObject(s.schedulingGates, (g: Json, i: number) => {
    const here = `${sp}.schedulingGates[${i}].name`;
    for (const p of qualifiedNameProblems(typeof g.name === 'string' ? g.name : '')) c.add(here, g.name, p, 'use a qualified gate name such as example.com/quota');
    if (gates.has(g.name)) c.add(here, g.name, 'is listed twice', 'list each scheduling gate once');
    gates.add(g.name);
  });
  eachObject(s.readinessGates, (g: Json, i: number) => {
    for (const p of qualifiedNameProblems(g.conditionType ?? '')) c.add(`${sp}.readinessGates[${i}].conditionType`, g.conditionType, p, 'use a qualified condition type');
  });
  eachObject(s.hostAliases, (h: Json, i: number) => {
    if (!h.ip || !isIp(h.ip)) c.add(`${sp}.hostAliases[${i}].ip`, h.ip, 'is not a valid IP address', 'use an IPv4 or IPv6 address');
    arr(h.hostnames).forEach((n: string, j: number) => {
      for (const p of dns1123SubdomainProblems(n)) c.add(`${sp}.hostAliases[${i}].hostnames[${j}]`, n, p, 'use a valid host name');
    });
  });
  if (isObject(s.securityContext)) checkPodSecurity(c, sp, s.securityContext);
  // ValidateRuntimeClassName (a DNS subdomain) and validateOS (linux or windows), validation.go of Kubernetes v1.28.9 to v1.32.10
  // ValidatePreemptionPolicy (validation.go:3453 of Kubernetes v1.28.9; the same to v1.32.10)
  if (isSet(s.preemptionPolicy) && s.preemptionPolicy !== 'PreemptLowerPriority' && s.preemptionPolicy !== 'Never') {
    c.add(`${sp}.preemptionPolicy`, s.preemptionPolicy, s.preemptionPolicy === '' ? 'is required when given' : 'is not a preemption policy', 'use PreemptLowerPriority or Never, or leave it unset');
  }
  if (typeof s.runtimeClassName === 'string') for (const p of dns1123SubdomainProblems(s.runtimeClassName)) c.add(`${sp}.runtimeClassName`, s.runtimeClassName, p, 'name a RuntimeClass');
  if (isObject(s.os)) {
    if (!s.os.name) c.add(`${sp}.os.name`, s.os.name, 'is required', 'use linux or windows');
    else if (s.os.name !== 'linux' && s.os.name !== 'windows') c.add(`${sp}.os.name`, s.os.name, 'is not an operating system of a pod', 'use linux or windows');
  }
  if (isObject(s.os) && (s.os.name === 'windows' || s.os.name === 'linux')) checkOsFields(c, sp, s, s.os.name);
  // a resource claim entry names its claim, in the entry (Kubernetes 1.32) or in its source (1.28, 1.30): one with neither
  // is refused by every release (validatePodResourceClaim; the releases' rules judge where the name is read)
  eachObject(s.resourceClaims, (e: Json, i: number) => {
    const src: Json = isObject(e.source) ? e.source : {};
    if (!e.resourceClaimName && !e.resourceClaimTemplateName && !src.resourceClaimName && !src.resourceClaimTemplateName) {
      c.add(`${sp}.resourceClaims[${i}]`, e, 'names no claim', 'set resourceClaimName or resourceClaimTemplateName');
    }
  });
  // a pod in a user namespace of its own shares none of the host's namespaces (core validation's validateHostUsers,
  // pkg/apis/core/validation/validation.go:3363 of Kubernetes v1.28.9, :3584 of v1.30.10, :3606 of v1.32.10)
  if (s.hostUsers === false) {
    for (const f of ['hostNetwork', 'hostPID', 'hostIPC']) {
      if (s[f] === true) c.add(`${sp}.${f}`, true, 'is not allowed with hostUsers: false: a pod in a user namespace of its own cannot share the host\'s namespaces', `remove ${f}, or hostUsers: false`);
    }
  }
  return c.out;
}

/**
 * The upstream toleration rules on a list found at `${at}.tolerations` (as in
 * a pod spec; also used for the per-subset tolerations of UnitedDeployment).
 */
export function tolerationsProblems(tolerations: Json[] | undefined, at: string): TemplateProblem[] {
  const c = new Collector();
  checkTolerations(c, at, tolerations);
  return c.out;
}

/** The upstream rules of a container's env list, found at `${at}.env` (strict variable names). */
export function envProblems(env: Json[] | undefined, at: string): TemplateProblem[] {
  const c = new Collector();
  const shape = listShapeProblem(env);
  if (shape) c.add(`${at}.env`, env, shape.problem, shape.fix);
  checkEnv(c, at, arr(env));
  return c.out;
}

/** The upstream rules of a container's securityContext, found at `${at}.securityContext`. */
export function containerSecurityProblems(securityContext: Json | undefined, at: string): TemplateProblem[] {
  const c = new Collector();
  checkContainerSecurity(c, at, securityContext);
  return c.out;
}
