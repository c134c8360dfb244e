/**
 * The pod-template rules that differ between OpenKruise releases. Each
 * release's webhooks decode a pod template into the Kubernetes types of the
 * libraries it vendors and judge it with their validation and the options of
 * its pkg/webhook/util/pod_validation.go (1.7: Kubernetes 1.28, 1.8: 1.30,
 * 1.9: 1.32; the line's `kubernetesLibraries`), so one template can be
 * admitted by one release and refused by the next. The rules are written
 * once here; each kind that judges pod templates lists where its templates
 * are (`PodTemplates`) and takes the rules into its `releaseRules`, and the
 * fields an older release ignores into its warnings.
 */
import { targetHas } from './_release';
import { AdmissionContext, Manifest, ReleaseRule, Finding } from './types';
import { PRODUCT_NAME, releaseName } from '../releases/registry';
import { targetNote, targetRelease, defaultTarget } from '../releases/target';
import { advice } from '../validation/advice';
import { fieldError, stricterProblem } from '../validation/field-error';
import { qualifiedNameProblems } from '../validation/names';
import { isObject } from '../validation/shape';

type Json = Record<string, any>;

/** One pod template of an object, as the kind's webhook judges it. */
export interface PodTemplateAt {
  /** The pod template (`metadata`, `spec`) with the template defaults applied (`defaultPodTemplate`). */
  readonly template: Json;
  /** Where the template's pod spec fields are in the object, e.g. `spec.template.spec` (a SidecarSet's sidecars: `spec`). */
  readonly specPath: string;
  /**
   * The sidecars of a SidecarSet: the webhook judges its containers, init
   * containers and volumes as a pod of their own, which has no host network
   * and, before 1.9, no terminationGracePeriodSeconds.
   */
  readonly sidecars?: boolean;
  /**
   * The ephemeral containers of an EphemeralJob (`ephemeralContainers` of the
   * spec), which its webhook judges as containers of a pod that uses the
   * host's user namespace.
   */
  readonly ephemeral?: boolean;
  /**
   * A template the kind's own webhook does not judge, whose refusals are
   * stricter than it on purpose (a UnitedDeployment's cloneSetTemplate, which
   * the webhook of every subset CloneSet judges): each refusal says who admits
   * it and why it is refused anyway.
   */
  readonly stricter?: { readonly who: string; readonly why: string };
}

/** Where a kind's pod templates are in an object (the defaulted one for rules, the one as written for warnings). */
export type PodTemplates = (manifest: Manifest) => PodTemplateAt[];

/** A list as the rules read it (anything else is the base rules' to report). */
const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/** Every container of a pod spec with its path: init containers first, as the webhook walks them (an EphemeralJob's: its ephemeral containers). */
export function containersOf(spec: Json, specPath: string): Array<{ c: Json; at: string; init: boolean }> {
  const out: Array<{ c: Json; at: string; init: boolean }> = [];
  list(spec.ephemeralContainers).forEach((c, i) => { if (isObject(c)) out.push({ c, at: `${specPath}.ephemeralContainers[${i}]`, init: false }); });
  list(spec.initContainers).forEach((c, i) => { if (isObject(c)) out.push({ c, at: `${specPath}.initContainers[${i}]`, init: true }); });
  list(spec.containers).forEach((c, i) => { if (isObject(c)) out.push({ c, at: `${specPath}.containers[${i}]`, init: false }); });
  return out;
}

/** Each pod spec of the templates, with where its fields are. */
function specsOf(templates: PodTemplateAt[]): Array<{ spec: Json; at: string; t: PodTemplateAt }> {
  return templates.filter(t => isObject(t.template) && isObject(t.template.spec)).map(t => ({ spec: t.template.spec, at: t.specPath, t }));
}

/**
 * A container port of a pod template with hostNetwork and no hostPort: up
 * to 1.8 the webhooks validate templates with `ResourceIsPod: true`
 * (pkg/webhook/util/pod_validation.go:30 of v1.7.4, :29 of v1.8.4), so a
 * template is held to a pod's rule that hostPort equals containerPort
 * (pkg/apis/core/validation/validation.go:3596 of Kubernetes v1.28.9, :3815
 * of v1.30.10), and no default fills it in a template (the gate
 * DefaultHostNetworkHostPortsInPodTemplates is off). v1.9.0 validates with
 * `ResourceIsPod: false` (pod_validation.go:28), as the API server does a
 * Deployment's template. Regular containers only, as upstream checks them.
 */
function hostNetworkPortFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    if (spec.hostNetwork !== true) continue;
    list(spec.containers).forEach((c, i) => {
      if (!isObject(c)) return;
      list(c.ports).forEach((p, j) => {
        if (!isObject(p)) return;
        const cp = p.containerPort;
        if ((p.hostPort ?? 0) !== 0 || typeof cp !== 'number' || cp === 0) return;
        out.push({
          field: `${at}.containers[${i}].ports[${j}].hostPort`,
          value: p.hostPort,
          problem: `must equal containerPort (${cp}) with hostNetwork, as the webhook judges the template by the rule of a pod (no default fills it in a template)`,
          fix: advice(`set hostPort: ${cp}`, `give the container port hostPort ${cp}`),
        });
      });
    });
  }
  return out;
}

