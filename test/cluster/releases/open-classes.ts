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

export const OPEN_CLASSES: readonly OpenClass[] = [
  {
    id: 'version-change-keeps-old-fields',
    releases: /^openkruise-/,
    change: /apiVersion = "apps\.kruise\.io\/v1alpha1"/,
    refusedBy: 'ours',
    refusal: /is not a field of spec; remove it/,
    why: 'an update that changes apiVersion keeps a field only the old version serves, unchanged since the last apply: kubectl\'s merge patch leaves it out, '
      + 'so the API server, reading the stored object in the new version (pruned), finds no unknown field and admits the update, which drops the field; '
      + 'check judges the manifest as a whole and refuses the field',
  },
  {
    id: 'status-without-write-back',
    releases: /^openkruise-1\.[78]/,
    change: /status = /,
    refusedBy: 'ours',
    refusal: /status\.\w+: \(unset\) is required: the \w+ webhook writes its Go zero values back only/,
    why: 'an update with a status the manifest gives: the API server drops the status of a kind with a status subresource before the webhook and the schema see it; '
      + 'check asks the status\'s required fields on an update where the webhook writes nothing back',
  },
  {
    id: 'sidecar-set-namespace-selector-label-value',
    releases: /^openkruise-1\.[78]/,
    change: /spec\.namespace = /,
    refusedBy: 'ours',
    refusal: /namespaceSelector\.matchLabels\["kubernetes\.io\/metadata\.name"\]/,
    why: 'a v1alpha1 SidecarSet spec.namespace longer than a label value: check judges it as the namespace selector 1.9 converts it to, which 1.7 and 1.8 do not build',
  },
];

/** The open class a generated disagreement of release `key` is, if any. */
export function openClassOf(key: string, v: GenVerdict): OpenClass | undefined {
  if (v.crashed) return undefined;
  const refusedBy = !v.cluster.allowed && v.ours.allowed ? 'cluster' : !v.ours.allowed && v.cluster.allowed ? 'ours' : undefined;
  if (!refusedBy) return undefined;
  const message = (refusedBy === 'ours' ? v.ours.message : v.cluster.message) ?? '';
  return OPEN_CLASSES.find(c => c.releases.test(key) && c.refusedBy === refusedBy && c.refusal.test(message)
    && v.changes.some(ch => c.change.test(ch)));
}
