/**
 * The target of an app: which OpenKruise and Kruise Rollouts release every
 * check, L2 and command follows, and where that was declared. One answer per
 * app, from its declarations:
 *
 * - a `KruiseContext` with `openKruise` / `kruiseRollouts` (and `featureGates`),
 * - a `KruiseContext`'s live state, whose kruise-manager Deployment names its
 *   release in the image tag,
 * - a `KruiseControlPlane` / `KruiseRolloutControlPlane` of the app, which
 *   installs its own release;
 *
 * and without any, the default lines (OpenKruise 1.9, Kruise Rollouts 0.6).
 * Two declarations of different releases of a product are an error that
 * names both; a line and a release of that line agree (the release is the
 * target). A command (plan, fleet, check) gives its target from its flags
 * (./flags.ts).
 *
 * The cluster's Kubernetes is part of the target too (`KruiseContext`'s
 * `kubernetes` and `kubernetesVendor`, a saved `/version` in its live state;
 * ./kubernetes.ts): two declarations that cannot be the same cluster fail
 * the same way, and a known failure of the target's release on that
 * Kubernetes (./failures.ts) fails synth (or warns) under the declaration
 * of the release.
 */
import { IConstruct } from 'constructs';
import { ClusterFailure, MetFailure, failureFix, failureSubject, failuresOf } from './failures';
import { KubernetesCluster, kubernetesDisagreement, kubernetesText, mergeKubernetes } from './kubernetes';
import {
  Product, PRODUCT_NAME, Release, defaultRelease, gateDefaults, preciser, releaseName, releaseText, sameRelease,
} from './registry';
import type * as Report from '../validation/report';

/** One declaration of the release(s) an app's cluster runs. */
export interface _ReleaseDeclaration {
  /** The class of what declares, for messages: `KruiseContext`, `KruiseControlPlane`, ... */
  readonly by: string;
  /** Its construct path. */
  readonly path: string;
  /**
   * How a message says where it was declared, e.g. `declared at 'cluster'`,
   * `read from the kruise-manager of 'live.json' (context 'cluster')`.
   */
  readonly declared: string;
  /** A construct of the app that reports a disagreement with an earlier declaration (validation). */
  readonly reportOn: IConstruct;
  /** The prop that declares it, for messages, by product: e.g. `openKruise`, `release`. */
  readonly prop: Readonly<Partial<Record<Product, string>>>;
  /** The releases declared. */
  readonly releases: Readonly<Partial<Record<Product, Release>>>;
  /** Feature gates the declaration sets explicitly (OpenKruise). */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** The cluster's Kubernetes, when the declaration says it. */
  readonly kubernetes?: KubernetesCluster;
  /** The prop that declares the Kubernetes, for messages: e.g. `kubernetes`, `/version (version.json)`. */
  readonly kubernetesProp?: string;
  /**
   * How a message tells this declaration to target another release of a
   * product (the fix of a known failure), e.g. `set release: '1.9.1'`;
   * absent: a general sentence.
   */
  readonly moveTo?: Readonly<Partial<Record<Product, (version: string) => string>>>;
  /**
   * The declaration installs the release it declares (a control plane), so a
   * failure that breaks only some workloads is refused here too: the app
   * would install a manager known to fail on the cluster. Otherwise such a
   * failure is a warning on the target, and each workload it breaks is
   * refused (./workload-failures.ts).
   */
  readonly installs?: boolean;
}

/** The release of one product an app targets. */
export interface TargetRelease {
  readonly release: Release;
  /** Where it was declared, for messages (`declared at 'cluster'`, `the default`, `given with --openkruise`). */
  readonly declared: string;
  /** Whether anything declared it (false: the default line). */
  readonly isDeclared: boolean;
}

/** The cluster's Kubernetes an app (or a command) targets. */
export interface TargetKubernetes {
  readonly cluster: KubernetesCluster;
  /** Where it was declared, for messages (`declared at 'cluster'`, `given with --kubernetes`). */
  readonly declared: string;
}

/** What an app (or a command) targets. */
export interface Target {
  readonly openKruise: TargetRelease;
  readonly rollouts: TargetRelease;
  /**
   * The OpenKruise feature gates the declarations set explicitly (kruise-manager
   * applies the release's defaults to the others).
   */
  readonly featureGates: Readonly<Record<string, boolean>>;
  /** The cluster's Kubernetes, when something declares it (nothing is known of it otherwise). */
  readonly kubernetes?: TargetKubernetes;
}

let theDefault: Target | undefined;

/** The target of an app that declares nothing (one frozen object: it is asked for per object judged). */
export function defaultTarget(): Target {
  theDefault ??= Object.freeze({
    openKruise: Object.freeze({ release: defaultRelease('openkruise'), declared: 'the default', isDeclared: false }),
    rollouts: Object.freeze({ release: defaultRelease('rollouts'), declared: 'the default', isDeclared: false }),
    featureGates: Object.freeze({}),
  });
  return theDefault;
}

const declarations = new WeakMap<IConstruct, _ReleaseDeclaration[]>();
const reported = new WeakSet<IConstruct>();

