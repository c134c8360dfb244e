/**
 * BatchRelease (rollouts.kruise.io). Kruise Rollouts has no webhook for it:
 * the only admission a BatchRelease meets is the conversion webhook, since
 * the CRD stores v1beta1. A v1alpha1 object is converted by reading its
 * workload through `spec.targetReference.workloadRef`, which the schema does
 * not require; without it the conversion fails (rollouts v0.5.5
 * api/v1alpha1/conversion.go:313, v0.6.2: 323) and the API server refuses
 * the object. v1beta1 objects need no conversion.
 */
import { AdmissionModule, Manifest } from './types';
import { fieldError } from '../validation/field-error';

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

function conversionErrors(m: Manifest): string[] {
  if (m.apiVersion !== 'rollouts.kruise.io/v1alpha1') return [];
  const ref = isObject(m.spec?.targetReference) ? m.spec.targetReference.workloadRef : undefined;
  if (isObject(ref)) return [];
  return [fieldError('spec.targetReference.workloadRef', ref,
    'is required: Kruise Rollouts stores a BatchRelease as v1beta1, and its conversion webhook fails on a v1alpha1 one without the workload it releases, so the API server refuses it',
    'name the workload (apiVersion, kind and name), or write the BatchRelease as rollouts.kruise.io/v1beta1 with spec.workloadRef')];
}

/** The BatchRelease admission: the conversion webhook's (no validating webhook). */
export const batchReleaseAdmission: AdmissionModule = {
  group: 'rollouts.kruise.io',
  kind: 'BatchRelease',
  versions: ['v1alpha1', 'v1beta1'],
  validate: m => conversionErrors(m),
};
