/**
 * Fleet checks: a platform team's policies against the workloads of every
 * app and cluster they act on.
 */
import type * as Engine from './fleet-engine';
import type * as Jobs from './fleet-jobs';
import type * as Render from './fleet-render';
import { FleetCheckInput, FleetCheckPaths, FleetFormat, FleetReport } from './fleet-types';

export * from './fleet-types';

// The engine, the readers and the renderer load with the first check, not with the library.
/* eslint-disable @typescript-eslint/no-require-imports */
const runFleetCheck: typeof Engine.runFleetCheck = (...a) => (require('./fleet-engine') as typeof Engine).runFleetCheck(...a);
const checkFleetPaths: typeof Jobs.checkFleetPaths = (...a) => (require('./fleet-jobs') as typeof Jobs).checkFleetPaths(...a);
const renderFleet: typeof Render.renderFleet = (...a) => (require('./fleet-render') as typeof Render).renderFleet(...a);
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Checks policies against a fleet: for every SidecarSet, WorkloadSpread,
 * PodUnavailableBudget and PersistentPodState under review, the workloads,
 * namespaces and sources (app outputs, clusters) it acts on with their pod
 * counts; for SidecarSets, the containers each workload's pods will have, in
 * the webhook's order; every conflict OpenKruise refuses and every collision
 * with an app container, volume or port, naming both sides. Given the old
 * policies, it also says what the change does: which workloads start or stop
 * being injected or covered, and whether running pods get a sidecar change
 * in place (image-only, by container restart or hot upgrade) or only when
 * they are recreated.
 *
 * Each source keeps its own Namespaces and their labels (a namespace
 * selector matches per cluster); Namespaces among the policies count in
 * every source that does not have its own. A source's own SidecarSets and
 * budgets take part (their conflicts with the policies, their sidecars in
 * the pods); its copy of a policy under review (or of an old one) is the one
 * the change replaces. The cost is linear in the objects read: each
 * workload meets only the policies that can select it.
 */
export class FleetCheck {
  /**
   * Check objects in wire form.
   *
   * @param input the policies, the sources, and the old policies for a change report
   */
  public static run(input: FleetCheckInput): FleetReport {
    return runFleetCheck(input);
  }

  /**
   * Read the files and folders of `paths` and check them (what
   * `cdk8s-kruise fleet` does), a large input in several threads (`jobs`)
   * with the same report as one. Errors in the inputs (a missing folder, bad
   * YAML) throw with a message naming the input and the fix.
   *
   * @param paths the policies, the apps' outputs, the clusters' live objects, the old policies
   */
  public static fromPaths(paths: FleetCheckPaths): FleetReport {
    const { openKruise, kruiseRollouts, jobs } = paths;
    if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) throw new Error(`FleetCheck.fromPaths: jobs ${jobs} is not a whole number of threads: pass 1 or more, or leave jobs out for the cores available`);
    return checkFleetPaths(paths, undefined, { openKruise, kruiseRollouts }, jobs);
  }

  /**
   * The report as a terminal table, markdown (a pull-request comment) or JSON.
   *
   * @param report the report
   * @param format how to print it
   */
  public static render(report: FleetReport, format: FleetFormat = FleetFormat.TABLE): string {
    return renderFleet(report, format);
  }

  /**
   * The exit code of `cdk8s-kruise fleet` for the report, a CI gate: 2 when
   * the cluster refuses part of it, 3 when nothing is refused but a sidecar
   * silently replaces an app container, else 0.
   *
   * @param report the report
   */
  public static exitCode(report: FleetReport): number {
    return report.refused ? 2 : report.replacesAppContainer ? 3 : 0;
  }

  private constructor() {}
}