/**
 * Record a declaration for the app of `app` (any construct of it). A
 * declaration that disagrees with an earlier one fails synth under its
 * `reportOn` construct, naming both.
 * @internal
 */
export function _declareRelease(app: IConstruct, d: _ReleaseDeclaration): void {
  const root = app.node.root;
  const list = declarations.get(root) ?? [];
  list.push(d);
  declarations.set(root, list);
  if (reported.has(d.reportOn)) return;
  reported.add(d.reportOn);
  const on = d.reportOn;
  on.node.addValidation({
    validate: () => [
      ...disagreements(root).filter(x => x.reportOn === on).map(x => x.line),
      ...appFailures(root).filter(x => x.reportOn === on && x.verdict === 'refuse').map(x => x.line),
    ],
  });
  // the warnings of known failures, computed at synth (a declaration made later counts); loaded with the first declaration only
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Warnings } = require('../validation/report') as typeof Report;
  Warnings._addProducer(on, () => appFailures(root).filter(x => x.reportOn === on && x.verdict === 'warn').map(x => x.line));
}

/** The declarations of the app of `scope`, in the order they were made. */
export function _declarationsOf(scope: IConstruct): readonly _ReleaseDeclaration[] {
  return declarations.get(scope.node.root) ?? [];
}

const fmt = (v: unknown) => JSON.stringify(v);

/** Each declaration that disagrees with an earlier one: the line it reports. */
function disagreements(root: IConstruct): Array<{ reportOn: IConstruct; line: string }> {
  const list = declarations.get(root) ?? [];
  const out: Array<{ reportOn: IConstruct; line: string }> = [];
  list.forEach((d, i) => {
    for (const product of ['openkruise', 'rollouts'] as Product[]) {
      const mine = d.releases[product];
      if (!mine) continue;
      const earlier = list.slice(0, i).find(e => e.releases[product] && !sameRelease(e.releases[product]!, mine));
      if (!earlier) continue;
      const theirs = earlier.releases[product]!;
      out.push({
        reportOn: d.reportOn,
        line: `${d.by} ${d.prop[product]}: ${fmt(releaseText(mine))} declares ${releaseName(mine)}, but the ${earlier.by} at '${earlier.path}' declares ${releaseName(theirs)}; `
          + `an app targets one ${PRODUCT_NAME[product]} release: declare the one its cluster runs in both places (or remove one declaration)`,
      });
    }
    const cluster = d.kubernetes;
    if (cluster) {
      const earlier = list.slice(0, i).find(e => e.kubernetes && kubernetesDisagreement(e.kubernetes, cluster) !== undefined);
      if (earlier) {
        out.push({
          reportOn: d.reportOn,
          line: `${d.by} ${d.kubernetesProp ?? 'kubernetes'}: ${fmt(kubernetesText(cluster))} declares Kubernetes ${kubernetesText(cluster)}, but the ${earlier.by} at '${earlier.path}' `
            + `declares Kubernetes ${kubernetesText(earlier.kubernetes!)} (${kubernetesDisagreement(earlier.kubernetes!, cluster)}); `
            + 'an app targets one cluster: declare the Kubernetes it runs in both places (or remove one declaration)',
        });
      }
    }
    for (const [gate, value] of Object.entries(d.featureGates ?? {})) {
      const earlier = list.slice(0, i).find(e => e.featureGates?.[gate] !== undefined && e.featureGates[gate] !== value);
      if (!earlier) continue;
      out.push({
        reportOn: d.reportOn,
        line: `${d.by} featureGates.${gate}: ${fmt(value)} disagrees with the ${earlier.by} at '${earlier.path}', which sets it ${earlier.featureGates![gate]}; `
          + 'set each gate as the cluster runs it, the same in both places',
      });
    }
  });
  return out;
}

/**
 * The target of the app of `scope`: for each product, the first declared
 * release (made precise by a later declaration of one release of its line),
 * else the default line; and the feature gates declared.
 * @internal
 */
export function _targetOf(scope: IConstruct): Target {
  const list = declarations.get(scope.node.root) ?? [];
  if (list.length === 0) return defaultTarget();
  const base = defaultTarget();
  const pick = (product: Product): TargetRelease => {
    const first = list.find(d => d.releases[product]);
    if (!first) return product === 'openkruise' ? base.openKruise : base.rollouts;
    let release = first.releases[product]!;
    for (const d of list) {
      const r = d.releases[product];
      if (r && sameRelease(r, release)) release = preciser(release, r);
    }
    return { release, declared: first.declared, isDeclared: true };
  };
  const featureGates: Record<string, boolean> = {};
  for (const d of list) {
    for (const [g, v] of Object.entries(d.featureGates ?? {})) if (featureGates[g] === undefined) featureGates[g] = v;
  }
  // the cluster's Kubernetes: the first declaration, with what agreeing later ones add
  let kubernetes: TargetKubernetes | undefined;
  for (const d of list) {
    if (!d.kubernetes) continue;
    if (!kubernetes) {
      kubernetes = { cluster: d.kubernetes, declared: d.declared };
    } else if (kubernetesDisagreement(kubernetes.cluster, d.kubernetes) === undefined) {
      kubernetes = { ...kubernetes, cluster: mergeKubernetes(kubernetes.cluster, d.kubernetes) };
    }
  }
  return { openKruise: pick('openkruise'), rollouts: pick('rollouts'), featureGates, kubernetes };
}