/** The lifecycle handlers of the containers that may have one: regular containers and native sidecars. */
function lifecycleHandlers(spec: Json, specPath: string): Array<{ h: Json; at: string; grace: unknown }> {
  const out: Array<{ h: Json; at: string; grace: unknown }> = [];
  for (const { c, at, init } of containersOf(spec, specPath)) {
    if ((init && c.restartPolicy !== 'Always') || !isObject(c.lifecycle)) continue;
    for (const name of ['postStart', 'preStop']) {
      const h = c.lifecycle[name];
      if (isObject(h)) out.push({ h, at: `${at}.lifecycle.${name}`, grace: spec.terminationGracePeriodSeconds });
    }
  }
  return out;
}

const ACTIONS = ['exec', 'httpGet', 'tcpSocket'];

/** An exec action that does what a sleep action of `seconds` does, for fixes. */
const execSleep = (seconds: unknown) => `exec: {command: ["sleep", "${typeof seconds === 'number' ? seconds : 5}"]}`;

/**
 * A lifecycle handler whose only action is a sleep: the Kubernetes 1.28 types
 * of 1.7 have no sleep action (k8s.io/api v0.28.9 core/v1 LifecycleHandler),
 * so the webhook decodes the handler without it and finds none
 * (pkg/apis/core/validation/validation.go:3105 of Kubernetes v1.28.9).
 */
function sleepOnlyFindings(templates: PodTemplateAt[], ctx: AdmissionContext): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    for (const { h, at: hat } of lifecycleHandlers(spec, at)) {
      if (h.sleep === undefined || ACTIONS.some(k => h[k] !== undefined)) continue;
      out.push({
        field: hat,
        value: h,
        problem: `is a sleep action alone, and the Kubernetes ${kubernetesLibrariesOf(ctx)} pod types of this release have no sleep action (it is read as a handler without any)`,
        fix: `use ${execSleep(isObject(h.sleep) ? h.sleep.seconds : undefined)} instead`,
      });
    }
  }
  return out;
}

/** A sleep action beside another action: two actions from 1.8 (validation.go:3310 of Kubernetes v1.30.10). */
function sleepBesideFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    for (const { h, at: hat } of lifecycleHandlers(spec, at)) {
      const others = ACTIONS.filter(k => h[k] !== undefined);
      // two actions besides the sleep: the base rules say so on every release
      if (h.sleep === undefined || others.length !== 1) continue;
      out.push({ field: hat, value: [...others, 'sleep'], problem: 'sets more than one handler', fix: `keep exactly one of ${others[0]}, sleep` });
    }
  }
  return out;
}

/**
 * The length of a sleep action, from 1.8: whole seconds, more than 0 and at
 * most the pod's terminationGracePeriodSeconds (validateSleepAction,
 * validation.go:3158 of Kubernetes v1.30.10, :3170 of v1.32.10, without
 * AllowPodLifecycleSleepActionZeroValue). The sidecars of a SidecarSet are
 * judged as a pod of their own, which 1.8 gives no grace period (0: every
 * sleep is refused: the pod of pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go:317
 * of v1.8.4 has none) and 1.9 the default 30 (:332 of v1.9.0).
 */
function sleepLengthFindings(templates: PodTemplateAt[], ctx: AdmissionContext): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at, t } of specsOf(templates)) {
    for (const { h, at: hat, grace } of lifecycleHandlers(spec, at)) {
      if (!isObject(h.sleep) || ACTIONS.some(k => h[k] !== undefined)) continue;
      const seconds = h.sleep.seconds;
      const field = `${hat}.sleep.seconds`;
      if (typeof seconds !== 'number' || !Number.isInteger(seconds)) {
        out.push({ field, value: seconds, problem: 'is not a whole number of seconds', fix: 'give whole seconds, e.g. 5' });
        continue;
      }
      if (t.sidecars && !openKruiseHas(ctx, '1.9')) {
        out.push({
          field,
          value: seconds,
          problem: 'is refused: OpenKruise 1.8 judges the sidecars as a pod without terminationGracePeriodSeconds, so no sleep action fits',
          fix: `use ${execSleep(seconds)} instead, or upgrade the cluster to OpenKruise 1.9`,
        });
        continue;
      }
      const max = t.sidecars ? 30 : typeof grace === 'number' ? grace : 30;
      if (seconds <= 0 || seconds > max) {
        out.push({ field, value: seconds, problem: `must be greater than 0 and at most terminationGracePeriodSeconds (${max})`, fix: `use 1 to ${max} seconds, or raise terminationGracePeriodSeconds` });
      }
    }
  }
  return out;
}

/**
 * An azureDisk volume without a kind whose diskURI is no https:// blob URI:
 * up to 1.8 the template defaults give such a disk the kind Shared
 * (apis/apps/defaults/pod.go:214 of v1.7.4 and v1.8.4: SetDefaults_AzureDiskVolumeSource),
 * whose URI must start with https:// (validation.go:1536 of Kubernetes
 * v1.30.10, :1433 of v1.28.9); 1.9's defaults leave the kind unset and the URI
 * unchecked (pod.go of v1.9.0 has no azureDisk default).
 */
function azureDiskFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    list(spec.volumes).forEach((v, i) => {
      const d = isObject(v) ? v.azureDisk : undefined;
      if (!isObject(d) || d.kind !== undefined || typeof d.diskURI !== 'string' || d.diskURI === '' || d.diskURI.startsWith('https://')) return;
      out.push({
        field: `${at}.volumes[${i}].azureDisk.diskURI`,
        value: d.diskURI,
        problem: 'must be an https:// blob URI for the kind Shared (the kind the template defaults give an azureDisk that names none)',
        fix: d.diskURI.startsWith('/subscriptions/') ? 'set kind: Managed (the URI names a managed disk)' : 'give the https:// URI of the blob, or set kind: Managed for a managed disk',
      });
    });
  }
  return out;
}

const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** The rules of one appArmorProfile (ValidateAppArmorProfileField, validation.go:4711 of Kubernetes v1.30.10). */
function appArmorProblems(p: Json, at: string, windows: boolean, out: Finding[]): void {
  if (windows) {
    out.push({ field: at, value: p, problem: 'cannot be set for a windows pod', fix: 'remove it, or run the pod on Linux' });
    return;
  }
  const local = p.localhostProfile;
  if (p.type === undefined || p.type === '') {out.push({ field: `${at}.type`, value: p.type, problem: 'is required when appArmorProfile is set', fix: `use one of ${APPARMOR_TYPES.join(', ')}` });} else if (!APPARMOR_TYPES.includes(p.type)) {out.push({ field: `${at}.type`, value: p.type, problem: 'is not an AppArmor profile type', fix: `use one of ${APPARMOR_TYPES.join(', ')}` });} else if (p.type === 'Localhost') {
    if (typeof local !== 'string' || local.trim() === '') {
      out.push({ field: `${at}.localhostProfile`, value: local, problem: 'must be set when the type is Localhost', fix: 'name the profile loaded on the node' });
    } else if (local !== local.trim()) {
      out.push({ field: `${at}.localhostProfile`, value: local, problem: 'must not be padded with whitespace', fix: 'trim it' });
    } else if (local.length > 4095) {
      out.push({ field: `${at}.localhostProfile`, value: `${local.length} characters`, problem: 'is longer than 4095 characters', fix: 'use a shorter profile name' });
    }
  } else if (local !== undefined) {
    out.push({ field: `${at}.localhostProfile`, value: local, problem: `can only be set when the type is Localhost, not ${p.type}`, fix: 'remove localhostProfile, or set type: Localhost' });
  }
}

/** appArmorProfile of the pod and of each container, from 1.8 (validation.go:4950 and :7241 of Kubernetes v1.30.10; windows pods: :4283, :4332). */
function appArmorFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at, t } of specsOf(templates)) {
    const windows = isObject(spec.os) && spec.os.name === 'windows';
    if (isObject(spec.securityContext) && isObject(spec.securityContext.appArmorProfile)) {
      appArmorProblems(spec.securityContext.appArmorProfile, `${at}.securityContext.appArmorProfile`, windows, out);
    }
    for (const { c, at: cat } of containersOf(spec, at)) {
      if (isObject(c.securityContext) && isObject(c.securityContext.appArmorProfile)) {
        appArmorProblems(c.securityContext.appArmorProfile, `${cat}.securityContext.appArmorProfile`, windows, out);
      }
    }
    if (!windows) appArmorAnnotationFindings(t.template, spec, at, out);
  }
  return out;
}

/**
 * The deprecated AppArmor annotation of a container and the profile it gets
 * from the fields must agree, from 1.8 (validateAppArmorAnnotationsAndFieldsMatchOnCreate
 * on a template, validation.go:5969 of Kubernetes v1.30.10).
 */
function appArmorAnnotationFindings(template: Json, spec: Json, at: string, out: Finding[]): void {
  const annotations = isObject(template.metadata) && isObject(template.metadata.annotations) ? template.metadata.annotations : {};
  const profileOf = (holder: Json): Json | undefined => (isObject(holder.securityContext) && isObject(holder.securityContext.appArmorProfile)
    ? holder.securityContext.appArmorProfile : undefined);
  const podProfile = profileOf(spec);
  for (const { c, at: cat } of containersOf(spec, at)) {
    const own = profileOf(c);
    const profile = own ?? podProfile;
    const annotation = annotations[`container.apparmor.security.beta.kubernetes.io/${c.name}`];
    if (!profile || typeof annotation !== 'string') continue;
    const field = own ? `${cat}.securityContext.appArmorProfile` : `${at}.securityContext.appArmorProfile`;
    const expected = profile.type === 'Unconfined' ? 'unconfined' : profile.type === 'RuntimeDefault' ? 'runtime/default'
      : profile.type === 'Localhost' ? `localhost/${profile.localhostProfile ?? ''}` : undefined;
    if (expected === undefined || annotation === expected) continue;
    out.push({
      field,
      value: profile,
      problem: `does not match the annotation container.apparmor.security.beta.kubernetes.io/${c.name}: ${JSON.stringify(annotation)} of the pod template`,
      fix: 'remove the annotation (the field replaces it), or make the two name the same profile',
    });
  }
}

