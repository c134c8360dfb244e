/**
 * How nodes/6-plan judges the update plan against the real controllers: each
 * golden case in a namespace of its own, the cases grouped by the feature gates
 * their control plane runs with, and what moved between two sets of pods.
 */
import { Manifest } from './kube';
import { GoldenCase } from '../fixtures/plan-golden';

/**
 * The case's objects in its own namespace. A SidecarSet (cluster-scoped)
 * selects only that namespace and is named after it, so no case meets
 * another's.
 */
export function inNamespace(objects: Manifest[], ns: string): Manifest[] {
  return objects.map(o => {
    const m = JSON.parse(JSON.stringify(o));
    if (m.kind === 'SidecarSet') {
      m.spec.namespace = ns;
      m.metadata.name = `${m.metadata.name}-${ns}`;
    } else {
      m.metadata.namespace = ns;
    }
    return m;
  });
}

/** The golden cases by their feature gates (one control plane per group), keyed by the gates as JSON. */
export function casesByGates(cases: GoldenCase[]): Map<string, GoldenCase[]> {
  const groups = new Map<string, GoldenCase[]>();
  for (const c of cases) {
    const key = JSON.stringify(c.featureGates ?? {});
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return groups;
}

/** A pod as the comparison needs it: identity, revision and owner. */
export interface JudgedPod {
  readonly name: string;
  readonly uid: string;
  readonly revision: string;
}

/** What the controllers did to one group of pods (a workload, or a subset). */
export interface Observed {
  readonly podsUpdated: number;
  readonly podsOnOldRevision: number;
  readonly kept: number;
  readonly recreated: number;
  readonly updatedNames: string[];
  readonly keptNames: string[];
}

/** Compare pods before and after: moved pods (new UID or new revision) and pods not on their workload's update revision. */
export function observe<P extends JudgedPod>(before: P[], after: P[], updateRevisionOf: (p: P) => string): Observed {
  const byUid = new Map(before.map(p => [p.uid, p]));
  const moved = after.filter(p => !byUid.has(p.uid) || byUid.get(p.uid)!.revision !== p.revision);
  return {
    podsUpdated: moved.length,
    podsOnOldRevision: after.filter(p => p.revision !== updateRevisionOf(p)).length,
    kept: moved.filter(p => byUid.has(p.uid)).length,
    recreated: moved.filter(p => !byUid.has(p.uid)).length,
    updatedNames: moved.map(p => p.name).sort(),
    keptNames: after.filter(p => !moved.includes(p)).map(p => p.name).sort(),
  };
}

/** The ordinals of StatefulSet pod names, highest first. */
export const ordinals = (names: string[]) => names.map(n => Number(n.slice(n.lastIndexOf('-') + 1))).sort((a, b) => b - a);