/**
 * The known failures of the target's releases on the target's Kubernetes
 * (none when no Kubernetes is declared); `gate` answers for the OpenKruise
 * gates (default: the target's).
 */
export function knownFailures(t: Target, gate: (name: string) => boolean = name => targetGate(t, name)): MetFailure[] {
  if (!t.kubernetes) return [];
  return [
    ...failuresOf(t.openKruise.release, t.kubernetes.cluster, gate),
    ...failuresOf(t.rollouts.release, t.kubernetes.cluster, () => false),
  ];
}

/**
 * What a met failure does on the target: `kruise-manager v1.9.0 on
 * Kubernetes K (where K was declared), which[, with <gate> on,] <problem>`.
 */
export function failureLine(m: MetFailure, t: Target): string {
  const gate = m.failure.gate ? `, with ${m.failure.gate} on,` : '';
  return `${failureSubject(m, t.kubernetes?.declared)}, which${gate} ${m.failure.problem}`;
}

/**
 * The app's known failures, each under the construct of the declaration it
 * is about: the first declaration of the release that has it, else of the
 * gate it needs, else of the Kubernetes.
 */
function appFailures(root: IConstruct): Array<{ reportOn: IConstruct; verdict: 'refuse' | 'warn'; line: string }> {
  const list = declarations.get(root) ?? [];
  const t = _targetOf(root);
  const out: Array<{ reportOn: IConstruct; verdict: 'refuse' | 'warn'; line: string }> = [];
  for (const m of knownFailures(t)) {
    const product = m.release.product;
    const byRelease = list.find(d => d.releases[product] && sameRelease(d.releases[product]!, m.release));
    const byGate = m.failure.gate ? list.find(d => d.featureGates?.[m.failure.gate!] === true) : undefined;
    const d = byRelease ?? byGate ?? list.find(x => x.kubernetes);
    if (!d) continue;
    const [prop, value] = byRelease ? [d.prop[product], releaseText(m.release)]
      : byGate ? [`featureGates.${m.failure.gate}`, true] : [d.kubernetesProp ?? 'kubernetes', kubernetesText(d.kubernetes!)];
    const moveTo = byRelease?.moveTo?.[product]
      ?? ((v: string) => `upgrade the cluster's ${PRODUCT_NAME[product]} to ${v} and declare that release`);
    out.push({
      reportOn: d.reportOn,
      verdict: targetVerdict(m.failure, byRelease?.installs === true),
      line: `${d.by} ${prop}: ${fmt(value)} runs ${failureLine(m, t)}; ${failureFix(m, moveTo, name => targetGate(t, name))}`,
    });
  }
  return out;
}

/**
 * What a known failure does to the target itself. A failure that breaks only
 * the workloads that update pods in place (each of them refused on its own)
 * is a warning on a target that installs nothing: an app or a check without
 * such workloads is what the cluster accepts and runs. A control plane that
 * would install the failing release is refused.
 */
export function targetVerdict(f: ClusterFailure, installs: boolean): 'refuse' | 'warn' {
  return f.verdict === 'refuse' && f.inPlaceWorkloads === true && !installs ? 'warn' : f.verdict;
}

/** The target release of a product. */
export function targetRelease(t: Target, product: Product): TargetRelease {
  return product === 'openkruise' ? t.openKruise : t.rollouts;
}

/**
 * How messages say what is targeted: `this app targets 1.8 (declared at
 * 'cluster')`, or for a command `the target is 1.8 (given with --openkruise)`.
 */
export function targetNote(t: TargetRelease): string {
  const what = t.declared.startsWith('given with ') ? 'the target is' : 'this app targets';
  return `${what} ${releaseText(t.release)} (${t.declared})`;
}

/**
 * How a fix tells the user to move a target release to another release,
 * in the terms of where it was declared: a command's flag, a saved live
 * state, a declaration of the app.
 */
export function moveToFor(t: TargetRelease): (version: string) => string {
  const name = PRODUCT_NAME[t.release.product];
  const flag = t.release.product === 'openkruise' ? '--openkruise' : '--rollouts';
  if (t.declared.startsWith('given with --live')) return v => `upgrade the cluster's ${name} to ${v}, then save its live state again`;
  if (t.declared.startsWith('given with ')) return v => `upgrade the cluster's ${name} to ${v} and check with ${flag} ${v}`;
  if (!t.isDeclared) return v => `upgrade the cluster's ${name} to ${v}`;
  return v => `upgrade the cluster's ${name} to ${v} and declare that release`;
}

/**
 * Whether an OpenKruise feature gate is on by the target alone: declared,
 * else the release's default (no start-up rules: a control plane of the app
 * or context, when there is one, answers with its own).
 */
export function targetGate(t: Target, gate: string): boolean {
  const declared = t.featureGates[gate];
  if (declared !== undefined) return declared;
  return gateDefaults(t.openKruise.release)[gate] === true;
}
