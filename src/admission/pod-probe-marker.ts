/**
 * PodProbeMarker admission (apps.kruise.io/v1alpha1; no mutating webhook
 * upstream, so nothing is defaulted: a probe's zero values and an empty
 * httpGet scheme stay as written).
 *
 * Rules: the selector valid and not empty; at least one probe; per probe a
 * name (no '#', not a condition type Kubernetes or OpenKruise owns, unique),
 * a containerName, exactly one of exec, httpGet, tcpSocket (a grpc probe
 * counts as none), a non-empty exec command, an httpGet path that parses as a
 * URL, no host, scheme HTTP or HTTPS, valid header names, ports 1-65535 or
 * valid port names, the probe's numbers >= 0, a podConditionType (unique, a
 * qualified name) or a markerPolicy; per marker policy a unique state
 * Succeeded or Failed and at least one valid label or annotation.
 *
 * Upstream stops at the first bad probe; every problem is reported here.
 * The URL check covers what a probe path can get wrong (control characters,
 * a bad %-escape, a leading ':'), not every corner of Go's URL parser.
 *
 * Skipped: the refusal when the PodProbeMarkerGate or KruiseDaemon gate is
 * off (declared by the constructs); selector immutability [update-only]. No
 * metadata rules upstream.
 */
import { AdmissionModule, Manifest, ReleaseRule } from './types';
import { advice } from '../validation/advice';
import { fieldError } from '../validation/field-error';
import { labelsProblems, portNameProblems, qualifiedNameProblems } from '../validation/names';
import { TemplateProblem } from '../validation/pod-template';
import { LabelSelectorJson, isEmptySelector, selectorProblems } from '../validation/selectors';

type Json = Record<string, any>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** Pod condition types a probe may not be named after. */
export const RESERVED_PROBE_NAMES = ['PodScheduled', 'Initialized', 'Ready', 'ContainersReady', 'KruisePodReady', 'InPlaceUpdateReady'];
const HANDLERS = ['exec', 'httpGet', 'tcpSocket'];
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Why Go's URL parser refuses a probe path (undefined when it parses). */
function urlProblem(path: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(path)) return 'contains a control character';
  const beforeQuery = path.split('?')[0].split('#')[0];
  const fragment = path.includes('#') ? path.slice(path.indexOf('#') + 1) : '';
  for (const part of [beforeQuery, fragment]) {
    if (/%(?![0-9A-Fa-f]{2})/.test(part)) return 'has a \'%\' that does not start a %XX escape';
  }
  if (path.startsWith(':')) return 'starts with \':\' (read as a URL scheme with no name)';
  return undefined;
}

function portProblem(port: unknown): string | undefined {
  if (typeof port === 'number') return Number.isInteger(port) && port >= 1 && port <= 65535 ? undefined : 'is not a port number between 1 and 65535';
  if (typeof port === 'string') {
    const p = portNameProblems(port);
    return p.length === 0 ? undefined : `is not a valid port name (${p.join('; ')})`;
  }
  return 'is required';
}

