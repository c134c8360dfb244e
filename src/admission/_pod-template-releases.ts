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
import { fieldError } from '../validation/field-error';
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
}

/** Where a kind's pod templates are in an object (the defaulted one for rules, the one as written for warnings). */
export type PodTemplates = (manifest: Manifest) => PodTemplateAt[];

/** A list as the rules read it (anything else is the base rules' to report). */
const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/** Every container of a pod spec with its path: init containers first, as the webhook walks them. */
export function containersOf(spec: Json, specPath: string): Array<{ c: Json; at: string; init: boolean }> {
  const out: Array<{ c: Json; at: string; init: boolean }> = [];
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

/**
 * The release rules of pod templates, for a kind whose templates `templates`
 * finds on the defaulted object: add them to the kind's `releaseRules`.
 */
export function podTemplateReleaseRules(templates: PodTemplates): ReleaseRule[] {
  return [{
    release: '1.9',
    change: 'accepts',
    what: 'a container port without hostPort in a pod template with hostNetwork',
    find: m => hostNetworkPortFindings(templates(m).filter(t => !t.sidecars)),
  }];
}

/** The Kubernetes minor whose libraries the target's OpenKruise release judges pod templates with. */
export function kubernetesLibrariesOf(ctx: AdmissionContext): string | undefined {
  return targetRelease(ctx.target ?? defaultTarget(), 'openkruise').release.line.kubernetesLibraries;
}

/** Whether the context targets OpenKruise `version` or newer. */
export const openKruiseHas = (ctx: AdmissionContext, version: string): boolean => targetHas(ctx, 'openkruise', version);

/** A warning line: a pod-template field the target's release ignores, which `since` has. */
export function ignoredPodFieldLine(ctx: AdmissionContext, field: string, value: unknown, since: string, consequence: string): string {
  const t = targetRelease(ctx.target ?? defaultTarget(), 'openkruise');
  const libraries = t.release.line.kubernetesLibraries;
  return fieldError(field, value,
    `is ignored by ${releaseName(t.release)}, whose Kubernetes ${libraries} pod types have no such field, so ${consequence} (${PRODUCT_NAME.openkruise} ${since} has it); ${targetNote(t)}`,
    advice(`remove it, or keep it for when the cluster runs ${PRODUCT_NAME.openkruise} ${since} (it takes effect then)`,
      `leave unset the prop that writes it, or keep it for when the cluster runs ${PRODUCT_NAME.openkruise} ${since} (it takes effect then)`));
}
