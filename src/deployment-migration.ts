/**
 * Moving a running Deployment's pods to a CloneSet, one committed step at a time.
 */

/** Props of a `DeploymentMigration`. */
export interface DeploymentMigrationProps {
  /** Pods the Deployment runs now; the CloneSet runs as many at the end. */
  readonly replicas: number;

  /**
   * Pods that may be unavailable at once while the pods move: the budget
   * (`replicas - minAvailable` of a PodUnavailableBudget or
   * PodDisruptionBudget selecting both workloads' pods). With 0 no step
   * scales the Deployment down before the CloneSet pods that replace them
   * are ready.
   *
   * @default 0
   */
  readonly maxUnavailable?: number;

  /**
   * Pods that may run beyond `replicas` at once (pods being deleted count
   * until they are gone), so the migration never runs more than
   * `replicas + maxSurge` pods.
   *
   * @default 1
   */
  readonly maxSurge?: number;
}

/** One step of a `DeploymentMigration`: the replica counts to commit. */
export interface DeploymentMigrationStep {
  /** The step number: 0 is the state before the migration (the Deployment alone). */
  readonly step: number;
  /** `spec.replicas` of the CloneSet (0 at step 0: leave the CloneSet out, or write 0). */
  readonly cloneSetReplicas: number;
  /** `spec.replicas` of the Deployment (0 once every pod has moved). */
  readonly deploymentReplicas: number;
  /** Whether the Deployment is gone from the manifests at this step (the last step). */
  readonly deleteDeployment: boolean;
  /** The most pods that run while the cluster goes from the previous step to this one. */
  readonly peakPods: number;
  /** The fewest ready pods while the cluster goes from the previous step to this one, when the previous step had finished. */
  readonly minReadyPods: number;
  /** What to wait for before committing the next step. */
  readonly waitFor: string;
}

/**
 * The steps that move a Deployment's pods to a CloneSet without dropping
 * below a budget, as a GitOps user commits them: each step is a pair of
 * replica counts written into the manifests (the CloneSet scales up while
 * the Deployment scales down, the Service selecting both), and the last
 * step removes the Deployment, by then at 0 pods. Nothing is kept in
 * memory: the step number is what you commit (in code or in the app's
 * context), so a restart between steps changes nothing, and `stepOf()`
 * finds the step a cluster is at from its live replica counts. A CloneSet
 * never adopts pods it does not own, so the pods move by scaling, never by
 * adoption.
 *
 * ```ts
 * const migration = new DeploymentMigration({ replicas: 6, maxUnavailable: 1 });
 * const step = migration.step(Number(app.node.tryGetContext('web-step') ?? 0));
 * if (!step.deleteDeployment) new kplus.Deployment(chart, 'web', { replicas: step.deploymentReplicas, ... });
 * new CloneSet(chart, 'web-cs', { replicas: step.cloneSetReplicas, ... });
 * ```
 */
export class DeploymentMigration {
  /** Pods the Deployment runs at the start, and the CloneSet at the end. */
  public readonly replicas: number;
  /** Pods that may be unavailable at once. */
  public readonly maxUnavailable: number;
  /** Pods that may run beyond `replicas` at once. */
  public readonly maxSurge: number;
  /** Every step, from 0 (before) to `lastStep` (the Deployment deleted). */
  public readonly steps: DeploymentMigrationStep[];

