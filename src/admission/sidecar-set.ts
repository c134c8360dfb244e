/**
 * SidecarSet admission rules (webhook-rules §4) on the wire form: the
 * mutating webhook's defaults applied in memory, then every rule that needs
 * no cluster state. Used by the SidecarSet construct and by the app-wide
 * checks, so L1 objects and JSON patches are judged the same way.
 */
import { PodTemplateAt, podTemplateFieldWarnings, podTemplateReleaseRules } from './_pod-template-releases';
import { goZeroValues } from './_workload';
import { AdmissionApp, AdmissionContext, AdmissionModule, Manifest, ReleaseRule } from './types';
import { advice } from '../validation/advice';
import { fieldError, stricterProblem } from '../validation/field-error';
import { cloneJson } from '../validation/json';
import { dns1123LabelProblems, envVarNameProblems, labelValueProblems, labelsProblems, portNameProblems, qualifiedNameProblems } from '../validation/names';
import { parseStrictPercent } from '../validation/percent';
import { VOLUME_SOURCES, containerListShapeProblems, defaultPodTemplate, podTemplateProblems } from '../validation/pod-template';
import { resourceExpressionProblem } from '../validation/resource-expression';
import { LabelSelectorJson, isEmptySelector, selectorMatches, selectorProblems } from '../validation/selectors';
import { eachObject, listShapeProblem } from '../validation/shape';

/** The v1beta1 spec of a SidecarSet in wire form; a v1alpha1 object is converted first (rule 30). */
export function sidecarSetSpecOf(json: any): any {
  const spec = json?.spec ?? {};
  if (json?.apiVersion !== 'apps.kruise.io/v1alpha1') return spec;
  const { namespace, ...rest } = spec;
  if (namespace) return { ...rest, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } };
  return rest;
}

/** Whether the namespace selector of `sidecarSetSpecOf(json)` is a v1alpha1 spec.namespace, converted. */
function fromV1alpha1Namespace(json: any): boolean {
  return json?.apiVersion === 'apps.kruise.io/v1alpha1' && Boolean(json?.spec?.namespace);
}

const clone = cloneJson;

/** D1-D8: the SidecarSet spec as the mutating webhook stores it (a copy; the input is not changed). */
export function defaultedSidecarSetSpec(input: any): any {
  const spec = clone(input ?? {});
  spec.updateStrategy = { type: 'RollingUpdate', maxUnavailable: 1, partition: 0, ...(spec.updateStrategy ?? {}) };
  if (!spec.updateStrategy.type) spec.updateStrategy.type = 'RollingUpdate';
  goZeroValues(spec.updateStrategy);
  const sidecar = (c: any, policy: string) => {
    // a null item (the API server keeps it) is judged by the container rules, which refuse it; nothing to default
    if (c === null || typeof c !== 'object' || Array.isArray(c)) return;
    c.podInjectPolicy = c.podInjectPolicy || policy;
    c.upgradeStrategy = { ...(c.upgradeStrategy ?? {}) };
    c.upgradeStrategy.upgradeType = c.upgradeStrategy.upgradeType || 'ColdUpgrade';
    c.shareVolumePolicy = { ...(c.shareVolumePolicy ?? {}) };
    c.shareVolumePolicy.type = c.shareVolumePolicy.type || 'disabled';
    for (const t of c.transferEnv ?? []) {
      if (t === null || typeof t !== 'object') continue;
      if (t.sourceContainerNameFrom?.fieldRef && !t.sourceContainerNameFrom.fieldRef.apiVersion) t.sourceContainerNameFrom.fieldRef.apiVersion = 'v1';
    }
  };
  (spec.initContainers ?? []).forEach((c: any) => sidecar(c, 'AfterAppContainer'));
  (spec.containers ?? []).forEach((c: any) => sidecar(c, 'BeforeAppContainer'));
  // SetDefaultPodVolumes (apis/apps/defaults/pod.go:185 of v1.7.4 to v1.9.1): a volume without a source is an emptyDir, as in a pod
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) {
    if (v !== null && typeof v === 'object' && !VOLUME_SOURCES.some(src => v[src] !== undefined && v[src] !== null)) v.emptyDir = {};
  }
  if (spec.revisionHistoryLimit === undefined) spec.revisionHistoryLimit = 10;
  for (const p of spec.patchPodMetadata ?? []) p.patchPolicy = p.patchPolicy || 'Retain';
  if (spec.injectionStrategy?.revision && !spec.injectionStrategy.revision.policy) spec.injectionStrategy.revision.policy = 'Always';
  return spec;
}

function selectorErrors(field: string, sel: LabelSelectorJson | undefined, what: string): string[] {
  const out = selectorProblems(sel).map(p => fieldError(`${field}.${p.field}`, p.value, p.problem, `fix the ${what}`));
  if (isEmptySelector(sel)) out.push(fieldError(field, sel, 'is empty and would select everything, which OpenKruise refuses', `add matchLabels or matchExpressions to the ${what}`));
  return out;
}

