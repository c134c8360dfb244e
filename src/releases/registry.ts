/**
 * The releases this library models: OpenKruise 1.7, 1.8 and 1.9 and Kruise
 * Rollouts 0.5 and 0.6, one folder each (`<product>-<line>/`) holding that
 * line's facts (`release.ts`: its releases, gates, what its chart installs)
 * and, for a line older than the default, its API changes against the next
 * line (`model.ts`, read at build time only). The admission modules keep
 * each line's webhook changes as rules of their kind (`releaseRules`).
 *
 * A release is one line of data (`ReleaseEntry`): its version, its image
 * tag, and what differs in it from the release before it (the webhook rules
 * it changes, the gates it adds, the known failures it fixes); a patch
 * release that changes nothing else is its version and tag alone.
 *
 * A version is given as a line (`1.8`) or one release of it (`1.8.2`,
 * `v1.8.2`); a line stands for its newest release. The order of releases
 * is the registry's own list, so comparing two is a lookup, not a parse.
 */
import { OPENKRUISE_1_7 } from './openkruise-1.7/release';
import { OPENKRUISE_1_8 } from './openkruise-1.8/release';
import { OPENKRUISE_1_9 } from './openkruise-1.9/release';
import { ROLLOUTS_0_5 } from './rollouts-0.5/release';
import { ROLLOUTS_0_6 } from './rollouts-0.6/release';
import type { Product, Release, ReleaseEntry, ReleaseLine } from './types';

export type { ControlPlaneFacts, GateChanges, Product, Release, ReleaseEntry, ReleaseLine } from './types';

/** Every modelled line, oldest first per product. */
export const LINES: readonly ReleaseLine[] = [OPENKRUISE_1_7, OPENKRUISE_1_8, OPENKRUISE_1_9, ROLLOUTS_0_5, ROLLOUTS_0_6];

/** The line an app targets when it declares none. */
export const DEFAULT_LINE: Readonly<Record<Product, string>> = { openkruise: '1.9', rollouts: '0.6' };

/** How messages name a product. */
export const PRODUCT_NAME: Readonly<Record<Product, string>> = { openkruise: 'OpenKruise', rollouts: 'Kruise Rollouts' };

/** The product of an API group: `rollouts.kruise.io` is Kruise Rollouts', the rest OpenKruise's. */
export function productOfGroup(group: string): Product {
  return group === 'rollouts.kruise.io' ? 'rollouts' : 'openkruise';
}

/** The lines of a product, oldest first. */
export function linesOf(product: Product): ReleaseLine[] {
  return LINES.filter(l => l.product === product);
}

/** A line by product and `major.minor`. */
export function lineOf(product: Product, line: string): ReleaseLine | undefined {
  return LINES.find(l => l.product === product && l.line === line);
}

/** The versions of a line's releases, oldest first (`1.9.0`, `1.9.1`). */
export function versionsOf(line: ReleaseLine): string[] {
  return line.releases.map(e => e.version);
}

/** The entry of a release: its image tag and what differs in it. */
export function entryOf(r: Release): ReleaseEntry {
  const e = r.line.releases.find(x => x.version === r.version);
  if (!e) throw new Error(`${PRODUCT_NAME[r.product]} ${r.version} is not a release of the ${r.line.line} line`);
  return e;
}

/** The image tag of a release (`v1.9.1`). */
export function imageTagOf(r: Release): string {
  return entryOf(r).imageTag;
}

const orders = new Map<Product, string[]>();

/** Every release of a product, oldest first (computed once: admission asks for every object). */
export function releaseOrder(product: Product): readonly string[] {
  let all = orders.get(product);
  if (!all) {
    all = linesOf(product).flatMap(versionsOf);
    orders.set(product, all);
  }
  return all;
}

/** Every release entry of a product with its line, oldest first. */
export function releaseEntries(product: Product): Array<{ line: ReleaseLine; entry: ReleaseEntry }> {
  return linesOf(product).flatMap(line => line.releases.map(entry => ({ line, entry })));
}

const lineReleases = new Map<string, Release>();

/**
 * The release a product's line stands for: one frozen object per line, so
 * what is worked out per release object (`atLeast`) is worked out once for
 * the default lines too, which every object of an app without a target asks for.
 */
export function releaseOfLine(product: Product, line: string): Release {
  const key = `${product}/${line}`;
  let r = lineReleases.get(key);
  if (!r) {
    const l = lineOf(product, line);
    if (!l) throw new Error(`${PRODUCT_NAME[product]} ${line} is not a modelled line`);
    r = Object.freeze({ product, line: l, version: l.releases[l.releases.length - 1].version, lineOnly: true });
    lineReleases.set(key, r);
  }
  return r;
}

/** The release an app targets when nothing declares one. */
export function defaultRelease(product: Product): Release {
  return releaseOfLine(product, DEFAULT_LINE[product]);
}

