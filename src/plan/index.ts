/**
 * Update plans: before a change ships, what OpenKruise will do with it.
 */
import type * as Planner from './planner';
import type * as Render from './render';
import type * as Sources from './sources';
import { PlanFormat, PlanReport, UpdatePlanOptions } from './types';

export * from './types';

// The planner, its rules, the renderer and the readers load with the first plan, not with the library.
/* eslint-disable @typescript-eslint/no-require-imports */
const comparePlan: typeof Planner.comparePlan = (...a) => (require('./planner') as typeof Planner).comparePlan(...a);
const renderPlan: typeof Render.renderPlan = (...a) => (require('./render') as typeof Render).renderPlan(...a);
const readDirectory: typeof Sources.readDirectory = (...a) => (require('./sources') as typeof Sources).readDirectory(...a);
const readGitRef: typeof Sources.readGitRef = (...a) => (require('./sources') as typeof Sources).readGitRef(...a);
const readLive: typeof Sources.readLive = (...a) => (require('./sources') as typeof Sources).readLive(...a);
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Compares old and new manifests and tells, for every CloneSet, Advanced
 * StatefulSet, Advanced DaemonSet, UnitedDeployment subset and SidecarSet
 * that changed, whether the pods are updated in place or recreated (and the
 * field that forces it), what the cluster will refuse, and which pods move
 * in which batch.
 *
 * Objects are matched by API group, kind, namespace and name. Templates are
 * compared as the cluster stores them, with the webhook's defaults applied.
 * Errors in the inputs (a missing directory, bad YAML, an unknown git ref
 * or feature gate) throw with a message naming the input and the fix.
 */
export class UpdatePlan {
  /**
   * Plan the change from `oldManifests` to `newManifests` (objects in wire form).
   *
   * @param oldManifests what the cluster runs now (synthesized or live objects)
   * @param newManifests what is about to be applied
   * @param options feature gates, DaemonSet node count, default namespace
   */
  public static compare(oldManifests: any[], newManifests: any[], options: UpdatePlanOptions = {}): PlanReport {
    return comparePlan(oldManifests, newManifests, options);
  }

  /**
   * Plan the change between two directories of synthesized manifests.
   *
   * @param oldDir directory of the manifests running now
   * @param newDir directory of the manifests about to be applied
   * @param options feature gates, DaemonSet node count, default namespace
   */
  public static fromDirectories(oldDir: string, newDir: string, options: UpdatePlanOptions = {}): PlanReport {
    return comparePlan(readDirectory(oldDir, 'old directory'), readDirectory(newDir, 'new directory'), { newManifestsDir: newDir, ...options });
  }

  /**
   * Plan the change from the manifests committed under `dir` at git `ref` to
   * the files in `dir` now (run inside the app's repository).
   *
   * @param ref a commit, branch or tag, e.g. `origin/main`
   * @param dir the synth output directory, relative to the working directory
   * @param options feature gates, DaemonSet node count, default namespace
   */
  public static fromGitRef(ref: string, dir: string, options: UpdatePlanOptions = {}): PlanReport {
    return comparePlan(readGitRef(ref, dir), readDirectory(dir, 'directory'), { newManifestsDir: dir, ...options });
  }

  /**
   * Every manifest under a directory (`*.yaml`, `*.yml`, `*.json`, recursively).
   *
   * @param dir the directory
   */
  public static readDirectory(dir: string): any[] {
    return readDirectory(dir);
  }

  /**
   * Every manifest under `dir` as committed at git `ref`.
   *
   * @param ref a commit, branch or tag
   * @param dir a directory relative to the working directory
   */
  public static readGitRef(ref: string, dir: string): any[] {
    return readGitRef(ref, dir);
  }

  /**
   * Live objects saved with `kubectl get ... -o json` (a List or one object).
   *
   * @param file the JSON file
   */
  public static readLiveObjects(file: string): any[] {
    return readLive(file);
  }

  /**
   * The plan as a terminal table, markdown or JSON.
   *
   * @param report the plan
   * @param format how to print it
   */
  public static render(report: PlanReport, format: PlanFormat = PlanFormat.TABLE): string {
    return renderPlan(report, format);
  }

  private constructor() {}
}
