/**
 * Our admission's verdict beside a real webhook's, sorted once for every
 * judge of the tier (the v1.9.1 manager, the rollout manager, the older
 * releases): a difference is excused only by a case's `stricter` (we refuse
 * on purpose what the webhook admits) or `clusterSkip` (the webhook cannot
 * judge it here); any other is a disagreement.
 */
import * as fs from 'fs';
import * as path from 'path';

/** One case as both sides judged it. */
export interface Verdict {
  readonly id: string;
  /** The object, as `describeObject` names it. */
  readonly object: string;
  readonly ours: { readonly allowed: boolean; readonly message?: string };
  readonly webhook: { readonly allowed: boolean; readonly status: number; readonly message?: string };
  readonly stricter?: string;
  readonly clusterSkip?: string;
}

/** The verdicts sorted: what differs, what is excused and why, what disagrees. */
export interface Tally {
  readonly verdicts: Verdict[];
  readonly differ: Verdict[];
  readonly stricter: Verdict[];
  readonly skipped: Verdict[];
  readonly disagree: Verdict[];
}

/**
 * Sort the verdicts, print each difference and a one-line tally headed
 * `label`, and write them to .cache/cluster-tier/`file` (with `extra`
 * fields).
 */
export function tally(label: string, file: string, verdicts: Verdict[], extra: Record<string, unknown> = {}): Tally {
  const differ = verdicts.filter(v => v.ours.allowed !== v.webhook.allowed);
  const stricter = differ.filter(v => v.stricter && !v.ours.allowed && v.webhook.allowed);
  const skipped = differ.filter(v => v.clusterSkip && !stricter.includes(v));
  const disagree = differ.filter(v => !stricter.includes(v) && !skipped.includes(v));
  const out = path.resolve(__dirname, '..', '..', '.cache', 'cluster-tier', file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ ...extra, cases: verdicts.length, stricter, skipped, disagree, verdicts }, null, 2));
  for (const v of differ) {
    const why = stricter.includes(v) ? ` (stricter on purpose: ${v.stricter})` : skipped.includes(v) ? ` (cluster skip: ${v.clusterSkip})` : '';
    console.log(`${label}: ${v.id} ${v.object}: ours ${v.ours.allowed ? 'allow' : 'deny'}${v.ours.message ? ` "${v.ours.message}"` : ''}, `
      + `webhook ${v.webhook.allowed ? 'allow' : 'deny'} (HTTP ${v.webhook.status})${v.webhook.message ? ` "${v.webhook.message}"` : ''}${why}`);
  }
  const denied = verdicts.filter(v => !v.ours.allowed && !v.webhook.allowed).length;
  console.log(`${label}: ${verdicts.length} cases, ${verdicts.length - differ.length} agree (${denied} refused by both), ${stricter.length} stricter-on-purpose, `
    + `${skipped.length} cluster-skip, ${disagree.length} disagree (written to ${out})`);
  return { verdicts, differ, stricter, skipped, disagree };
}

/** A disagreement as a line for the test's failure. */
export function disagreementLine(v: Verdict): string {
  return `${v.id}: ours ${v.ours.allowed} "${v.ours.message ?? ''}", webhook ${v.webhook.allowed} (HTTP ${v.webhook.status}) "${v.webhook.message ?? ''}"`;
}
