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
    id: 'zero-values-only-when-defaulting-patches',
    releases: /^openkruise-/,
    change: /^spec\.updateStrategy\.scatterStrategy\[\d+\]/,
    refusedBy: 'cluster',
    refusal: /scatterStrategy\[\d+\]\.value: Required value/,
    why: 'the CloneSet mutating webhook answers with its Go types\' zero values (an entry\'s value "") only when its defaults change the object; '
      + 'an update of an object already defaulted gets no patch, so the schema sees the entry without value (kruise pkg/webhook/cloneset/mutating, '
      + 'config/crd/bases/apps.kruise.io_clonesets.yaml: required key and value)',
  },
  {
    id: 'null-reserve-ordinals-item',
    releases: /^openkruise-1\.[789]/,
    change: /^spec\.reserveOrdinals\[\d+\] = null$/,
    refusedBy: 'ours',
    refusal: /reserveOrdinals\[\d+\]: null is neither an integer nor a string/,
    why: 'the API server keeps a null item of an int-or-string list, and the webhook decodes it as the zero value (0); admission refuses it',
  },
  {
    id: 'patch-pod-metadata-whitelist',
    releases: /^openkruise-/,
    change: /^spec\.patchPodMetadata/,
    refusedBy: 'cluster',
    refusal: /SidecarSet patch metadata whitelist not found/,
    why: 'the SidecarSet webhook admits patchPodMetadata annotations only as the cluster\'s whitelist (the kruise-configuration ConfigMap) allows, '
      + 'and a cluster without it refuses every one; admission does not read that ConfigMap yet',
  },
  {
    id: 'unknown-field-in-object-without-properties',
    releases: /^openkruise-/,
    change: /\.metadata = /,
    refusedBy: 'cluster',
    refusal: /strict decoding error: unknown field "[^"]*\.metadata\.[^"]*"/,
    why: 'an object schema that lists no properties and keeps no unknown fields (a job template\'s metadata) prunes every field in it, '
      + 'which strict field validation refuses as unknown; our schemas leave such an object open',
  },
  {
    id: 'image-list-pull-job-selector-after-write-back',
    releases: /^openkruise-1\.9/,
    change: /./,
    refusedBy: 'cluster',
    refusal: /can not set both names and labelSelector in this spec\.selector/,
    why: 'the ImageListPullJob webhook reads the selector after the mutating webhook wrote its zero values back (empty matchExpressions become '
      + 'a selector), so names beside empty expressions are refused; admission judges the selector as written',
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
