/**
 * The values of an installed openkruise/charts `kruise` chart (lines 1.7 to
 * 1.9; the values of charts 1.9.0 and 1.9.1 are 1.9.0-alpha.3's plus
 * `webhookConfiguration.aksIntegration`), as `helm get values RELEASE -o
 * yaml` prints them, mapped onto `KruiseControlPlane` props: every value of
 * the chart's values.yaml is carried over to a prop, or refused with the
 * reason.
 */
import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { _keepReleaseFix, _runningRelease } from './_running-release';
import type { KruiseControlPlaneProps } from './control-plane';
import { HelmValueMapping, KruiseDaemonOptions, KruiseManagerOptions, LogFormat } from './options';

type Json = any;

/** The props the values map onto, and what became of each value. */
export interface HelmValuesResult {
  readonly props: KruiseControlPlaneProps;
  readonly values: HelmValueMapping[];
}

class Refused extends Error {}

const isMap = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(v: Json, what: string): string {
  if (typeof v !== 'string' && typeof v !== 'number') throw new Refused(`${what} is ${JSON.stringify(v)}, not a string`);
  return String(v);
}

function int(v: Json, what: string): number {
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (!Number.isInteger(n)) throw new Refused(`${what} is ${JSON.stringify(v)}, not a whole number`);
  return n;
}

function bool(v: Json, what: string): boolean {
  if (typeof v !== 'boolean') throw new Refused(`${what} is ${JSON.stringify(v)}, not true or false`);
  return v;
}

function stringMap(v: Json, what: string): { [k: string]: string } {
  if (v === null || v === undefined) return {};
  if (!isMap(v) || Object.values(v).some(x => typeof x !== 'string')) throw new Refused(`${what} is ${JSON.stringify(v)}, not a map of strings`);
  return { ...v };
}

function list(v: Json, what: string): Json[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new Refused(`${what} is ${JSON.stringify(v)}, not a list`);
  return v;
}

/** A Go duration (`0`, `30s`, `1h30m`) as a Duration. */
function goDuration(v: Json, what: string): Duration {
  const s = str(v, what).trim();
  if (s === '0') return Duration.seconds(0);
  const re = /(\d+(?:\.\d+)?)(h|m|s|ms)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let seen = 0;
  while ((m = re.exec(s)) !== null) {
    seen = re.lastIndex;
    total += Number(m[1]) * { h: 3600000, m: 60000, s: 1000, ms: 1 }[m[2] as 'h' | 'm' | 's' | 'ms'];
  }
  if (seen !== s.length || s === '') throw new Refused(`${what} is ${JSON.stringify(v)}, not a Go duration such as 0, 30s or 1h`);
  return Duration.millis(total);
}

function cpu(v: Json, what: string): kplus.Cpu {
  const s = str(v, what).trim();
  let m = /^(\d+)m$/.exec(s);
  if (m) return kplus.Cpu.millis(Number(m[1]));
  m = /^(\d+(?:\.\d+)?)$/.exec(s);
  if (m) return kplus.Cpu.units(Number(m[1]));
  throw new Refused(`${what} is ${JSON.stringify(v)}, not a cpu quantity such as 100m or 1`);
}

function memory(v: Json, what: string): Size {
  const s = str(v, what).trim();
  if (s === '0') return Size.mebibytes(0);
  const m = /^(\d+)(Ki|Mi|Gi|Ti)$/.exec(s);
  if (!m) throw new Refused(`${what} is ${JSON.stringify(v)}, not a memory quantity in Ki, Mi, Gi or Ti such as 256Mi`);
  const n = Number(m[1]);
  switch (m[2]) {
    case 'Ki': return Size.kibibytes(n);
    case 'Mi': return Size.mebibytes(n);
    case 'Gi': return Size.gibibytes(n);
    default: return Size.tebibytes(n);
  }
}

function resources(v: Json, what: string): kplus.ContainerResources {
  if (!isMap(v)) throw new Refused(`${what} is ${JSON.stringify(v)}, not requests and limits`);
  for (const k of Object.keys(v)) if (k !== 'requests' && k !== 'limits') throw new Refused(`${what}.${k} is not requests or limits`);
  const pick = (kind: 'cpu' | 'memory') => {
    const out: Record<string, Json> = {};
    for (const side of ['requests', 'limits'] as const) {
      const m = v[side] ?? {};
      if (!isMap(m)) throw new Refused(`${what}.${side} is ${JSON.stringify(m)}, not a map`);
      for (const k of Object.keys(m)) {
        if (k !== 'cpu' && k !== 'memory') throw new Refused(`${what}.${side}.${k}: only cpu and memory are KruiseControlPlane resources`);
      }
      if (m[kind] !== undefined) out[side === 'requests' ? 'request' : 'limit'] = kind === 'cpu' ? cpu(m[kind], `${what}.${side}.cpu`) : memory(m[kind], `${what}.${side}.memory`);
    }
    return Object.keys(out).length > 0 ? out : undefined;
  };
  return { cpu: pick('cpu'), memory: pick('memory') } as kplus.ContainerResources;
}