const ALNUM_DASH = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBSCRIPTED = /^metadata\.(labels|annotations)\['(.*)'\]$/;

/** §4 rules 1-27 on a SidecarSet in wire form (v1beta1 or v1alpha1). */
export function sidecarSetErrors(json: any): string[] {
  const errors: string[] = [];
  const name = json?.metadata?.name ?? '';
  if (!ALNUM_DASH.test(name) || name.length > 63) {
    errors.push(fieldError('metadata.name', name, 'is not a valid SidecarSet name', 'use at most 63 lowercase letters, digits and \'-\', starting and ending with a letter or digit'));
  }
  for (const p of labelsProblems(json?.metadata?.labels)) {
    errors.push(fieldError(`metadata.labels[${JSON.stringify(p.key)}]`, p.key, p.problem, 'use a qualified key and a valid label value'));
  }
  let annotationBytes = 0;
  for (const [k, v] of Object.entries<string>(json?.metadata?.annotations ?? {})) {
    annotationBytes += k.length + String(v).length;
    for (const p of qualifiedNameProblems(k)) errors.push(fieldError(`metadata.annotations[${JSON.stringify(k)}]`, k, `key ${p}`, 'use a qualified annotation key'));
  }
  if (annotationBytes > 262144) errors.push(fieldError('metadata.annotations', `${annotationBytes} bytes`, 'are larger than 262144 bytes in total', 'move large data into a ConfigMap'));
  const spec = defaultedSidecarSetSpec(sidecarSetSpecOf(json));
  // the CRD keeps the containers' fields as unknown fields; the webhook decodes them into Go structs
  const undecodable = [
    ...containerListShapeProblems(spec.initContainers, 'spec.initContainers', 'SidecarSet'),
    ...containerListShapeProblems(spec.containers, 'spec.containers', 'SidecarSet'),
  ];
  if (undecodable.length > 0) return [...errors, ...undecodable.map(p => fieldError(p.field, p.value, p.problem, p.fix))];
  const us = spec.updateStrategy;
  const inits: any[] = spec.initContainers ?? [];
  const mains: any[] = spec.containers ?? [];

  // rule 2
  inits.forEach((c, i) => {
    if (c.restartPolicy === 'Always' && us.type === 'RollingUpdate') {
      errors.push(fieldError(`spec.initContainers[${i}].restartPolicy`, 'Always', `makes "${c.name}" a native sidecar, which OpenKruise cannot upgrade in place while spec.updateStrategy.type is RollingUpdate (the default)`, advice('set spec.updateStrategy.type to NotUpdate', 'use SidecarSetUpdateStrategy.notUpdate()')));
    }
  });
  // rules 3-5
  if (!spec.selector) errors.push(fieldError('spec.selector', undefined, 'is required', 'set a pod selector'));
  else errors.push(...selectorErrors('spec.selector', spec.selector, 'pod selector'));
  // a v1alpha1 namespace is no selector before 1.9 (a release rule judges what 1.9 converts it to)
  if (spec.namespaceSelector && !fromV1alpha1Namespace(json)) errors.push(...selectorErrors('spec.namespaceSelector', spec.namespaceSelector, 'namespace selector'));
  // rules 6, 8
  const rev = spec.injectionStrategy?.revision;
  if (rev) {
    if (!rev.revisionName && !rev.customVersion) {
      errors.push(fieldError('spec.injectionStrategy.revision', rev, 'names neither a revisionName nor a customVersion', advice('set revisionName or customVersion', 'use SidecarSetInjectionRevision.fromRevisionName() or fromCustomVersion()')));
    }
    if (!['Always', 'Partial'].includes(rev.policy)) {
      errors.push(fieldError('spec.injectionStrategy.revision.policy', rev.policy, 'is not a revision policy', 'use Always or Partial'));
    }
  }
  // rules 9-14 (RollingUpdate only)
  if (us.type === 'RollingUpdate') {
    if (us.selector) errors.push(...selectorErrors('spec.updateStrategy.selector', us.selector, 'update selector'));
    for (const f of ['partition', 'maxUnavailable']) {
      if (us[f] !== undefined && !parseStrictPercent(us[f])) {
        errors.push(fieldError(`spec.updateStrategy.${f}`, us[f], 'is not a non-negative integer or an integer percentage', advice('use an integer >= 0 or a whole percentage such as "20%"', 'use PercentOrAbsolute.absolute(n) or PercentOrAbsolute.percent(n) with n >= 0')));
      }
    }
    const ps = us.priorityStrategy;
    if (ps) {
      if ((ps.weightPriority ?? []).length > 0 && (ps.orderPriority ?? []).length > 0) {
        errors.push(fieldError('spec.updateStrategy.priorityStrategy', ps, 'sets both weightPriority and orderPriority', 'use only one of them'));
      }
      (ps.weightPriority ?? []).forEach((w: any, i: number) => {
        if (typeof w.weight !== 'number' || w.weight < 0 || w.weight > 100) errors.push(fieldError(`spec.updateStrategy.priorityStrategy.weightPriority[${i}].weight`, w.weight, 'is out of range', 'use 0 to 100'));
        errors.push(...selectorErrors(`spec.updateStrategy.priorityStrategy.weightPriority[${i}].matchSelector`, w.matchSelector ?? {}, 'priority selector'));
      });
      (ps.orderPriority ?? []).forEach((o: any, i: number) => {
        if (!o.orderedKey) errors.push(fieldError(`spec.updateStrategy.priorityStrategy.orderPriority[${i}].orderedKey`, o.orderedKey, 'is empty', 'name a pod label key'));
      });
    }
    const seen = new Set<string>();
    (us.scatterStrategy ?? []).forEach((t: any, i: number) => {
      if (!t.key) errors.push(fieldError(`spec.updateStrategy.scatterStrategy[${i}].key`, t.key, 'is empty', 'name a pod label key'));
      const k = `${t.key}=${t.value}`;
      if (seen.has(k)) errors.push(fieldError(`spec.updateStrategy.scatterStrategy[${i}]`, t, 'repeats a key and value', 'list each key/value pair once'));
      seen.add(k);
    });
  }
  // rule 15 is a node validation on the construct (nothing added); for raw objects:
  if (inits.length === 0 && mains.length === 0) {
    errors.push(fieldError('spec.containers', undefined, 'and spec.initContainers are both empty, so the SidecarSet has no sidecars',
      advice('add a container to spec.containers or spec.initContainers', 'add one with addContainer() or addInitContainer()')));
  }
  // rules 16-22 per sidecar
  // the inject and share-volume policies are checked for containers only, not init containers (validateContainersForSidecarSet,
  // pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go:259-265 of v1.7.4, :274-280 of v1.8.4, :286-292 of v1.9.0)
  const perSidecar = (c: any, field: string, main: boolean) => {
    if (main && !['BeforeAppContainer', 'AfterAppContainer'].includes(c.podInjectPolicy)) {
      errors.push(fieldError(`${field}.podInjectPolicy`, c.podInjectPolicy, 'is not an inject policy', 'use BeforeAppContainer or AfterAppContainer'));
    }
    if (main && !['enabled', 'disabled'].includes(c.shareVolumePolicy.type)) {
      errors.push(fieldError(`${field}.shareVolumePolicy.type`, c.shareVolumePolicy.type, 'is not a share-volume policy', 'use enabled or disabled (lower case)'));
    }
    // The SidecarSet defaulter fills liveness and readiness probes but not a startup probe, whose successThreshold must be exactly 1
    const startup = c.startupProbe;
    if (startup !== null && typeof startup === 'object' && !Array.isArray(startup) && startup.successThreshold !== 1) {
      errors.push(fieldError(`${field}.startupProbe.successThreshold`, startup.successThreshold,
        startup.successThreshold === undefined
          ? 'is not set; OpenKruise defaults it for liveness and readiness probes of a sidecar but not for a startup probe, and refuses anything but 1'
          : 'must be 1 for a startup probe',
        advice('set startupProbe.successThreshold: 1', 'leave successThreshold unset (the construct writes 1) or set 1')));
    }
    if (c.upgradeStrategy.upgradeType === 'HotUpgrade' && !c.upgradeStrategy.hotUpgradeEmptyImage) {
      errors.push(fieldError(`${field}.upgradeStrategy.hotUpgradeEmptyImage`, undefined, stricterProblem('is missing for a HotUpgrade sidecar', 'OpenKruise', 'every injected pod then has a container without an image and is refused'), advice('set upgradeStrategy.hotUpgradeEmptyImage to an image that only sleeps (the pod runs it while the other container upgrades)', 'use SidecarUpgradeStrategy.hot(emptyImage)')));
    }
    (c.transferEnv ?? []).forEach((t: any, j: number) => {
      // a null item decodes to an empty one, which nothing refuses
      if (t === null || typeof t !== 'object') return;
      const at = `${field}.transferEnv[${j}]`;
      if (t.sourceContainerNameFrom && !t.sourceContainerNameFrom.fieldRef) {
        errors.push(fieldError(`${at}.sourceContainerNameFrom`, t.sourceContainerNameFrom, 'has no fieldRef (the OpenKruise defaulter fails on it)', 'give a fieldRef to a pod label or annotation'));
        return;
      }
      const ref = t.sourceContainerNameFrom?.fieldRef;
      if (!ref) return;
      if (ref.apiVersion !== 'v1') errors.push(fieldError(`${at}.sourceContainerNameFrom.fieldRef.apiVersion`, ref.apiVersion, 'is not supported', 'use v1'));
      const m = SUBSCRIPTED.exec(ref.fieldPath ?? '');
      if (!m) {
        errors.push(fieldError(`${at}.sourceContainerNameFrom.fieldRef.fieldPath`, ref.fieldPath, 'is not a pod label or annotation reference (OpenKruise refuses metadata.name and every other path)', advice("use metadata.labels['<key>'] or metadata.annotations['<key>']", "use metadata.labels['<key>'] or metadata.annotations['<key>'] (SidecarEnvTransfer.fromContainerInLabel / fromContainerInAnnotation)")));
      } else {
        const key = m[1] === 'annotations' ? m[2].toLowerCase() : m[2];
        for (const p of qualifiedNameProblems(key)) errors.push(fieldError(`${at}.sourceContainerNameFrom.fieldRef.fieldPath`, ref.fieldPath, `has a key that ${p}`, 'use a valid label or annotation key'));
      }
    });
  };
  inits.forEach((c, i) => perSidecar(c, `spec.initContainers[${i}]`, false));
  mains.forEach((c, i) => perSidecar(c, `spec.containers[${i}]`, true));
  // rule 23: the sidecars as a pod
  errors.push(...sidecarPodErrors(spec));
  errors.push(...sidecarPodTemplateErrors(spec, errors));
  // rules 25-27
  const patchedBy = new Map<string, number>();
  (spec.patchPodMetadata ?? []).forEach((p: any, i: number) => {
    const at = `spec.patchPodMetadata[${i}]`;
    const keys = Object.keys(p.annotations ?? {});
    if (keys.length === 0) errors.push(fieldError(`${at}.annotations`, p.annotations, 'is empty', 'give at least one annotation or drop the entry'));
    for (const k of keys) {
      for (const q of qualifiedNameProblems(k)) errors.push(fieldError(`${at}.annotations[${JSON.stringify(k)}]`, k, `key ${q}`, 'use a valid annotation key'));
      const prev = patchedBy.get(k);
      if (prev !== undefined) errors.push(fieldError(`${at}.annotations[${JSON.stringify(k)}]`, k, `is already patched by spec.patchPodMetadata[${prev}]`, 'patch each annotation key in one entry only'));
      else patchedBy.set(k, i);
    }
  });
  return errors;
}

