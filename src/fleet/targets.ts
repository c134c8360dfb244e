/**
 * References from a policy (WorkloadSpread, PodUnavailableBudget) to the
 * workload it governs.
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { WorkloadRef } from '../workload-ref';

/** The reference and namespace of a target workload. */
export interface ResolvedTarget {
  readonly ref: WorkloadRef;
  /** Namespace of the target, when it is a construct of the app (`undefined` for raw refs). */
  readonly namespace?: string;
  /** The wire form of the target, when it is a construct of the app. */
  readonly json?: any;
}

/** Resolve `target` (a construct) or `ref` (raw) to a reference; undefined when neither is given. */
export function resolveTarget(target: kplus.Workload | undefined, ref: WorkloadRef | undefined): ResolvedTarget | undefined {
  if (target) {
    const obj = ApiObject.of(target);
    const json = obj.toJson();
    return { ref: { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.name }, namespace: json.metadata?.namespace ?? 'default', json };
  }
  return ref ? { ref } : undefined;
}

/** The target's namespace at construction time (for defaulting the policy's namespace). */
export function targetNamespace(target: kplus.Workload | undefined): string | undefined {
  return target ? ApiObject.of(target).metadata.namespace : undefined;
}