function gates(v: Json, what: string): { [g: string]: boolean } {
  const s = str(v, what).trim();
  const out: { [g: string]: boolean } = {};
  if (s === '') return out;
  for (const part of s.split(',')) {
    const m = /^\s*([A-Za-z0-9]+)\s*=\s*(true|false)\s*$/.exec(part);
    if (!m) throw new Refused(`${what}: "${part}" is not Name=true or Name=false`);
    out[m[1]] = m[2] === 'true';
  }
  return out;
}

function envValue(e: Json, what: string): kplus.EnvValue {
  if (!isMap(e) || typeof e.name !== 'string') throw new Refused(`${what} is ${JSON.stringify(e)}, not an environment variable with a name`);
  if (e.valueFrom === undefined) return kplus.EnvValue.fromValue(str(e.value ?? '', `${what}.value`));
  const ref = e.valueFrom?.fieldRef;
  if (isMap(ref) && Object.keys(e.valueFrom).length === 1) {
    const path = Object.values(kplus.EnvFieldPaths).find(p => p === ref.fieldPath);
    if (path) return kplus.EnvValue.fromFieldRef(path as kplus.EnvFieldPaths);
  }
  throw new Refused(`${what}.valueFrom ${JSON.stringify(e.valueFrom)}: only a value or a pod field reference is carried over; set daemon.extraEnv with a kplus.EnvValue yourself`);
}

type Setter = (v: Json, acc: Acc, path: string) => string;

interface Acc {
  props: { [k: string]: Json };
  manager: { [k: string]: Json };
  daemon: { [k: string]: Json };
  gates: { [g: string]: boolean } | undefined;
  externalAnnotations: { [k: string]: string } | undefined;
  credentialProvider: { enable?: boolean; configMapName?: string; hostPath?: string; awsCredentialsDir?: string };
}

const top = (prop: string, conv: (v: Json, what: string) => Json): Setter => (v, acc, path) => {
  acc.props[prop] = conv(v, path);
  return prop;
};
const mgr = (prop: keyof KruiseManagerOptions, conv: (v: Json, what: string) => Json): Setter => (v, acc, path) => {
  acc.manager[prop] = conv(v, path);
  return `manager.${prop}`;
};
const dmn = (prop: keyof KruiseDaemonOptions, conv: (v: Json, what: string) => Json): Setter => (v, acc, path) => {
  acc.daemon[prop] = conv(v, path);
  return `daemon.${prop}`;
};
const refuse = (why: string): Setter => () => {
  throw new Refused(why);
};
const cred = (field: 'configMapName' | 'hostPath' | 'awsCredentialsDir'): Setter => (v, acc, path) => {
  acc.credentialProvider[field] = str(v, path);
  return `daemon.credentialProvider.${field}`;
};