/** Rule 23: containers, init containers and volumes checked together as one pod. */
function sidecarPodErrors(spec: any): string[] {
  const errors: string[] = [];
  const shape = (field: string, v: unknown) => {
    const p = listShapeProblem(v);
    if (p) errors.push(fieldError(field, v, p.problem, p.fix));
  };
  shape('spec.volumes', spec.volumes);
  const volumeNames = new Set<string>();
  eachObject(spec.volumes, (v, i) => {
    for (const p of dns1123LabelProblems(v.name ?? '')) errors.push(fieldError(`spec.volumes[${i}].name`, v.name, p, 'use a DNS-1123 label'));
    if (volumeNames.has(v.name)) errors.push(fieldError(`spec.volumes[${i}].name`, v.name, 'is declared twice', 'give each volume a unique name'));
    volumeNames.add(v.name);
  });
  const names = new Set<string>();
  const all: Array<[any, string]> = [
    ...(spec.initContainers ?? []).map((c: any, i: number) => [c, `spec.initContainers[${i}]`] as [any, string]),
    ...(spec.containers ?? []).map((c: any, i: number) => [c, `spec.containers[${i}]`] as [any, string]),
  ];
  if ((spec.containers ?? []).length === 0) names.add('test');
  for (const [c, at] of all) {
    for (const p of dns1123LabelProblems(c.name ?? '')) errors.push(fieldError(`${at}.name`, c.name, p, 'use a DNS-1123 label'));
    if (names.has(c.name)) {
      const why = c.name === 'test' && (spec.containers ?? []).length === 0
        ? 'collides with the placeholder container "test" OpenKruise validates init-only SidecarSets with' : 'is used by another sidecar of this SidecarSet';
      errors.push(fieldError(`${at}.name`, c.name, why, 'rename the container'));
    }
    names.add(c.name);
    if (c.image !== undefined && typeof c.image !== 'string') errors.push(fieldError(`${at}.image`, c.image, 'is not a string', 'give the image as a string, e.g. "fluent-bit:3.1"'));
    else if (!c.image) errors.push(fieldError(`${at}.image`, c.image, 'is empty', 'give an image'));
    else if (c.image !== c.image.trim()) errors.push(fieldError(`${at}.image`, c.image, 'has leading or trailing whitespace', 'trim the image'));
    for (const f of ['volumeMounts', 'volumeDevices', 'ports', 'env']) shape(`${at}.${f}`, c[f]);
    eachObject(c.volumeMounts, (m, j) => {
      if (!volumeNames.has(m.name)) {
        errors.push(fieldError(`${at}.volumeMounts[${j}].name`, m.name, 'is not a volume of this SidecarSet (the pod\'s own volumes are not visible to the SidecarSet webhook)', 'declare the volume in the SidecarSet, or enable shareVolumes to receive the app containers\' mounts'));
      }
    });
    const mountPaths = new Set<string>();
    eachObject(c.volumeMounts, (m, j) => {
      if (mountPaths.has(m.mountPath)) errors.push(fieldError(`${at}.volumeMounts[${j}].mountPath`, m.mountPath, 'is mounted twice in this container', 'use distinct mount paths'));
      mountPaths.add(m.mountPath);
    });
    eachObject(c.volumeDevices, (d, j) => {
      if (!volumeNames.has(d.name)) errors.push(fieldError(`${at}.volumeDevices[${j}].name`, d.name, 'is not a volume of this SidecarSet', 'declare the volume in the SidecarSet'));
      if (mountPaths.has(d.devicePath)) errors.push(fieldError(`${at}.volumeDevices[${j}].devicePath`, d.devicePath, 'is also a volumeMount path of this container', 'use a device path no volume is mounted at'));
    });
    const portNames = new Set<string>();
    eachObject(c.ports, (p, j) => {
      if (!(Number.isInteger(p.containerPort) && p.containerPort >= 1 && p.containerPort <= 65535)) {
        errors.push(fieldError(`${at}.ports[${j}].containerPort`, p.containerPort, 'is not a port number', 'use 1 to 65535'));
      }
      if (p.name !== undefined) {
        for (const q of portNameProblems(p.name)) errors.push(fieldError(`${at}.ports[${j}].name`, p.name, q, 'use an IANA service name'));
        if (portNames.has(p.name)) errors.push(fieldError(`${at}.ports[${j}].name`, p.name, 'is used twice in this container', 'give each port a unique name'));
        portNames.add(p.name);
      }
    });
    eachObject(c.env, (e, j) => {
      for (const q of envVarNameProblems(e.name ?? '')) errors.push(fieldError(`${at}.env[${j}].name`, e.name, q, 'rename the variable'));
    });
  }
  return errors;
}

