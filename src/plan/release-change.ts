/**
 * What moving a cluster from one release to another changes, for the plan
 * of an upgrade (1.8 -> 1.9) or a downgrade: the CRDs that gain or lose
 * versions, change the version they store or gain, lose or widen fields (the
 * generated schema indexes of both lines); the gates whose default flips or
 * that appear or go (the releases' gate tables); the webhook rules that start
 * or stop refusing (the kinds' `releaseRules`); the known failures on some
 * clusters that the move fixes or brings (src/releases/failures.ts); and,
 * given the live objects, the ones the new release will refuse on their next
 * update.
 */
import { ReleaseChangePlan } from './types';
import { admissionModules } from '../admission';
import { judgeManifest } from '../admission/judge';
import { CLUSTER_FAILURES, hasFailure } from '../releases/failures';
import { contextFromFlags } from '../releases/flags';
import {
  PRODUCT_NAME, Product, Release, atLeast, gateDefaults, linesOf, productOfGroup, releaseName, releaseText,
} from '../releases/registry';
import { TargetRelease } from '../releases/target';
import { SchemaEntry, schemaIndex } from '../validation/schemas';

type Json = any;

const asTarget = (release: Release): TargetRelease => ({ release, declared: `the plan's ${releaseText(release)}`, isDeclared: true });

/** Whether line `a` is newer than line `b` (of one product). */
function lineAfter(product: Product, a: string, b: string): boolean {
  const lines = linesOf(product).map(l => l.line);
  return lines.indexOf(a) > lines.indexOf(b);
}

const groupOf = (apiVersion: string) => apiVersion.split('/')[0];

function entriesOf(product: Product, r: Release): SchemaEntry[] {
  return schemaIndex(asTarget(r)).filter(e => productOfGroup(groupOf(e.apiVersion)) === product);
}

/** The CRD changes from `from` to `to`: versions served and stored, fields. */
function crdChanges(product: Product, from: Release, to: Release): string[] {
  if (from.line.line === to.line.line) return [];
  const older = lineAfter(product, to.line.line, from.line.line) ? from : to;
  const newer = older === from ? to : from;
  const upgrade = older === from;
  const olderEntries = entriesOf(product, older);
  const newerEntries = entriesOf(product, newer);
  const kinds = [...new Set([...olderEntries, ...newerEntries].map(e => e.kind))].sort();
  const out: string[] = [];
  const between = (line: string) => !lineAfter(product, line, newer.line.line) && lineAfter(product, line, older.line.line);
  for (const kind of kinds) {
    const o = olderEntries.filter(e => e.kind === kind);
    const n = newerEntries.filter(e => e.kind === kind);
    const gained = n.filter(e => !o.some(x => x.apiVersion === e.apiVersion)).map(e => e.apiVersion);
    if (gained.length > 0) out.push(`${kind}: ${upgrade ? 'serves' : 'no longer serves'} ${gained.join(', ')}`);
    const os = o.find(e => e.storage)?.apiVersion;
    const ns = n.find(e => e.storage)?.apiVersion;
    if (os && ns && os !== ns) {
      out.push(upgrade
        ? `${kind}: stores ${ns} instead of ${os} (existing objects are converted as they are written)`
        : `${kind}: stores ${os} instead of ${ns}; objects stored as ${ns} must be written back in ${os} before the downgrade`);
    }
    for (const e of o) {
      for (const [path, later] of Object.entries(e.later ?? {})) {
        // the status is the controller's; a field of another version comes with that version
        if (!between(later.since) || later.in || path.startsWith('status.') || !n.some(x => x.apiVersion === e.apiVersion)) continue;
        const what = later.type ? `${path} takes ${later.type === 'int-or-string' ? 'a string as well as a number' : later.type}`
          : `${upgrade ? 'new field' : 'no field'} ${path}${later.kept ? ' (kept but ignored by the older release)' : ''}`;
        out.push(`${kind} ${e.apiVersion}: ${upgrade || later.type === undefined ? what : `${path} takes only what ${releaseText(older)} takes`}`);
      }
    }
    for (const e of n) {
      for (const [path, until] of Object.entries(e.retired ?? {})) {
        if (lineAfter(product, older.line.line, until) || path.startsWith('status.') || !o.some(x => x.apiVersion === e.apiVersion)) continue;
        out.push(`${kind} ${e.apiVersion}: ${upgrade ? `no field ${path} (served until ${until})` : `field ${path} served again`}`);
      }
    }
  }
  return out;
}