/** Every value of the chart's values.yaml (kruise 1.9.0-alpha.3, 1.9.0 and 1.9.1), by path. */
const VALUES: Record<string, Setter> = {
  'crds.managed': top('installCrds', bool),
  'installation.namespace': top('namespace', str),
  'installation.createNamespace': top('createNamespace', bool),
  'installation.roleListGroups': top('roleListGroups', (v, w) => list(v, w).map((x, i) => str(x, `${w}[${i}]`))),
  'featureGates': (v, acc, path) => {
    acc.gates = gates(v, path);
    return 'featureGates';
  },
  'externalCerts.annotations': (v, acc, path) => {
    acc.externalAnnotations = stringMap(v, path);
    return 'certificates (WebhookCertificates.external({ annotations }) with the EnableExternalCerts gate)';
  },
  'enableKubeCacheMutationDetector': top('enableKubeCacheMutationDetector', bool),
  'imagePullSecrets': top('imagePullSecrets', (v, w) => list(v, w).map((x, i) => (isMap(x) ? str(x.name, `${w}[${i}].name`) : str(x, `${w}[${i}]`)))),
  'manager.log.level': mgr('logLevel', int),
  'manager.replicas': mgr('replicas', int),
  'manager.image.repository': top('imageRepository', str),
  // the tag is the release the cluster runs: the takeover keeps it
  'manager.image.tag': (v, acc, path) => {
    const running = _runningRelease(str(v, path));
    if (!running.release) {
      throw new Refused(`runs ${running.version ? `OpenKruise ${running.version}, ${running.trap ?? 'a release this library does not model'}` : 'no release the tag names'}: `
        + `a takeover would change the release the cluster runs; ${_keepReleaseFix(running)}`);
    }
    acc.props.release = running.release.version;
    if (!running.build) return `release '${running.release.version}' (the release the cluster runs, installed whole)`;
    acc.props.imageTag = running.tag;
    return `release '${running.release.version}' and imageTag '${running.tag}' (a build of the release the cluster runs)`;
  },
  'manager.webhook.port': mgr('webhookPort', int),
  'manager.metrics.port': mgr('metricsPort', int),
  'manager.healthProbe.port': mgr('healthPort', int),
  'manager.pprofAddr': mgr('pprofAddress', str),
  'manager.resyncPeriod': mgr('syncPeriod', goDuration),
  'manager.loggingFormat': (v, acc, path) => {
    const s = str(v, path);
    if (s === '') return 'manager.logFormat (the default, text)';
    if (s !== 'json' && s !== 'text') throw new Refused(`${path} is "${s}", not json or text`);
    acc.manager.logFormat = s === 'json' ? LogFormat.JSON : LogFormat.TEXT;
    return 'manager.logFormat';
  },
  'manager.resources': mgr('resources', resources),
  'manager.hostNetwork': mgr('hostNetwork', bool),
  'manager.nodeAffinity': mgr('nodeAffinity', (v, w) => {
    if (!isMap(v)) throw new Refused(`${w} is ${JSON.stringify(v)}, not a node affinity`);
    return Object.keys(v).length === 0 ? undefined : v;
  }),
  'manager.nodeSelector': mgr('nodeSelector', (v, w) => { const m = stringMap(v, w); return Object.keys(m).length === 0 ? undefined : m; }),
  'manager.tolerations': mgr('tolerations', (v, w) => { const l = list(v, w); return l.length === 0 ? undefined : l; }),
  'webhookConfiguration.timeoutSeconds': top('webhookTimeout', (v, w) => Duration.seconds(int(v, w))),
  // charts 1.9.0 and 1.9.1: AKS's Admissions Enforcer's namespaceSelector terms
  'webhookConfiguration.aksIntegration': top('aksIntegration', bool),
  'daemon.log.level': dmn('logLevel', int),
  'daemon.port': dmn('port', int),
  'daemon.enablePprof': dmn('enablePprof', bool),
  'daemon.pprofAddr': dmn('pprofAddress', str),
  'daemon.socketLocation': dmn('socketLocation', str),
  'daemon.socketFile': dmn('socketFile', str),
  'daemon.nodeSelector': dmn('nodeSelector', (v, w) => { const m = stringMap(v, w); return Object.keys(m).length === 0 ? undefined : m; }),
  'daemon.affinity': (v, acc, path) => {
    if (!isMap(v)) throw new Refused(`${path} is ${JSON.stringify(v)}, not an affinity`);
    if (JSON.stringify(v) === JSON.stringify(CHART_DAEMON_AFFINITY)) return 'daemon.skipVirtualKubeletNodes (the chart\'s default affinity)';
    acc.daemon.affinity = Object.keys(v).length === 0 ? undefined : v;
    acc.daemon.skipVirtualKubeletNodes = false;
    return 'daemon.affinity (as given, so daemon.skipVirtualKubeletNodes is false)';
  },
  'daemon.resources': dmn('resources', resources),
  'daemon.extraEnvs': dmn('extraEnv', (v, w) => {
    const out: { [k: string]: kplus.EnvValue } = {};
    list(v, w).forEach((e, i) => { out[e?.name] = envValue(e, `${w}[${i}]`); });
    return Object.keys(out).length === 0 ? undefined : out;
  }),
  'daemon.credentialProvider.enable': (v, acc, path) => {
    acc.credentialProvider.enable = bool(v, path);
    return 'daemon.credentialProvider';
  },
  'daemon.credentialProvider.configmap': cred('configMapName'),
  'daemon.credentialProvider.hostPath': cred('hostPath'),
  'daemon.credentialProvider.awsCredentialsDir': cred('awsCredentialsDir'),
  'serviceAccount.annotations': top('serviceAccountAnnotations', (v, w) => { const m = stringMap(v, w); return Object.keys(m).length === 0 ? undefined : m; }),
  'helmHooks.image.repository': refuse('the image of the chart\'s pre-delete hook, which only Helm runs; KruiseControlPlane has no hook (kruise-manager\'s delete protection keeps the CRDs of live objects instead)'),
  'helmHooks.image.tag': refuse('the image of the chart\'s pre-delete hook, which only Helm runs; KruiseControlPlane has no hook (kruise-manager\'s delete protection keeps the CRDs of live objects instead)'),
};