/** The fields of a SidecarSet container that are not part of a pod container. */
const SIDECAR_ONLY = ['podInjectPolicy', 'shareVolumePolicy', 'shareVolumeDevicePolicy', 'transferEnv', 'upgradeStrategy', 'resourcesPolicy'];

/**
 * Rule 23, the rest of the upstream container checks: the sidecars and the
 * SidecarSet's volumes as one defaulted pod (a placeholder container when
 * there are only init containers), through the shared pod-template checks.
 * Fields `reported` already has a SidecarSet-specific message for are skipped.
 */
function sidecarPodTemplateErrors(spec: any, reported: string[]): string[] {
  const strip = (c: any) => Object.fromEntries(Object.entries(c).filter(([k]) => !SIDECAR_ONLY.includes(k)));
  const containers = (spec.containers ?? []).map(strip);
  const template = defaultPodTemplate({
    spec: {
      initContainers: (spec.initContainers ?? []).map(strip),
      containers: containers.length > 0 ? containers : [{ name: 'test', image: 'test' }],
      volumes: spec.volumes,
    },
  });
  const prefix = 'pod.spec.';
  const out: string[] = [];
  for (const p of podTemplateProblems(template, { path: 'pod' })) {
    const field = p.field.startsWith(prefix) ? `spec.${p.field.slice(prefix.length)}` : p.field;
    if ([...reported, ...out].some(e => e.startsWith(`${field}: `))) continue;
    out.push(fieldError(field, p.value, p.problem, p.fix));
  }
  return out;
}

