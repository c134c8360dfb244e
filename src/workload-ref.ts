/** A workload referenced by apiVersion, kind and name (for kinds without a construct, such as a ReplicaSet). */
export interface WorkloadRef {
  /** apiVersion, e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** kind, e.g. `ReplicaSet`. */
  readonly kind: string;
  /** name. */
  readonly name: string;
}
