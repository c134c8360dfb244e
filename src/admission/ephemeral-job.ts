/**
 * EphemeralJob admission (apps.kruise.io/v1alpha1; no mutating webhook
 * upstream, so nothing is defaulted). Only spec.template.ephemeralContainers
 * is checked, as upstream does.
 *
 * Rules, per ephemeral container: a DNS-1123 label name, unique in the list;
 * an image without surrounding whitespace; terminationMessagePolicy and
 * imagePullPolicy set (nothing defaults them) to supported values; env and
 * envFrom as for any container; securityContext as for any container; none
 * of the fields an ephemeral container may not have (ports, resources,
 * resizePolicy, restartPolicy, the probes, lifecycle); no subPath or
 * subPathExpr on a volume mount.
 *
 * Note: the OpenKruise Helm chart does not register this webhook, so a
 * cluster installed with it may admit what is refused here.
 *
 * Skipped: nothing needs cluster state and there is no update-only rule.
 * Upstream checks neither metadata nor selector, replicas, parallelism,
 * deadlines, targetContainerName, nor the volume names of mounts (they name
 * volumes of the target pods).
 */
import { PodTemplateAt, podTemplateFieldWarnings, podTemplateReleaseRules } from './_pod-template-releases';
import { AdmissionModule, Manifest } from './types';
import { fieldError } from '../validation/field-error';
import { dns1123LabelProblems, envVarNameProblems } from '../validation/names';
import { TemplateProblem, containerListShapeProblems, containerSecurityProblems, envProblems } from '../validation/pod-template';

type Json = Record<string, any>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
/** Container fields an ephemeral container may not set. */
export const EPHEMERAL_FORBIDDEN_FIELDS = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