/** Warnings about what OpenKruise silently does differently for this SidecarSet. */
export function sidecarSetWarnings(json: any): string[] {
  const out: string[] = [];
  const spec = defaultedSidecarSetSpec(sidecarSetSpecOf(json));
  const ns = spec.namespaceSelector as LabelSelectorJson | undefined;
  const named = [
    ns?.matchLabels?.['kubernetes.io/metadata.name'],
    ...((ns?.matchExpressions ?? []).filter(e => e.key === 'kubernetes.io/metadata.name' && e.operator === 'In').flatMap(e => e.values ?? [])),
  ];
  if (named.includes('kube-system')) {
    out.push(fieldError('spec.namespaceSelector', ns, 'selects namespace kube-system, but the OpenKruise pod webhook (Helm chart) never sees pods there, so nothing is injected',
      'run the sidecar another way in kube-system'));
  }
  if (named.includes('kube-public')) {
    out.push(fieldError('spec.namespaceSelector', ns, 'selects namespace kube-public, which Kubernetes keeps for publicly readable cluster data rather than workloads, '
      + 'so a fleet-wide sidecar there is almost always unintended', 'select your application namespaces instead'));
  }
  if (spec.updateStrategy.paused) {
    out.push(fieldError('spec.updateStrategy.paused', spec.updateStrategy.paused, 'means changes to this SidecarSet reach only pods created from now on',
      advice('set paused to false when the running pods should follow', 'drop paused from SidecarSetUpdateStrategy.rollingUpdate() when the running pods should follow')));
  } else if (spec.updateStrategy.type === 'NotUpdate') {
    // a native sidecar (an init container that keeps running) cannot be upgraded in place: NotUpdate is its only strategy
    const native = (spec.initContainers ?? []).some((c: any) => c?.restartPolicy === 'Always');
    out.push(fieldError('spec.updateStrategy.type', 'NotUpdate', 'means changes to this SidecarSet reach only pods created from now on', native
      ? 'recreate the pods (a rolling restart of their workloads) when they should get a changed native sidecar, which OpenKruise cannot upgrade in place'
      : advice('use type RollingUpdate when the running pods should follow', 'use SidecarSetUpdateStrategy.rollingUpdate() when the running pods should follow')));
  }
  if (spec.injectionStrategy?.paused) {
    out.push(fieldError('spec.injectionStrategy.paused', spec.injectionStrategy.paused, 'means new pods get none of these sidecars',
      advice('set it to false to inject them again', 'drop injectionPaused to inject them again')));
  }
  return out;
}