/** recursiveReadOnly of a volume mount, from 1.8 (validateMountRecursiveReadOnly, validation.go:1325 of Kubernetes v1.30.10). */
function recursiveReadOnlyFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    for (const { c, at: cat } of containersOf(spec, at)) {
      list(c.volumeMounts).forEach((m, j) => {
        if (!isObject(m) || m.recursiveReadOnly === undefined) return;
        const field = `${cat}.volumeMounts[${j}].recursiveReadOnly`;
        const v = m.recursiveReadOnly;
        if (v === 'Disabled') return;
        if (v !== 'Enabled' && v !== 'IfPossible') {
          out.push({ field, value: v, problem: 'is not a recursive read-only mode', fix: 'use Disabled, IfPossible or Enabled' });
          return;
        }
        if (m.readOnly !== true) out.push({ field, value: v, problem: 'may only be set on a mount with readOnly: true', fix: 'set readOnly: true on the mount, or remove recursiveReadOnly' });
        if (m.mountPropagation !== undefined && m.mountPropagation !== 'None') {
          out.push({ field, value: v, problem: `may only be set on a mount whose mountPropagation is None, not ${m.mountPropagation}`, fix: 'remove mountPropagation, or remove recursiveReadOnly' });
        }
      });
    }
  }
  return out;
}

/**
 * The path of a projected serviceAccountToken, from 1.8: relative, without
 * `..` (validation.go:1157 of Kubernetes v1.30.10; the webhooks' options leave
 * AllowNonLocalProjectedTokenPath off).
 */
function tokenPathFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    list(spec.volumes).forEach((v, i) => {
      if (!isObject(v) || !isObject(v.projected)) return;
      list(v.projected.sources).forEach((src, j) => {
        const p = isObject(src) && isObject(src.serviceAccountToken) ? src.serviceAccountToken.path : undefined;
        if (typeof p !== 'string' || p === '') return;
        const field = `${at}.volumes[${i}].projected.sources[${j}].serviceAccountToken.path`;
        if (p.startsWith('/')) out.push({ field, value: p, problem: 'must be a relative path', fix: 'give the path inside the volume, e.g. token' });
        if (p.replace(/\\/g, '/').split('/').includes('..')) out.push({ field, value: p, problem: 'must not contain \'..\'', fix: 'give a path inside the volume' });
        else if (p.startsWith('..')) out.push({ field, value: p, problem: 'must not start with \'..\'', fix: 'give a path inside the volume' });
      });
    });
  }
  return out;
}

/** The namespace of a sysctl, as Kubernetes' component-helpers name them (node/util/sysctl/namespace.go of v0.30.10). */
function sysctlNamespace(name: string): 'Net' | 'IPC' | undefined {
  // a name written with slashes (kernel/shm_rmid_forced) is normalised to dots first
  const n = name.indexOf('/') >= 0 && (name.indexOf('.') < 0 || name.indexOf('/') < name.indexOf('.')) ? name.replace(/\//g, '.') : name;
  const base = n.split('*')[0];
  if (['kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced', 'kernel.shm', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.msg'].includes(base)) return 'IPC';
  if (base.startsWith('net.')) return 'Net';
  if (base.startsWith('fs.mqueue.')) return 'IPC';
  return undefined;
}

/**
 * A namespaced sysctl of a pod that shares that namespace with the host, from
 * 1.8 (ValidateHostSysctl, validation.go:4898 of Kubernetes v1.30.10; the
 * webhooks' options leave AllowNamespacedSysctlsForHostNetAndHostIPC off).
 */
function hostSysctlFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    const sc = spec.securityContext;
    if (!isObject(sc)) continue;
    list(sc.sysctls).forEach((x, i) => {
      const name = isObject(x) ? x.name : undefined;
      if (typeof name !== 'string') return;
      const ns = sysctlNamespace(name);
      const shared = ns === 'Net' ? spec.hostNetwork === true && 'hostNetwork' : ns === 'IPC' ? spec.hostIPC === true && 'hostIPC' : false;
      if (!shared) return;
      out.push({
        field: `${at}.securityContext.sysctls[${i}].name`,
        value: name,
        problem: `may not be set when ${shared} is true (the sysctl would change the host's ${ns === 'Net' ? 'network' : 'IPC'} namespace)`,
        fix: `remove the sysctl, or run the pod off the host's ${ns === 'Net' ? 'network' : 'IPC namespace'}`,
      });
    });
  }
  return out;
}

/**
 * procMount Unmasked in a pod that uses the host's user namespace (hostUsers
 * unset or true), from 1.8 (ValidateSecurityContext, validation.go:7221
 * of Kubernetes v1.30.10).
 */
function procMountFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    if (isObject(spec.securityContext) && spec.securityContext.hostUsers === false) continue;
    for (const { c, at: cat } of containersOf(spec, at)) {
      if (isObject(c.securityContext) && c.securityContext.procMount === 'Unmasked') {
        out.push({
          field: `${cat}.securityContext.procMount`,
          value: 'Unmasked',
          problem: 'needs a pod with its own user namespace (spec.securityContext.hostUsers: false)',
          fix: 'set hostUsers: false in the pod\'s securityContext, or use procMount Default',
        });
      }
    }
  }
  return out;
}

