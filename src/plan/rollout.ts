/**
 * Rollout arithmetic as the OpenKruise controllers do it: partitions and
 * max-unavailable / max-surge values resolved against the replica count with
 * each controller's parser and rounding (webhook-rules §0.6, §1-3).
 */
import { IntOrPercent, parseKruisePercent, parseUpstreamPercent, scaled } from '../validation/percent';

/**
 * A partition as CloneSet and SidecarSet resolve it: an integer as is; a
 * percentage of `replicas` rounded up, but one pod short of all of them
 * when it rounds up to every pod without being exactly `100%`; then clamped
 * to 0..replicas. Undefined when the value does not parse.
 */
export function partitionReplicas(value: IntOrPercent | undefined, replicas: number): number | undefined {
  if (value === undefined || value === null) return 0;
  const p = parseKruisePercent(value);
  if (!p) return undefined;
  let n = scaled(p, replicas, true);
  if (p.isPercent && replicas > 1 && n >= replicas && value !== '100%') n = replicas - 1;
  return Math.min(Math.max(n, 0), replicas);
}

/**
 * An int-or-percent as the Kubernetes helper the controllers call resolves
 * it (integer percentages only); `undefined` when it does not parse (the
 * controllers then use 0).
 */
export function upstreamValue(value: IntOrPercent | undefined, total: number, roundUp: boolean): number | undefined {
  if (value === undefined || value === null) return undefined;
  const p = parseUpstreamPercent(value);
  return p ? scaled(p, total, roundUp) : undefined;
}

/** `total` pods in steps of at most `size`. */
export function batchesOf(total: number, size: number): number[] {
  const out: number[] = [];
  if (size <= 0) return out;
  for (let left = total; left > 0; left -= size) out.push(Math.min(size, left));
  return out;
}

/** "4 pods in 4 batches of 1" / "5 pods in batches of 2, 2, 1". */
export function describeBatches(batches: number[]): string {
  const total = batches.reduce((a, b) => a + b, 0);
  if (batches.length === 0) return 'no pod';
  const pods = `${total} pod${total === 1 ? '' : 's'}`;
  if (batches.length === 1) return `${pods} at once`;
  if (batches.every(b => b === batches[0])) return `${pods} in ${batches.length} batches of ${batches[0]}`;
  return `${pods} in batches of ${batches.join(', ')}`;
}

/** Ordinals `[start, start+1, ...]` skipping the reserved ones, `count` of them. */
export function ordinals(count: number, start: number, reserved: Set<number>): number[] {
  const out: number[] = [];
  for (let o = start; out.length < count; o++) {
    if (!reserved.has(o)) out.push(o);
  }
  return out;
}

/** `reserveOrdinals` items: integers and `"a-b"` ranges; `undefined` for an item that does not parse. */
export function reservedOrdinals(items: unknown[] | undefined): Set<number> | undefined {
  const out = new Set<number>();
  for (const it of items ?? []) {
    if (typeof it === 'number' && Number.isInteger(it) && it >= 0) {
      out.add(it);
      continue;
    }
    const m = typeof it === 'string' ? /^(\d+)-(\d+)$/.exec(it) : null;
    if (m && Number(m[1]) <= Number(m[2])) {
      for (let o = Number(m[1]); o <= Number(m[2]); o++) out.add(o);
      continue;
    }
    if (typeof it === 'string' && /^\d+$/.test(it)) {
      out.add(Number(it));
      continue;
    }
    return undefined;
  }
  return out;
}