/**
 * The rules of the resourcesPolicy of the sidecars, a field of 1.9
 * (pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go:267
 * and :297 of v1.9.0, validateResourcesPolicy :512): 1.7 and 1.8 keep the
 * field in a sidecar container and ignore it (the CRD keeps a container's
 * unknown fields), so they judge none of it and admission warns there instead.
 */
function resourcesPolicyErrors(json: any): string[] {
  const errors: string[] = [];
  const spec = sidecarSetSpecOf(json);
  const check = (c: any, field: string, isInit: boolean) => {
    const rp = c?.resourcesPolicy;
    if (!rp || typeof rp !== 'object') return;
    if (isInit && c.restartPolicy !== 'Always') errors.push(fieldError(`${field}.resourcesPolicy`, rp, 'is set on an init container that is not a native sidecar', 'set restartPolicy Always on the init container or drop resourcesPolicy'));
    if (c.resources?.limits || c.resources?.requests) errors.push(fieldError(`${field}.resourcesPolicy`, rp, 'is combined with resources on the same container', 'use either resources or resourcesPolicy'));
    const regex = rp.targetContainersNameRegex ?? '.*';
    let compiles = regex !== '';
    try { new RegExp(regex); } catch { compiles = false; }
    if (!compiles) errors.push(fieldError(`${field}.resourcesPolicy.targetContainersNameRegex`, regex, 'is not a valid regular expression', 'use a non-empty RE2 expression such as ".*"'));
    if (!rp.resourcesExpr?.limits && !rp.resourcesExpr?.requests) errors.push(fieldError(`${field}.resourcesPolicy.resourcesExpr`, rp.resourcesExpr, 'has neither limits nor requests', 'give at least one expression'));
    for (const bound of ['limits', 'requests']) {
      for (const resource of ['cpu', 'memory'] as const) {
        const expression = rp.resourcesExpr?.[bound]?.[resource];
        if (typeof expression !== 'string' || expression === '') continue;
        const problem = resourceExpressionProblem(expression, resource);
        if (problem) {
          errors.push(fieldError(`${field}.resourcesPolicy.resourcesExpr.${bound}.${resource}`, expression, problem,
            `write it with ${resource}, numbers, percentages, quantities (50m, 128Mi), + - * /, parentheses and max(a, b) / min(a, b)`));
        }
      }
    }
  };
  (Array.isArray(spec.initContainers) ? spec.initContainers : []).forEach((c: any, i: number) => check(c, `spec.initContainers[${i}]`, true));
  (Array.isArray(spec.containers) ? spec.containers : []).forEach((c: any, i: number) => check(c, `spec.containers[${i}]`, false));
  return errors;
}

/**
 * The SidecarSet webhook's changes by release: 1.8 refuses a partition
 * together with an update selector and takes the Partial revision policy (1.7
 * knew Always only); 1.9 converts a v1alpha1 namespace into the namespace
 * selector, so both may be set (1.8 refused them together), and judges the
 * resourcesPolicy of the sidecars, which 1.7 and 1.8 ignore.
 */