/**
 * seLinuxChangePolicy and supplementalGroupsPolicy of the pod, from 1.9
 * (validation.go:5099 and :5103 of Kubernetes v1.32.10; the webhooks' options
 * leave AllowOnlyRecursiveSELinuxChangePolicy off). 1.7 and 1.8 have neither field.
 */
function securityPolicyFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    const sc = spec.securityContext;
    if (!isObject(sc)) continue;
    if (sc.seLinuxChangePolicy !== undefined && !['Recursive', 'MountOption'].includes(sc.seLinuxChangePolicy)) {
      out.push({ field: `${at}.securityContext.seLinuxChangePolicy`, value: sc.seLinuxChangePolicy, problem: 'is not an SELinux change policy', fix: 'use MountOption or Recursive' });
    }
    if (sc.supplementalGroupsPolicy !== undefined && !['Merge', 'Strict'].includes(sc.supplementalGroupsPolicy)) {
      out.push({ field: `${at}.securityContext.supplementalGroupsPolicy`, value: sc.supplementalGroupsPolicy, problem: 'is not a supplemental groups policy', fix: 'use Merge or Strict' });
    }
  }
  return out;
}

/** The pod (anti-)affinity terms of a pod spec, with their paths. */
function affinityTerms(spec: Json, at: string): Array<{ term: Json; at: string }> {
  const out: Array<{ term: Json; at: string }> = [];
  const affinity = isObject(spec.affinity) ? spec.affinity : {};
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = affinity[kind];
    if (!isObject(a)) continue;
    list(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      if (isObject(t)) out.push({ term: t, at: `${at}.affinity.${kind}.requiredDuringSchedulingIgnoredDuringExecution[${i}]` });
    });
    list(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((w, i) => {
      if (isObject(w) && isObject(w.podAffinityTerm)) out.push({ term: w.podAffinityTerm, at: `${at}.affinity.${kind}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm` });
    });
  }
  return out;
}

/**
 * matchLabelKeys and mismatchLabelKeys of a pod affinity term, from 1.8
 * (validateMatchLabelKeysAndMismatchLabelKeys, validation.go:4565 of
 * Kubernetes v1.30.10): label keys, only with a labelSelector, no key in both.
 */
function labelKeysFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    for (const { term, at: tat } of affinityTerms(spec, at)) {
      for (const f of ['matchLabelKeys', 'mismatchLabelKeys']) {
        const keys = list(term[f]);
        if (keys.length === 0) continue;
        if (term.labelSelector === undefined || term.labelSelector === null) {
          out.push({ field: `${tat}.${f}`, value: keys, problem: 'must not be set when labelSelector is not', fix: `give the term a labelSelector, or remove ${f}` });
          continue;
        }
        keys.forEach((k, i) => {
          for (const p of qualifiedNameProblems(String(k))) out.push({ field: `${tat}.${f}[${i}]`, value: k, problem: p, fix: 'use a pod label key' });
        });
      }
      const mismatch = new Set(list(term.mismatchLabelKeys));
      list(term.matchLabelKeys).forEach((k, i) => {
        if (mismatch.has(k)) out.push({ field: `${tat}.matchLabelKeys[${i}]`, value: k, problem: 'is in mismatchLabelKeys too', fix: 'keep the key in one of the two lists' });
      });
    }
  }
  return out;
}

/**
 * A resourceClaims entry of the pod names its claim in `source` up to 1.8
 * (k8s.io/api v0.30.10 core/v1 PodResourceClaim.source) and in the entry itself
 * from 1.9 (v0.32.10); each release ignores the other form, and then finds no
 * claim named (validation.go:3042 of Kubernetes v1.30.10, :3054 of v1.32.10).
 */
function claimFindings(templates: PodTemplateAt[], form: 'entry' | 'source'): Finding[] {
  const out: Finding[] = [];
  const named = (x: unknown) => isObject(x) && (x.resourceClaimName !== undefined || x.resourceClaimTemplateName !== undefined);
  for (const { spec, at } of specsOf(templates)) {
    list(spec.resourceClaims).forEach((r, i) => {
      if (!isObject(r)) return;
      const here = form === 'entry' ? named(r) && !named(r.source) : named(r.source) && !named(r);
      if (!here) return;
      out.push({
        field: `${at}.resourceClaims[${i}]${form === 'source' ? '.source' : ''}`,
        value: form === 'source' ? r.source : { resourceClaimName: r.resourceClaimName, resourceClaimTemplateName: r.resourceClaimTemplateName },
        problem: form === 'entry'
          ? 'names the claim where this release\'s Kubernetes pod types do not read it (they read source), so the entry names none'
          : 'names the claim in source, which the Kubernetes 1.32 pod types of this release no longer have, so the entry names none',
        fix: form === 'entry'
          ? `name it in source for this release: source: ${JSON.stringify({ resourceClaimName: r.resourceClaimName, resourceClaimTemplateName: r.resourceClaimTemplateName })}`
          : `name it in the entry itself for this release: ${Object.entries(r.source).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}`,
      });
    });
  }
  return out;
}