/** Whether `r` is the default line's release. */
export function isDefaultLine(r: Release): boolean {
  return r.line.line === DEFAULT_LINE[r.product];
}

/** A version that is not a modelled release: the message lists the supported ones. */
export class ReleaseError extends Error {}

/** The supported versions of a product, as an error lists them: `1.7 (1.7.0 to 1.7.4), 1.8 (...) or 1.9 (1.9.0 to 1.9.1)`. */
export function supportedText(product: Product): string {
  const parts = linesOf(product).map(l => {
    const rs = versionsOf(l);
    return `${l.line} (${rs.length === 1 ? rs[0] : `${rs[0]} to ${rs[rs.length - 1]}`})`;
  });
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

/**
 * Read a version as given by a user: a line (`1.8`) or a release of it
 * (`1.8.2`, `v1.8.2`). Anything else throws a `ReleaseError` whose message
 * says why and lists the supported versions; `what` names where the value
 * came from (e.g. `KruiseContext at 'app/cluster': openKruise`).
 */
export function parseRelease(product: Product, text: string, what: string): Release {
  const name = PRODUCT_NAME[product];
  const supported = `give one of ${supportedText(product)} (a line stands for its newest release)`;
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(String(text).trim());
  if (!m) throw new ReleaseError(`${what}: '${text}' is not an ${name} version; ${supported}`);
  const line = `${Number(m[1])}.${Number(m[2])}`;
  const l = lineOf(product, line);
  if (m[3] === undefined) {
    if (!l) throw new ReleaseError(`${what}: ${name} ${line} is not a line this library models; ${supported}`);
    return releaseOfLine(product, line);
  }
  const version = `${line}.${Number(m[3])}`;
  const trap = l?.traps?.[version];
  if (trap) throw new ReleaseError(`${what}: ${name} ${version} ${trap}; ${supported}`);
  if (!l) throw new ReleaseError(`${what}: ${name} ${version} is not a release of a line this library models; ${supported}`);
  if (!versionsOf(l).includes(version)) {
    throw new ReleaseError(`${what}: ${name} ${version} is not a release of the ${line} line, whose releases are ${versionsOf(l).join(', ')}; ${supported}`);
  }
  return { product, line: l, version, lineOnly: false };
}

/** Whether release `r` is `version` (`x.y` or `x.y.z` of the same product) or newer. */
export function atLeast(r: Release, version: string): boolean {
  // asked for every rule of every object judged: each answer is worked out once per release object
  let answers = atLeastAnswers.get(r);
  if (!answers) atLeastAnswers.set(r, answers = new Map());
  let answer = answers.get(version);
  if (answer === undefined) {
    const all = releaseOrder(r.product);
    const full = version.split('.').length === 2 ? lineOf(r.product, version)?.releases[0]?.version : version;
    const at = full === undefined ? -1 : all.indexOf(full);
    if (at < 0) throw new Error(`${PRODUCT_NAME[r.product]} ${version} is not a modelled release`);
    answer = all.indexOf(r.version) >= at;
    answers.set(version, answer);
  }
  return answer;
}

const atLeastAnswers = new WeakMap<Release, Map<string, boolean>>();

/** How messages name a release: `OpenKruise 1.8` for a line, `OpenKruise 1.8.2` for a release. */
export function releaseName(r: Release): string {
  return `${PRODUCT_NAME[r.product]} ${r.lineOnly ? r.line.line : r.version}`;
}

/** `1.8` or `1.8.2`, as the release was given. */
export function releaseText(r: Release): string {
  return r.lineOnly ? r.line.line : r.version;
}

/** Whether two releases are the same for every check (the same line, and the same release when both name one). */
export function sameRelease(a: Release, b: Release): boolean {
  return a.product === b.product && a.line.line === b.line.line && (a.lineOnly || b.lineOnly || a.version === b.version);
}

/** Of two releases that agree, the one that says more (a release rather than its line). */
export function preciser(a: Release, b: Release): Release {
  return a.lineOnly && !b.lineOnly ? b : a;
}

/**
 * The feature gates of a release and their defaults (before the start-up
 * rules of the manager): the default line's gates with each older line's
 * changes applied, less the gates that appear in a later release of its line.
 */
export function gateDefaults(r: Release): Record<string, boolean> {
  const lines = linesOf(r.product);
  const at = lines.indexOf(r.line);
  let gates: Record<string, boolean> = {};
  for (let i = lines.length - 1; i >= at; i--) {
    const g = lines[i].gates;
    if (g.all) gates = { ...g.all };
    for (const name of g.absent ?? []) delete gates[name];
    Object.assign(gates, g.extra ?? {}, g.defaults ?? {});
  }
  for (const e of r.line.releases) {
    if (atLeast(r, e.version)) continue;
    for (const gate of e.gates ?? []) delete gates[gate];
  }
  return gates;
}