/** Values whose whole map (or list) is the value, not a folder of values. */
const LEAF_MAPS = new Set(['externalCerts.annotations', 'manager.resources', 'manager.nodeAffinity', 'manager.nodeSelector', 'daemon.nodeSelector',
  'daemon.affinity', 'daemon.resources', 'serviceAccount.annotations']);

const CHART_DAEMON_AFFINITY = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchExpressions: [{ key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] }] }],
    },
  },
};

/** The chart's hook values, which `helm get values -a` prints with their defaults: they have no effect without Helm. */
const HOOK_DEFAULTS: Record<string, string> = { 'helmHooks.image.repository': 'openkruise/kruise-helm-hook', 'helmHooks.image.tag': 'v0.1.0' };

function leaves(v: Json, prefix: string, out: Array<[string, Json]>): void {
  if (isMap(v) && !LEAF_MAPS.has(prefix) && (prefix === '' || !VALUES[prefix])) {
    for (const [k, x] of Object.entries(v)) leaves(x, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out.push([prefix, v]);
}

/**
 * Map chart values onto props: what becomes of each value, and the props.
 * @internal
 */
export function _mapHelmValues(values: Json): HelmValuesResult {
  if (values !== null && values !== undefined && !isMap(values)) {
    throw new Error(`KruiseControlPlane.fromHelmValues(): the values are ${JSON.stringify(values).slice(0, 60)}, not a map; pass the parsed output of helm get values RELEASE -o yaml`);
  }
  const acc: Acc = { props: {}, manager: {}, daemon: {}, gates: undefined, externalAnnotations: undefined, credentialProvider: {} };
  const flat: Array<[string, Json]> = [];
  if (values) leaves(values, '', flat);
  const out: HelmValueMapping[] = [];
  for (const [path, value] of flat) {
    const set = VALUES[path];
    if (!set) {
      out.push({ path, value, refusal: 'is not a value of the kruise chart (values.yaml of charts 1.7.5 to 1.9.1), so nothing would read it' });
      continue;
    }
    if (HOOK_DEFAULTS[path] === value) {
      out.push({ path, value, prop: 'nothing: the default image of the chart\'s pre-delete hook, which only Helm runs' });
      continue;
    }
    try {
      out.push({ path, value, prop: set(value, acc, path) });
    } catch (e) {
      if (!(e instanceof Refused)) throw e;
      out.push({ path, value, refusal: e.message });
    }
  }
  const props: Record<string, Json> = { ...acc.props };
  if (acc.gates) props.featureGates = acc.gates;
  if (acc.externalAnnotations && Object.keys(acc.externalAnnotations).length > 0) {
    if (!acc.gates?.EnableExternalCerts) {
      const i = out.findIndex(m => m.path === 'externalCerts.annotations');
      out[i] = { path: 'externalCerts.annotations', value: acc.externalAnnotations, refusal: 'annotations for an external CA injector, but featureGates does not turn EnableExternalCerts on, so kruise-manager writes its own certificate and caBundles; set both, or neither' };
    } else {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { WebhookCertificates } = require('./certs') as typeof import('./certs');
      props.certificates = WebhookCertificates.external({ annotations: acc.externalAnnotations });
      const g = { ...acc.gates };
      delete g.EnableExternalCerts; // the certificates prop turns it on
      props.featureGates = g;
    }
  }
  if (acc.daemon.enablePprof === false && acc.daemon.pprofAddress !== undefined) {
    // the chart writes --pprof-addr only with pprof on
    delete acc.daemon.pprofAddress;
    const i = out.findIndex(m => m.path === 'daemon.pprofAddr');
    out[i] = { ...out[i], prop: 'nothing: the chart passes it only with daemon.enablePprof true' };
  }
  if (acc.credentialProvider.enable) {
    const { enable, ...cp } = acc.credentialProvider;
    void enable;
    acc.daemon.credentialProvider = cp;
  }
  const clean = (o: Record<string, Json>) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));
  if (Object.keys(clean(acc.manager)).length > 0) props.manager = clean(acc.manager);
  if (Object.keys(clean(acc.daemon)).length > 0) props.daemon = clean(acc.daemon);
  return { props: clean(props) as KruiseControlPlaneProps, values: out };
}