/**
 * An image volume, from 1.9: its pullPolicy is required (the template defaults
 * of v1.9.0, apis/apps/defaults/pod.go, give it none; validatePullPolicy via
 * validateImageVolumeSource, validation.go:8612 of Kubernetes v1.32.10) and a
 * mount of it takes no subPath (:2936). 1.7 and 1.8 have no image volumes.
 */
function imageVolumeFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    const images = new Set<string>();
    list(spec.volumes).forEach((v, i) => {
      if (!isObject(v) || !isObject(v.image)) return;
      images.add(v.name);
      const p = v.image.pullPolicy;
      if (p === undefined || p === '') {
        out.push({ field: `${at}.volumes[${i}].image.pullPolicy`, value: p, problem: 'is required', fix: 'set pullPolicy: IfNotPresent (or Always, Never)' });
      } else if (!['Always', 'IfNotPresent', 'Never'].includes(p)) {
        out.push({ field: `${at}.volumes[${i}].image.pullPolicy`, value: p, problem: 'is not a pull policy', fix: 'use Always, IfNotPresent or Never' });
      }
    });
    if (images.size === 0) continue;
    for (const { c, at: cat } of containersOf(spec, at)) {
      list(c.volumeMounts).forEach((m, j) => {
        if (!isObject(m) || !images.has(m.name)) return;
        for (const f of ['subPath', 'subPathExpr']) {
          if (typeof m[f] === 'string' && m[f] !== '') out.push({ field: `${cat}.volumeMounts[${j}].${f}`, value: m[f], problem: 'is not allowed on a mount of an image volume', fix: `remove ${f}` });
        }
      });
    }
  }
  return out;
}

/**
 * A container's resizePolicy that restarts the container in a pod that is
 * never restarted, from 1.8 (validateResizePolicy, validation.go:3384 of
 * Kubernetes v1.30.10, :3406 of v1.32.10): a Job's or BroadcastJob's pod with
 * restartPolicy Never.
 */
function resizeNeverFindings(templates: PodTemplateAt[]): Finding[] {
  const out: Finding[] = [];
  for (const { spec, at } of specsOf(templates)) {
    if (spec.restartPolicy !== 'Never') continue;
    for (const { c, at: cat } of containersOf(spec, at)) {
      list(c.resizePolicy).forEach((p, j) => {
        if (!isObject(p) || p.restartPolicy === undefined || p.restartPolicy === 'NotRequired') return;
        out.push({
          field: `${cat}.resizePolicy[${j}].restartPolicy`,
          value: p.restartPolicy,
          problem: 'must be NotRequired in a pod with restartPolicy Never',
          fix: 'use NotRequired, or remove the resize policy',
        });
      });
    }
  }
  return out;
}

/** Which part of a pod a kind's templates are: a SidecarSet's sidecars, or an EphemeralJob's ephemeral containers. */
export interface PodTemplateRuleOptions {
  readonly sidecars?: boolean;
  readonly ephemeral?: boolean;
}

/**
 * The release rules of pod templates, for a kind whose templates `templates`
 * finds on the defaulted object: add them to the kind's `releaseRules`.
 */
