/**
 * Classes of disagreement the generated cases found that admission does not
 * handle yet, each written as what it is: the side that admits, the words of
 * the refusal, and why the two differ. The release tier prints a generated
 * disagreement of an open class as such (in its report file too) instead of
 * failing on it; any other disagreement fails. A class leaves this list with
 * its fix, as a named case of test/fixtures/admission/found.ts. The list is
 * the "not yet fixed" paragraph of docs/admission.md, as data.
 */
import type { GenVerdict } from './judge';

/** One open class: which disagreements it is, and why they happen. */
export interface OpenClass {
  readonly id: string;
  /** The releases it is seen on (`openkruise-1.9.1`, ...). */
  readonly releases: RegExp;
  /** The cases it is about: a change the generator made. */
  readonly change: RegExp;
  /** Which side refuses, and with which words. */
  readonly refusedBy: 'ours' | 'cluster';
  readonly refusal: RegExp;
  /** Why the two differ, with the released source that decides it. */
  readonly why: string;
}

// none open: the last three (an update that changes apiVersion, a status given on an update, a v1alpha1 SidecarSet
// namespace before 1.9) are fixed, each a named case of found.ts (version-change-keeps-old-fields, status-on-update,
// v1alpha1-namespace)
export const OPEN_CLASSES: readonly OpenClass[] = [];

/** The open class a generated disagreement of release `key` is, if any. */
export function openClassOf(key: string, v: GenVerdict): OpenClass | undefined {
  if (v.crashed) return undefined;
  const refusedBy = !v.cluster.allowed && v.ours.allowed ? 'cluster' : !v.ours.allowed && v.cluster.allowed ? 'ours' : undefined;
  if (!refusedBy) return undefined;
  const message = (refusedBy === 'ours' ? v.ours.message : v.cluster.message) ?? '';
  return OPEN_CLASSES.find(c => c.releases.test(key) && c.refusedBy === refusedBy && c.refusal.test(message)
    && v.changes.some(ch => c.change.test(ch)));
}