const RELEASE_RULES: ReleaseRule[] = [
  {
    release: '1.9',
    change: 'refuses',
    what: 'a sidecar resourcesPolicy on an init container that is no native sidecar, beside resources, or with a regular expression or resource expression that does not parse',
    find: m => resourcesPolicyErrors(m),
  },
  {
    release: '1.8',
    change: 'refuses',
    what: 'spec.updateStrategy.partition together with spec.updateStrategy.selector',
    find: m => {
      const us = m.spec?.updateStrategy ?? {};
      const partitionSet = typeof us.partition === 'string' || (typeof us.partition === 'number' && us.partition !== 0);
      return us.type === 'RollingUpdate' && partitionSet && us.selector
        ? [{ field: 'spec.updateStrategy.partition', value: us.partition, problem: 'is combined with spec.updateStrategy.selector, which OpenKruise refuses', fix: 'use either a partition or an update selector' }]
        : [];
    },
  },
  {
    release: '1.8',
    change: 'accepts',
    what: 'the revision policy Partial in spec.injectionStrategy.revision.policy',
    find: m => (m.spec?.injectionStrategy?.revision?.policy === 'Partial'
      ? [{ field: 'spec.injectionStrategy.revision.policy', value: 'Partial', problem: 'is not a revision policy the webhook knows', fix: 'use Always (or leave it unset)' }]
      : []),
  },
  {
    release: '1.9',
    change: 'refuses',
    what: 'a v1alpha1 spec.namespace that is no label value, once converted into the namespace selector kubernetes.io/metadata.name=<namespace>',
    find: m => (fromV1alpha1Namespace(m)
      ? labelValueProblems(String(m.spec.namespace)).map(p => ({
        field: 'spec.namespace',
        value: m.spec.namespace,
        problem: `becomes the label value of the namespace selector kubernetes.io/metadata.name, and a label value ${p}`,
        fix: 'name a namespace (at most 63 characters)',
      }))
      : []),
  },
  {
    release: '1.9',
    change: 'accepts',
    what: 'spec.namespace together with spec.namespaceSelector (v1alpha1)',
    find: m => (m.apiVersion === 'apps.kruise.io/v1alpha1' && m.spec?.namespace && m.spec?.namespaceSelector
      ? [{ field: 'spec.namespace', value: m.spec.namespace, problem: 'is set together with spec.namespaceSelector', fix: advice('set one of them', 'use either the namespace or the namespaceSelector prop') }]
      : []),
  },
];

/** The sidecars of a SidecarSet, as the pod its webhook judges them in (containers, init containers and volumes). */
function sidecarPod(m: any): PodTemplateAt[] {
  const spec = sidecarSetSpecOf(m);
  return [{ template: { spec: { containers: spec.containers, initContainers: spec.initContainers, volumes: spec.volumes } }, specPath: 'spec', sidecars: true }];
}

/** Where the SidecarSet webhook reads which annotation keys patchPodMetadata may patch (pkg/util/configuration). */
const WHITELIST_CONFIGMAP = 'kruise-configuration';
const WHITELIST_KEY = 'SidecarSet_PatchPodMetadata_WhiteList';
const DEFAULTS_ALLOWED = 'SidecarSetPatchPodMetadataDefaultsAllowed';

/**
 * The patchPodMetadata whitelist rule (pkg/control/sidecarcontrol/util.go
 * ValidateSidecarSetPatchMetadataWhitelist): a SidecarSet that patches pod
 * metadata is refused unless the ConfigMap kruise-configuration in the
 * control plane's namespace holds a whitelist whose rules (those whose
 * selector matches the SidecarSet's labels) allow every annotation key by a
 * regular expression; with the feature gate SidecarSetPatchPodMetadataDefaultsAllowed
 * on, no whitelist (or no rule that applies) allows every key. Read from the
 * objects judged with the SidecarSet: the app's, or the documents and live
 * state of a check. The control plane's namespace is that of the app's
 * kruise-controller-manager Deployment, else kruise-system.
 */