export function podTemplateReleaseRules(where: PodTemplates, o: PodTemplateRuleOptions = {}): ReleaseRule[] {
  // every rule reads the same defaulted templates of the object the judge made (`judgeManifest`), which nothing changes:
  // built once per object, not twice per rule (a copy of the pod template each time was an eighth of a check's time)
  const built = new WeakMap<Manifest, PodTemplateAt[]>();
  const templates: PodTemplates = m => {
    let t = built.get(m);
    if (!t) built.set(m, t = where(m));
    return t;
  };
  // the rules of what only a pod template has (host network, pod security context, affinity, claims): none for the sidecars of a SidecarSet;
  // an EphemeralJob's ephemeral containers meet the rules of a container's security context only
  const podOnly = new Set(['hostPort', 'sysctl', 'policies', 'labelKeys', 'claimEntry', 'claimSource', 'resizeNever']);
  const ephemeral = new Set(['appArmor', 'procMount']);
  const rules: Array<ReleaseRule & { readonly id: string }> = [
    {
      id: 'hostPort',
      release: '1.9',
      change: 'accepts',
      what: 'a container port without hostPort in a pod template with hostNetwork',
      find: m => hostNetworkPortFindings(templates(m)),
    },
    {
      id: 'sleepOnly',
      release: '1.8',
      change: 'accepts',
      what: 'a lifecycle handler whose only action is sleep',
      find: (m, ctx) => sleepOnlyFindings(templates(m), ctx),
    },
    {
      id: 'sleepBeside',
      release: '1.8',
      change: 'refuses',
      what: 'a lifecycle handler with a sleep action beside another action',
      find: m => sleepBesideFindings(templates(m)),
    },
    {
      id: 'sleepLength',
      release: '1.8',
      change: 'refuses',
      what: 'a sleep action of no whole seconds, 0 seconds, or longer than terminationGracePeriodSeconds (every sleep action of a SidecarSet\'s sidecars on 1.8)',
      find: (m, ctx) => sleepLengthFindings(templates(m), ctx),
    },
    {
      id: 'azureDisk',
      release: '1.9',
      change: 'accepts',
      what: 'an azureDisk volume without kind whose diskURI is not an https:// URI',
      find: m => azureDiskFindings(templates(m)),
    },
    {
      id: 'appArmor',
      release: '1.8',
      change: 'refuses',
      what: 'an appArmorProfile without a type, of an unknown type, with localhostProfile wrong for its type, in a windows pod, or unlike the container\'s AppArmor annotation',
      find: m => appArmorFindings(templates(m)),
    },
    {
      id: 'recursiveReadOnly',
      release: '1.8',
      change: 'refuses',
      what: 'a volume mount\'s recursiveReadOnly of an unknown mode, or IfPossible or Enabled on a mount that is not readOnly or propagates mounts',
      find: m => recursiveReadOnlyFindings(templates(m)),
    },
    {
      id: 'tokenPath',
      release: '1.8',
      change: 'refuses',
      what: 'a projected serviceAccountToken path that is absolute or contains ..',
      find: m => tokenPathFindings(templates(m)),
    },
    {
      id: 'sysctl',
      release: '1.8',
      change: 'refuses',
      what: 'a net.* sysctl with hostNetwork, or an IPC sysctl (kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.*) with hostIPC',
      find: m => hostSysctlFindings(templates(m)),
    },
    {
      id: 'procMount',
      release: '1.8',
      change: 'refuses',
      what: 'procMount Unmasked in a pod without hostUsers: false',
      find: m => procMountFindings(templates(m)),
    },
    {
      id: 'labelKeys',
      release: '1.8',
      change: 'refuses',
      what: 'matchLabelKeys or mismatchLabelKeys of a pod affinity term that are no label keys, come without a labelSelector, or share a key',
      find: m => labelKeysFindings(templates(m)),
    },
    {
      id: 'resizeNever',
      release: '1.8',
      change: 'refuses',
      what: 'a container resizePolicy that restarts the container, in a pod with restartPolicy Never',
      find: m => resizeNeverFindings(templates(m)),
    },
    {
      id: 'policies',
      release: '1.9',
      change: 'refuses',
      what: 'a seLinuxChangePolicy or supplementalGroupsPolicy of the pod that is not one of its values',
      find: m => securityPolicyFindings(templates(m)),
    },
    {
      id: 'imageVolume',
      release: '1.9',
      change: 'refuses',
      what: 'an image volume without a pullPolicy, or a mount of one with a subPath',
      find: m => imageVolumeFindings(templates(m)),
    },
    {
      id: 'claimEntry',
      release: '1.9',
      change: 'accepts',
      what: 'a resourceClaims entry that names its claim in the entry (resourceClaimName, resourceClaimTemplateName)',
      find: m => claimFindings(templates(m), 'entry'),
    },
    {
      id: 'claimSource',
      release: '1.9',
      change: 'refuses',
      what: 'a resourceClaims entry that names its claim in source',
      find: m => claimFindings(templates(m), 'source'),
    },
  ];
  return rules.filter(r => !(o.sidecars && podOnly.has(r.id)) && (!o.ephemeral || ephemeral.has(r.id)))
    .map(({ id: _id, ...rule }) => ({ ...rule, find: (m: Manifest, ctx: AdmissionContext) => declaredStricter(templates(m), rule.find(m, ctx)) }));
}

/** The findings in a template that its kind's webhook does not judge, saying so (`PodTemplateAt.stricter`). */
function declaredStricter(templates: PodTemplateAt[], found: Array<Finding | string>): Array<Finding | string> {
  const marked = templates.filter(t => t.stricter);
  if (marked.length === 0) return found;
  return found.map(f => {
    if (typeof f === 'string') return f;
    const t = marked.find(x => f.field === x.specPath || f.field.startsWith(`${x.specPath}.`));
    return t && !/admits it, but/.test(f.problem) ? { ...f, problem: stricterProblem(f.problem, t.stricter!.who, t.stricter!.why) } : f;
  });
}

/** The Kubernetes minor whose libraries the target's OpenKruise release judges pod templates with. */
export function kubernetesLibrariesOf(ctx: AdmissionContext): string | undefined {
  return targetRelease(ctx.target ?? defaultTarget(), 'openkruise').release.line.kubernetesLibraries;
}

/** Whether the context targets OpenKruise `version` or newer. */
export const openKruiseHas = (ctx: AdmissionContext, version: string): boolean => targetHas(ctx, 'openkruise', version);

/** One field of a pod template that the Kubernetes types of releases before `since` lack. */
interface LaterPodField {
  readonly field: string;
  readonly value: unknown;
  /** The first OpenKruise line whose Kubernetes types have it. */
  readonly since: string;
  /** What ignoring it does to the pods. */
  readonly consequence: string;
  /** The fix, when keeping it for the newer release is none. */
  readonly fix?: string;
}

const NEVER = 'its pods never get it';