function probeProblems(probe: Json, at: string, add: (f: string, v: unknown, p: string, x: string) => void): void {
  const handlers = HANDLERS.filter(h => present(probe[h]));
  if (handlers.length === 0) add(at, Object.keys(probe).filter(k => isObject(probe[k])), 'has no handler', 'set exactly one of exec, httpGet or tcpSocket (grpc is not supported here)');
  else if (handlers.length > 1) add(at, handlers, 'sets more than one handler', `keep exactly one of ${handlers.join(', ')}`);
  if (isObject(probe.exec) && !(Array.isArray(probe.exec.command) && probe.exec.command.length > 0)) {
    add(`${at}.exec.command`, probe.exec.command, 'is empty', 'give the command to run in the container');
  }
  if (isObject(probe.httpGet)) {
    const h = probe.httpGet;
    if (typeof h.path !== 'string' || h.path === '') {add(`${at}.httpGet.path`, h.path, 'is required (nothing defaults it here)', 'give the path to request, e.g. /healthz');} else {
      const u = urlProblem(h.path);
      if (u) add(`${at}.httpGet.path`, h.path, `is not a valid URL: it ${u}`, 'use a path such as /healthz?full=1');
    }
    if (present(h.host) && h.host !== '') add(`${at}.httpGet.host`, h.host, 'is not supported: the probe always targets the pod', 'remove host');
    if (h.scheme !== 'HTTP' && h.scheme !== 'HTTPS') add(`${at}.httpGet.scheme`, h.scheme, 'must be HTTP or HTTPS (nothing defaults it here)', 'set scheme HTTP or HTTPS');
    (Array.isArray(h.httpHeaders) ? h.httpHeaders : []).forEach((hd: Json, j: number) => {
      const name = isObject(hd) ? hd.name : undefined;
      if (typeof name !== 'string' || !HTTP_TOKEN.test(name)) add(`${at}.httpGet.httpHeaders[${j}].name`, name, 'is not a valid HTTP header name', 'use letters, digits and !#$%&\'*+-.^_`|~, e.g. X-Probe');
    });
    const pp = portProblem(h.port);
    if (pp) add(`${at}.httpGet.port`, h.port, pp, 'use a port number or a named container port such as http');
  }
  if (isObject(probe.tcpSocket)) {
    const t = probe.tcpSocket;
    const pp = portProblem(t.port);
    if (pp) add(`${at}.tcpSocket.port`, t.port, pp, 'use a port number or a named container port such as http');
  }
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    if (typeof probe[f] === 'number' && probe[f] < 0) add(`${at}.${f}`, probe[f], 'is negative', 'use 0 or more');
  }
}

/** The PodProbeMarker rules, as problems. */
export function podProbeMarkerProblems(manifest: Manifest): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const s: Json = isObject(manifest.spec) ? manifest.spec : {};
  const sel: LabelSelectorJson | undefined = isObject(s.selector) ? s.selector : undefined;
  if (!sel) {
    add('spec.selector', s.selector, 'is required', 'select the pods to probe by their labels');
  } else {
    for (const p of selectorProblems(sel)) add(`spec.selector.${p.field}`, p.value, p.problem, 'fix the selector');
    if (isEmptySelector(sel)) add('spec.selector', sel, 'is empty and would select every pod of the namespace', 'add matchLabels or matchExpressions');
  }
  const probes: unknown[] = Array.isArray(s.probes) ? s.probes : [];
  if (probes.length === 0) add('spec.probes', s.probes, 'is empty, so the PodProbeMarker probes nothing', advice('add at least one probe', "pass 'probes' or call addProbe()"));
  const names = new Map<string, number>();
  const conditions = new Map<string, number>();
  probes.forEach((raw, i) => {
    const p: Json = isObject(raw) ? raw : {};
    const at = `spec.probes[${i}]`;
    const name = typeof p.name === 'string' ? p.name : '';
    if (name === '') add(`${at}.name`, p.name, 'is required', 'name the probe');
    else if (name.includes('#')) add(`${at}.name`, name, 'contains \'#\'', 'name the probe without \'#\'');
    if (RESERVED_PROBE_NAMES.includes(name)) add(`${at}.name`, name, 'is a pod condition type that Kubernetes or OpenKruise owns', 'choose another probe name');
    const first = names.get(name);
    if (name !== '' && first !== undefined) add(`${at}.name`, name, `is also the name of probes[${first}]`, 'give every probe its own name');
    else names.set(name, i);
    if (typeof p.containerName !== 'string' || p.containerName === '') add(`${at}.containerName`, p.containerName, 'is required', 'name the container to probe');
    probeProblems(isObject(p.probe) ? p.probe : {}, `${at}.probe`, add);
    const policies: unknown[] = Array.isArray(p.markerPolicy) ? p.markerPolicy : [];
    const condition = typeof p.podConditionType === 'string' ? p.podConditionType : '';
    if (condition === '' && policies.length === 0) {
      add(at, name, 'has neither a podConditionType nor a markerPolicy, so its result is not recorded', 'set podConditionType, markerPolicy or both');
    }
    if (condition !== '') {
      const other = conditions.get(condition);
      if (other !== undefined) add(`${at}.podConditionType`, condition, `is also the podConditionType of probes[${other}]`, 'give every probe its own condition type');
      else conditions.set(condition, i);
      for (const q of qualifiedNameProblems(condition)) add(`${at}.podConditionType`, condition, q, 'use a qualified name such as example.com/cache-warm');
    }
    const states = new Map<string, number>();
    policies.forEach((rawPolicy, j) => {
      const mp: Json = isObject(rawPolicy) ? rawPolicy : {};
      const here = `${at}.markerPolicy[${j}]`;
      const state = typeof mp.state === 'string' ? mp.state : '';
      if (state !== 'Succeeded' && state !== 'Failed') add(`${here}.state`, mp.state, 'is not a probe result', 'use Succeeded or Failed');
      const seen = states.get(state);
      if (seen !== undefined) add(`${here}.state`, state, `is also the state of markerPolicy[${seen}]`, 'merge the two policies');
      else states.set(state, j);
      const labels: Json = isObject(mp.labels) ? mp.labels : {};
      const annotations: Json = isObject(mp.annotations) ? mp.annotations : {};
      if (Object.keys(labels).length === 0 && Object.keys(annotations).length === 0) {
        add(here, state, 'marks nothing: it has neither labels nor annotations', 'add the labels or annotations to set on the pod');
      }
      for (const q of labelsProblems(labels)) add(`${here}.labels[${JSON.stringify(q.key)}]`, q.key, q.problem, 'use a qualified key and a valid label value');
      for (const k of Object.keys(annotations)) {
        for (const q of qualifiedNameProblems(k)) add(`${here}.annotations[${JSON.stringify(k)}]`, k, `key ${q}`, 'use a qualified annotation key');
      }
    });
  });
  return out;
}