export function patchPodMetadataWhitelistErrors(m: Manifest, app: AdmissionApp, ctx: AdmissionContext): string[] {
  const patches: any[] = Array.isArray(m.spec?.patchPodMetadata) ? m.spec.patchPodMetadata : [];
  if (patches.length === 0) return [];
  const keys = [...new Set<string>(patches.flatMap(p => (p && typeof p.annotations === 'object' ? Object.keys(p.annotations) : [])))];
  const gateOn = ctx.gate(DEFAULTS_ALLOWED);
  const manager = app.objects('apps', 'Deployment').find(d => d.json.metadata?.name === 'kruise-controller-manager');
  const ns = manager?.json.metadata?.namespace || 'kruise-system';
  const map = app.objects('', 'ConfigMap').find(c => c.json.metadata?.name === WHITELIST_CONFIGMAP && (c.json.metadata?.namespace || 'default') === ns
    && typeof c.json.data?.[WHITELIST_KEY] === 'string');
  const example = JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: keys.map(k => `^${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }] });
  const fix = advice(`add the ConfigMap ${ns}/${WHITELIST_CONFIGMAP} with data ${WHITELIST_KEY}: '${example}', or turn on the feature gate ${DEFAULTS_ALLOWED}`,
    `add a ConfigMap named ${WHITELIST_CONFIGMAP} in namespace ${ns} with data ${WHITELIST_KEY}: '${example}', `
    + `or turn on the feature gate ${DEFAULTS_ALLOWED} (KruiseControlPlane featureGates)`);
  if (!map) {
    if (gateOn) return [];
    return [fieldError('spec.patchPodMetadata', keys, `is refused by the SidecarSet webhook: it reads the annotation keys a SidecarSet may patch from ${WHITELIST_KEY} `
      + `of the ConfigMap ${ns}/${WHITELIST_CONFIGMAP}, refuses every patch without it, and none is among the objects judged`, fix)];
  }
  const at = `${WHITELIST_KEY} of ConfigMap ${ns}/${WHITELIST_CONFIGMAP} ${map.place}`;
  let list: any;
  try {
    list = JSON.parse(map.json.data[WHITELIST_KEY]);
  } catch (e) {
    return [fieldError('spec.patchPodMetadata', keys, `is refused by the SidecarSet webhook: ${at} is not JSON (${(e as Error).message})`, fix)];
  }
  const labels: Record<string, string> = m.metadata?.labels ?? {};
  const exprs: RegExp[] = [];
  for (const rule of Array.isArray(list?.rules) ? list.rules : []) {
    if (rule?.selector && !(isEmptySelector(rule.selector) || selectorMatches(rule.selector, labels))) continue;
    for (const x of Array.isArray(rule?.allowedAnnotationKeyExprs) ? rule.allowedAnnotationKeyExprs : []) {
      try {
        exprs.push(new RegExp(String(x)));
      } catch (e) {
        return [fieldError('spec.patchPodMetadata', keys, `is refused by the SidecarSet webhook: ${at} has an expression that does not compile (${JSON.stringify(x)})`, fix)];
      }
    }
  }
  if (exprs.length === 0) {
    if (gateOn) return [];
    return [fieldError('spec.patchPodMetadata', keys, `is refused by the SidecarSet webhook: no rule of ${at} applies to this SidecarSet's labels (${JSON.stringify(labels)})`, fix)];
  }
  const out: string[] = [];
  patches.forEach((p, i) => {
    for (const k of Object.keys(p?.annotations ?? {})) {
      if (!exprs.some(r => r.test(k))) {
        out.push(fieldError(`spec.patchPodMetadata[${i}].annotations[${JSON.stringify(k)}]`, k, `is not allowed by ${at}: no expression of the rules that apply to this SidecarSet matches it`, fix));
      }
    }
  });
  return out;
}

/** The SidecarSet webhooks (v1alpha1 is converted to v1beta1 first, as upstream does). */
/**
 * What the SidecarSet webhook hashes into its kruise.io/sidecarset-hash
 * annotations, as Go marshals it: the containers (a list sent empty is
 * `[]`, one left out or dropped `null`), and the init containers when one is
 * a native sidecar (pkg/control/sidecarcontrol/hash.go encodeSidecarSet,
 * :56 of v1.7.4, :58 of v1.9.1).
 */
function hashed(m: Manifest): string {
  const spec = defaultedSidecarSetSpec(sidecarSetSpecOf(m));
  const inits = Array.isArray(spec.initContainers) ? spec.initContainers : [];
  const native = inits.some((c: any) => c?.restartPolicy === 'Always');
  return JSON.stringify({ containers: spec.containers ?? null, ...(native ? { initContainers: inits } : {}) });
}

/**
 * The SidecarSet webhook answers an update whose hash differs from the one
 * it wrote on create (sidecarset_create_update_handler.go:80 of v1.7.4,
 * setHashSidecarSet): a changed container, or `containers: []` sent on
 * create, which the stored object no longer has (omitempty), so the hash of
 * any later update is that of no containers.
 */
function sidecarSetAnswersUpdate(created: Manifest, _stored: Manifest, merged: Manifest): boolean {
  return hashed(created) !== hashed(merged);
}

export const sidecarSetAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'SidecarSet',
  versions: ['v1alpha1', 'v1beta1'],
  defaults: m => ({ ...m, spec: defaultedSidecarSetSpec(m.spec) }),
  answersUpdate: sidecarSetAnswersUpdate,
  validate: m => sidecarSetErrors(m),
  warnings: (m, ctx) => [...sidecarSetWarnings(m), ...podTemplateFieldWarnings(sidecarPod(m), ctx)],
  releaseRules: [...RELEASE_RULES, ...podTemplateReleaseRules(sidecarPod, { sidecars: true })],
  appRules: (m, app, ctx) => patchPodMetadataWhitelistErrors(m, app, ctx),
};