/**
 * The fields of a pod spec that the Kubernetes types of older releases lack
 * (k8s.io/api core/v1 of v0.28.9, v0.30.10 and v0.32.10): 1.8 adds the sleep
 * action, recursiveReadOnly mounts, appArmorProfile, the label keys of pod
 * affinity terms, clusterTrustBundle projections and a claim template's
 * volumeAttributesClassName; 1.9 pod-level resources, seLinuxChangePolicy,
 * supplementalGroupsPolicy, image volumes and the request of a container's
 * resource claim.
 */
function laterPodFields(spec: Json, at: string): LaterPodField[] {
  const out: LaterPodField[] = [];
  const add = (field: string, value: unknown, since: string, consequence = NEVER, fix?: string) => {
    if (value !== undefined) out.push({ field, value, since, consequence, fix });
  };
  for (const { c, at: cat } of containersOf(spec, at)) {
    if (isObject(c.lifecycle)) {
      for (const h of ['postStart', 'preStop']) {
        const handler = c.lifecycle[h];
        // a sleep alone is an error on those releases (the handler has no action), not a warning
        if (isObject(handler) && ACTIONS.some(k => handler[k] !== undefined)) {
          add(`${cat}.lifecycle.${h}.sleep`, handler.sleep, '1.8', 'the handler runs its other action only',
            'remove it: from OpenKruise 1.8 a handler with a sleep and another action is refused');
        }
      }
    }
    list(c.volumeMounts).forEach((m, j) => { if (isObject(m)) add(`${cat}.volumeMounts[${j}].recursiveReadOnly`, m.recursiveReadOnly, '1.8'); });
    if (isObject(c.securityContext)) add(`${cat}.securityContext.appArmorProfile`, c.securityContext.appArmorProfile, '1.8');
    if (isObject(c.resources)) list(c.resources.claims).forEach((r, j) => { if (isObject(r)) add(`${cat}.resources.claims[${j}].request`, r.request, '1.9'); });
  }
  const sc = spec.securityContext;
  if (isObject(sc)) {
    add(`${at}.securityContext.appArmorProfile`, sc.appArmorProfile, '1.8');
    add(`${at}.securityContext.seLinuxChangePolicy`, sc.seLinuxChangePolicy, '1.9');
    add(`${at}.securityContext.supplementalGroupsPolicy`, sc.supplementalGroupsPolicy, '1.9');
  }
  for (const { term, at: tat } of affinityTerms(spec, at)) {
    add(`${tat}.matchLabelKeys`, term.matchLabelKeys, '1.8', 'the term selects without them');
    add(`${tat}.mismatchLabelKeys`, term.mismatchLabelKeys, '1.8', 'the term selects without them');
  }
  list(spec.volumes).forEach((v, i) => {
    if (!isObject(v)) return;
    const vat = `${at}.volumes[${i}]`;
    if (isObject(v.projected)) list(v.projected.sources).forEach((src, j) => { if (isObject(src)) add(`${vat}.projected.sources[${j}].clusterTrustBundle`, src.clusterTrustBundle, '1.8'); });
    if (isObject(v.ephemeral) && isObject(v.ephemeral.volumeClaimTemplate) && isObject(v.ephemeral.volumeClaimTemplate.spec)) {
      add(`${vat}.ephemeral.volumeClaimTemplate.spec.volumeAttributesClassName`, v.ephemeral.volumeClaimTemplate.spec.volumeAttributesClassName, '1.8');
    }
    // a volume of no other source becomes an emptyDir: the template defaults give one to a volume without a source they know
    const alone = Object.keys(v).filter(k => k !== 'name').length === 1;
    add(`${vat}.image`, v.image, '1.9', alone ? 'its pods get an empty emptyDir volume in its place' : NEVER);
  });
  add(`${at}.resources`, spec.resources, '1.9');
  return out;
}

/**
 * The warnings of the pod-template fields the target's release ignores: its
 * Kubernetes types lack them, so the webhooks decode the template without
 * them and the controllers create pods without them.
 */
export function podTemplateFieldWarnings(templates: PodTemplateAt[], ctx: AdmissionContext): string[] {
  const out: string[] = [];
  for (const { spec, at } of specsOf(templates)) {
    for (const f of laterPodFields(spec, at)) {
      if (!openKruiseHas(ctx, f.since)) out.push(ignoredPodFieldLine(ctx, f.field, f.value, f.since, f.consequence, f.fix));
    }
  }
  return out;
}

/** A warning line: a pod-template field the target's release ignores, which `since` has. */
export function ignoredPodFieldLine(ctx: AdmissionContext, field: string, value: unknown, since: string, consequence: string, fix?: string): string {
  const t = targetRelease(ctx.target ?? defaultTarget(), 'openkruise');
  const libraries = t.release.line.kubernetesLibraries;
  return fieldError(field, value,
    `is ignored by ${releaseName(t.release)}, whose Kubernetes ${libraries} pod types have no such field, so ${consequence} (${PRODUCT_NAME.openkruise} ${since} has it); ${targetNote(t)}`,
    fix ?? advice(`remove it, or keep it for when the cluster runs ${PRODUCT_NAME.openkruise} ${since} (it takes effect then)`,
      `leave unset the prop that writes it, or keep it for when the cluster runs ${PRODUCT_NAME.openkruise} ${since} (it takes effect then)`));
}