/** The gate changes from `from` to `to`: defaults that flip, gates that appear or go. */
function gateChanges(product: Product, from: Release, to: Release): string[] {
  const manager = product === 'openkruise' ? 'kruise-manager' : 'kruise-rollout-manager';
  const a = gateDefaults(from);
  const b = gateDefaults(to);
  const out: string[] = [];
  for (const g of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (a[g] === undefined) out.push(`${g}: a new gate (default ${b[g] ? 'on' : 'off'})`);
    else if (b[g] === undefined) out.push(`${g}: no longer a gate (${manager} refuses to start with it in --feature-gates)`);
    else if (a[g] !== b[g]) out.push(`${g}: its default flips from ${a[g] ? 'on' : 'off'} to ${b[g] ? 'on' : 'off'}`);
  }
  return out;
}

/**
 * The webhook rules that start or stop refusing from `from` to `to`, one line
 * per change with the kinds it applies to (a rule of pod templates is one
 * change of every kind that judges them).
 */
function ruleChanges(product: Product, from: Release, to: Release): string[] {
  const kinds = new Map<string, string[]>();
  for (const m of admissionModules()) {
    if (productOfGroup(m.group) !== product) continue;
    for (const r of m.releaseRules ?? []) {
      const before = atLeast(from, r.release);
      const after = atLeast(to, r.release);
      if (before === after) continue;
      const refusesAfter = r.change === 'refuses' ? after : !after;
      const change = `${refusesAfter ? 'starts refusing' : 'stops refusing'} ${r.what} (${r.change === 'refuses' ? 'refused' : 'accepted'} from ${PRODUCT_NAME[product]} ${r.release})`;
      const list = kinds.get(change) ?? [];
      if (!list.includes(m.kind)) list.push(m.kind);
      kinds.set(change, list);
    }
  }
  return [...kinds].map(([change, list]) => `${[...list].sort().join(', ')}: ${change}`);
}

/** The known failures on some clusters that the move fixes, or brings (src/releases/failures.ts). */
function failureChanges(product: Product, from: Release, to: Release): string[] {
  const out: string[] = [];
  for (const f of CLUSTER_FAILURES) {
    if (f.product !== product) continue;
    const before = hasFailure(from, f);
    const after = hasFailure(to, f);
    if (before !== after) out.push(`${before ? 'fixes' : 'brings'}: ${f.title}`);
  }
  return out;
}

/** The live objects of `product` that `from` admits and `to` refuses: `Kind namespace/name: the first refusal`. */
function refusedLive(product: Product, from: Release, to: Release, live: Json[]): string[] {
  const flags = (r: Release) => (product === 'openkruise' ? { openkruise: r.version } : { rollouts: r.version });
  const before = contextFromFlags(flags(from));
  const after = contextFromFlags(flags(to));
  const out: string[] = [];
  for (const obj of live) {
    if (typeof obj?.apiVersion !== 'string' || productOfGroup(groupOf(obj.apiVersion)) !== product || !obj.apiVersion.includes('.kruise.io/')) continue;
    const { status, ...manifest } = obj;
    void status;
    if (judgeManifest(manifest, before).errors.length > 0) continue;
    const refusal = judgeManifest(manifest, after).errors[0];
    if (refusal) out.push(`${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}: ${refusal}`);
  }
  return out;
}

/** The plan of moving `product` from one release to another (`live`: the cluster's objects, when known). */
export function planReleaseChange(product: Product, from: Release, to: Release, live?: Json[]): ReleaseChangePlan {
  return {
    product: PRODUCT_NAME[product],
    fromRelease: releaseName(from),
    toRelease: releaseName(to),
    crds: crdChanges(product, from, to),
    gates: gateChanges(product, from, to),
    rules: ruleChanges(product, from, to),
    knownFailures: failureChanges(product, from, to),
    refusedLive: live ? refusedLive(product, from, to, live) : [],
  };
}