/** Each probe of a PodProbeMarker with its path. */
function probesOf(m: Manifest): Array<{ at: string; probe: Json }> {
  const probes: unknown[] = Array.isArray(m.spec?.probes) ? m.spec.probes : [];
  return probes.map((p, i) => ({ at: `spec.probes[${i}].probe`, probe: isObject(p) && isObject((p as Json).probe) ? (p as Json).probe : {} }));
}

/**
 * The PodProbeMarker webhook's changes by release: 1.9 probes over HTTP
 * (before, an httpGet handler was refused); v1.8.3 refuses a tcpSocket host
 * (v1.8.0 to v1.8.2 and the 1.7 line take it; the probe targets the pod all the same).
 */
const RELEASE_RULES: ReleaseRule[] = [
  {
    release: '1.9',
    change: 'accepts',
    what: 'an httpGet probe handler',
    find: m => probesOf(m).filter(p => present(p.probe.httpGet)).map(p => ({
      field: `${p.at}.httpGet`, value: p.probe.httpGet, problem: 'is a handler the probe does not support', fix: 'probe with exec or tcpSocket',
    })),
  },
  {
    release: '1.8.3',
    change: 'refuses',
    what: 'a host in a tcpSocket probe',
    find: m => probesOf(m).filter(p => isObject(p.probe.tcpSocket) && present(p.probe.tcpSocket.host) && p.probe.tcpSocket.host !== '').map(p => ({
      field: `${p.at}.tcpSocket.host`, value: p.probe.tcpSocket.host, problem: 'is not supported: the probe always targets the pod', fix: 'remove host',
    })),
  },
];

/** The PodProbeMarker webhook. */
export const podProbeMarkerAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'PodProbeMarker',
  versions: ['v1alpha1'],
  validate: m => podProbeMarkerProblems(m).map(p => fieldError(p.field, p.value, p.problem, p.fix)),
  releaseRules: RELEASE_RULES,
};