  public constructor(props: DeploymentMigrationProps) {
    const where = 'DeploymentMigration';
    const whole = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
    if (!whole(props.replicas) || props.replicas < 1) {
      throw new Error(`${where}: replicas ${JSON.stringify(props.replicas)} is not a pod count; pass the Deployment's spec.replicas, 1 or more`);
    }
    const maxUnavailable = props.maxUnavailable ?? 0;
    const maxSurge = props.maxSurge ?? 1;
    if (!whole(maxUnavailable) || maxUnavailable >= props.replicas) {
      throw new Error(`${where}: maxUnavailable ${JSON.stringify(props.maxUnavailable)} must be a whole number below replicas (${props.replicas}); it is how many pods may be unavailable at once`);
    }
    if (!whole(maxSurge) || maxSurge > props.replicas) {
      throw new Error(`${where}: maxSurge ${JSON.stringify(props.maxSurge)} must be a whole number from 0 to replicas (${props.replicas}); it is how many pods may run beyond replicas`);
    }
    if (maxSurge === 0 && maxUnavailable === 0) {
      throw new Error(`${where}: maxSurge and maxUnavailable are both 0, so no pod could ever move; allow one extra pod (maxSurge: 1) or one unavailable pod (maxUnavailable: 1)`);
    }
    this.replicas = props.replicas;
    this.maxUnavailable = maxUnavailable;
    this.maxSurge = maxSurge;
    this.steps = _migrationSteps(props.replicas, maxUnavailable, maxSurge);
  }

  /** The number of the last step (the Deployment deleted). */
  public get lastStep(): number {
    return this.steps.length - 1;
  }

  /**
   * The replica counts to commit at step `k`.
   *
   * @param k the step, from 0 to `lastStep`
   */
  public step(k: number): DeploymentMigrationStep {
    if (!Number.isInteger(k) || k < 0 || k > this.lastStep) {
      throw new Error(`DeploymentMigration.step(${JSON.stringify(k)}): there are steps 0 to ${this.lastStep} for ${this.replicas} pods (maxUnavailable ${this.maxUnavailable}, maxSurge ${this.maxSurge}); pass one of them`);
    }
    return this.steps[k];
  }

  /**
   * The step a cluster is at, from its live replica counts (`spec.replicas`
   * of each; the Deployment's is undefined once it is deleted): the next
   * step to commit is this one plus one, once `waitFor` of this step holds.
   *
   * @param cloneSetReplicas the CloneSet's replicas (0 when it does not exist yet)
   * @param deploymentReplicas the Deployment's replicas (undefined when it is gone)
   * @returns the step, or undefined when the counts are no step of this migration
   */
  public stepOf(cloneSetReplicas: number, deploymentReplicas?: number): number | undefined {
    const i = this.steps.findIndex(s => s.cloneSetReplicas === cloneSetReplicas
      && (deploymentReplicas === undefined ? s.deleteDeployment : !s.deleteDeployment && s.deploymentReplicas === deploymentReplicas));
    return i < 0 ? undefined : i;
  }
}

/**
 * The steps of a migration of `n` pods: each moves the CloneSet up by what
 * the surge allows and the Deployment down by what the surplus of ready
 * pods and the budget allow, counting a deleted pod until it is gone.
 * @internal
 */
export function _migrationSteps(n: number, maxUnavailable: number, maxSurge: number): DeploymentMigrationStep[] {
  const out: DeploymentMigrationStep[] = [{
    step: 0, cloneSetReplicas: 0, deploymentReplicas: n, deleteDeployment: false, peakPods: n, minReadyPods: n, waitFor: `Deployment: ${n} pods ready`,
  }];
  let c = 0;
  let d = n;
  // each step moves at least one pod (maxSurge or maxUnavailable is >= 1), so 2n + 1 steps bound the loop
  for (let guard = 0; (c < n || d > 0) && guard <= 2 * n + 1; guard++) {
    const surplus = c + d - n;
    const up = Math.min(n - c, maxSurge - surplus);
    const down = Math.min(d, surplus + maxUnavailable);
    const peak = c + up + d;
    const minReady = c + d - down;
    c += up;
    d -= down;
    out.push({
      step: out.length,
      cloneSetReplicas: c,
      deploymentReplicas: d,
      deleteDeployment: false,
      peakPods: peak,
      minReadyPods: minReady,
      waitFor: `CloneSet: ${c} pods ready${d > 0 ? `; Deployment: ${d} pods ready` : ''}`,
    });
  }
  out.push({
    step: out.length,
    cloneSetReplicas: n,
    deploymentReplicas: 0,
    deleteDeployment: true,
    peakPods: n,
    minReadyPods: n,
    waitFor: 'the Deployment (0 pods) is gone from the cluster: pruned by the GitOps engine, or kubectl delete deployment',
  });
  return out;
}