/** Whether a field holds something (an empty list or object counts as unset, as in Go). */
const nonEmpty = (v: unknown): boolean => {
  if (v === undefined || v === null || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return true;
};

/** The EphemeralJob rules, as problems. */
export function ephemeralJobProblems(manifest: Manifest): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: string, value: unknown, problem: string, fix: string) => out.push({ field, value, problem, fix });
  const t: Json = isObject(manifest.spec) && isObject(manifest.spec.template) ? manifest.spec.template : {};
  // the CRD leaves the list untyped; the webhook decodes it into []EphemeralContainer
  const shape = containerListShapeProblems(t.ephemeralContainers, 'spec.template.ephemeralContainers', 'EphemeralJob');
  if (shape.length > 0) return shape;
  const list: unknown[] = Array.isArray(t.ephemeralContainers) ? t.ephemeralContainers : [];
  const names = new Map<string, number>();
  list.forEach((raw, i) => {
    const k: Json = isObject(raw) ? raw : {};
    const at = `spec.template.ephemeralContainers[${i}]`;
    const name = typeof k.name === 'string' ? k.name : '';
    if (name === '') {
      add(`${at}.name`, k.name, 'is required', 'name the ephemeral container');
    } else {
      for (const p of dns1123LabelProblems(name)) add(`${at}.name`, name, p, 'rename the ephemeral container, e.g. debugger');
      const first = names.get(name);
      if (first !== undefined) add(`${at}.name`, name, `is also the name of ephemeralContainers[${first}]`, 'give every ephemeral container its own name');
      else names.set(name, i);
    }
    const image = typeof k.image === 'string' ? k.image : '';
    if (image.trim() === '') add(`${at}.image`, k.image, 'is required', 'give the image to run, e.g. busybox:1.36');
    else if (image !== image.trim()) add(`${at}.image`, image, 'has leading or trailing whitespace', 'remove the spaces around the image name');
    if (!TERMINATION_MESSAGE_POLICIES.includes(k.terminationMessagePolicy)) {
      add(`${at}.terminationMessagePolicy`, k.terminationMessagePolicy, k.terminationMessagePolicy === undefined ? 'is required (nothing defaults it for an EphemeralJob)' : 'is not supported',
        'set File or FallbackToLogsOnError');
    }
    if (!PULL_POLICIES.includes(k.imagePullPolicy)) {
      add(`${at}.imagePullPolicy`, k.imagePullPolicy, k.imagePullPolicy === undefined ? 'is required (nothing defaults it for an EphemeralJob)' : 'is not supported',
        'set Always, IfNotPresent or Never');
    }
    out.push(...envProblems(k.env, at));
    // no mutating webhook defaults a field selector's apiVersion here, and validateObjectFieldSelector requires it
    // (pkg/apis/core/validation/validation.go of Kubernetes v1.28.9 to v1.32.10, called for each env var)
    (Array.isArray(k.env) ? k.env : []).forEach((e: unknown, j: number) => {
      const ref = isObject(e) && isObject(e.valueFrom) && isObject(e.valueFrom.fieldRef) ? e.valueFrom.fieldRef : undefined;
      if (ref && (typeof ref.apiVersion !== 'string' || ref.apiVersion === '')) {
        add(`${at}.env[${j}].valueFrom.fieldRef.apiVersion`, ref.apiVersion, 'is required (nothing defaults it for an EphemeralJob)', 'set apiVersion: v1');
      }
    });
    (Array.isArray(k.envFrom) ? k.envFrom : []).forEach((e: Json, j: number) => {
      const here = `${at}.envFrom[${j}]`;
      const srcs = ['configMapRef', 'secretRef'].filter(src => isObject(e) && e[src] !== undefined);
      if (srcs.length !== 1) add(here, srcs, srcs.length === 0 ? 'has no source' : 'sets more than one source', 'set exactly one of configMapRef, secretRef');
      if (isObject(e) && typeof e.prefix === 'string' && e.prefix !== '') {
        for (const p of envVarNameProblems(e.prefix)) add(`${here}.prefix`, e.prefix, p, 'use a prefix that forms valid variable names');
      }
    });
    out.push(...containerSecurityProblems(isObject(k.securityContext) ? k.securityContext : undefined, at));
    // validateFieldAllowList compares each Go field with its zero value: a pointer (a probe, lifecycle, restartPolicy) or a
    // list (ports, resizePolicy) is set when given at all, {} and [] too; resources, a struct, when one of its fields is,
    // {limits: {}} too (pkg/webhook/ephemeraljob/validating/validation.go:199 of v1.9.1, the same in v1.7.4 and v1.8.4)
    for (const f of EPHEMERAL_FORBIDDEN_FIELDS) {
      const v = k[f];
      const set = f === 'resources' ? isObject(v) && Object.values(v).some(x => x !== undefined && x !== null) : v !== undefined && v !== null;
      if (set) add(`${at}.${f}`, v, 'is not allowed in an ephemeral container', `remove ${f}`);
    }
    (Array.isArray(k.volumeMounts) ? k.volumeMounts : []).forEach((m: Json, j: number) => {
      for (const f of ['subPath', 'subPathExpr']) {
        if (isObject(m) && nonEmpty(m[f])) add(`${at}.volumeMounts[${j}].${f}`, m[f], 'is not allowed in an ephemeral container', `mount the whole volume: remove ${f}`);
      }
    });
  });
  return out;
}

/**
 * The ephemeral containers of an EphemeralJob, for the rules of their security
 * context that differ between releases: up to 1.7 the webhook validates it with
 * Kubernetes 1.28's ValidateSecurityContext, from 1.8 with 1.30's, which takes
 * appArmorProfile and refuses procMount Unmasked with hostUsers (true, as the
 * webhook has it: pkg/webhook/ephemeraljob/validating/ephemeraljob_create_update_handler.go:69 of v1.8.4).
 */
function ephemeralContainers(m: Manifest): PodTemplateAt[] {
  const t: Json = isObject(m.spec) && isObject(m.spec.template) ? m.spec.template : {};
  return [{ template: { spec: { ephemeralContainers: t.ephemeralContainers } }, specPath: 'spec.template', ephemeral: true }];
}

/** The EphemeralJob webhook. */
export const ephemeralJobAdmission: AdmissionModule = {
  group: 'apps.kruise.io',
  kind: 'EphemeralJob',
  versions: ['v1alpha1'],
  validate: m => ephemeralJobProblems(m).map(p => fieldError(p.field, p.value, p.problem, p.fix)),
  warnings: (m, ctx) => podTemplateFieldWarnings(ephemeralContainers(m), ctx),
  releaseRules: podTemplateReleaseRules(ephemeralContainers, { ephemeral: true }),
};
