/**
 * `cdk8s-kruise check`: the admission of synth applied to manifests written
 * anywhere, by the release the cluster runs (`--openkruise`, `--rollouts`).
 * Every OpenKruise and Kruise Rollouts document goes through `judgeManifest`
 * (the release's schema, the webhook's defaults, its rules and the release's
 * own), the same function synth runs on each object of an app, then every
 * document through the app-wide checks (`appWideProblems`, `gateProblems`):
 * no cdk8s App is built. Other kinds are counted and passed by (they take part in the
 * app-wide checks: a Deployment a SidecarSet injects into, a Namespace's
 * labels).
 */
import type { CheckTarget } from './releases';
import { AppModel, ModelObject, appWideProblems, gateProblems } from '../admission/app-wide';
import { describeObject, judgeManifest, Judgement, manifestWarnings } from '../admission/judge';
import { AdmissionApp, AdmissionContext } from '../admission/types';
import type * as UpdateRules from '../admission/update';
import type { PlacedGateSource } from '../gates/source';
import { failureFix } from '../releases/failures';
import { PRODUCT_NAME, releaseText } from '../releases/registry';
import { failureLine, knownFailures, moveToFor, targetGate, targetVerdict } from '../releases/target';
import { groupOf, identityOf } from '../validation/manifest';
import { KRUISE_GROUPS } from '../validation/schemas';

/** The update rules, loaded only when --live holds an object a document changes (a check without it pays nothing for them). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const updateRules = (): typeof UpdateRules => require('../admission/update');

/** One document read from a file (or standard input). */
export interface CheckDocument {
  /** The object. */
  readonly json: any;
  /** The file, or `-` for standard input. */
  readonly file: string;
  /** Its position in the file (1 = the first document; the items of a List share their document's). */
  readonly document: number;
  /** Warnings about how the text was written (`field: value problem; fix`), e.g. a key written twice. */
  readonly notes?: readonly string[];
  /** Its verdict on its own, when it was judged as it was read (./jobs.ts); else it is judged with the others. */
  readonly verdict?: PreJudged;
}

/** The verdict of an object judged on its own, of a judgement that read nothing else. */
export interface PreJudged {
  readonly judgement: Judgement;
  /** Its warnings, had it no errors (shown only if nothing else refuses it either). */
  readonly warnings: string[];
}

/** What a check is given. */
export interface CheckInput {
  /** The documents under check, in file and document order. */
  readonly documents: readonly CheckDocument[];
  /** Objects of the cluster (`--live`): context, never judged themselves. */
  readonly live?: readonly CheckDocument[];
  /** The releases judged against (`checkTarget`). */
  readonly target: CheckTarget;
  /** `--feature-gates`: the gates of the cluster's kruise-manager; absent: the release's defaults, and no gate cross-check. */
  readonly gates?: PlacedGateSource;
}

/** The verdict on one document. */
export interface CheckedDocument {
  readonly file: string;
  readonly document: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name?: string;
  readonly namespace?: string;
  /** Whether it is an OpenKruise or Kruise Rollouts object (judged); others are passed by. */
  readonly judged: boolean;
  /** Full lines: `Kind "name" (apiVersion; file, document n) field: value problem; fix`. */
  readonly errors: string[];
  /** Full lines, in the same shape. */
  readonly warnings: string[];
}

/** The result of a check. */
export interface CheckReport {
  readonly target: CheckTarget;
  /** The files read. */
  readonly files: readonly string[];
  readonly documents: readonly CheckedDocument[];
  /** Documents judged (OpenKruise and Kruise Rollouts). */
  readonly judged: number;
  /** Documents refused. */
  readonly refused: number;
  /** What refuses the target itself (a known failure of the release on the cluster's Kubernetes): full lines. */
  readonly targetErrors: readonly string[];
  /** What the target itself is warned of: full lines. */
  readonly targetWarnings: readonly string[];
}

/** One object of a check's model. */
interface CheckObject extends ModelObject {
  readonly doc: CheckDocument;
  readonly kruise: boolean;
}

/**
 * The admission context of a check: the target's releases; the gates of
 * `--feature-gates`, else the release's defaults; the CRDs among the documents
 * and the live state.
 */
function contextOf(input: CheckInput): AdmissionContext {
  const releases = input.target.releases;
  const gates = input.gates;
  let crds: Set<string> | undefined;
  const crdInstalled = (name: string) => {
    crds ??= new Set([...input.documents, ...(input.live ?? [])]
      .filter(d => d.json?.kind === 'CustomResourceDefinition' && groupOf(d.json.apiVersion) === 'apiextensions.k8s.io')
      .map(d => d.json.metadata?.name));
    return crds.has(name);
  };
  return { target: releases, gate: (name: string) => (gates ? gates.isEnabled(name) : targetGate(releases, name)), crdInstalled };
}

/** Run the check. */
export function runCheck(input: CheckInput): CheckReport {
  const ctx = contextOf(input);
  const objects: CheckObject[] = [];
  const own = new Set<string>();
  for (const doc of input.documents) {
    const kruise = KRUISE_GROUPS.includes(groupOf(doc.json.apiVersion));
    objects.push({ json: doc.json, order: objects.length, doc, kruise });
    own.add(identityOf(doc.json));
  }
  // the cluster's copy of an object under check is what the check replaces: the document is an update of it
  const stored = new Map<string, CheckDocument>();
  for (const doc of input.live ?? []) {
    if (own.has(identityOf(doc.json))) {
      stored.set(identityOf(doc.json), doc);
      continue;
    }
    objects.push({ json: doc.json, order: objects.length, doc, kruise: KRUISE_GROUPS.includes(groupOf(doc.json.apiVersion)), origin: `live: ${doc.file}` });
  }
  const byKind = new Map<string, CheckObject[]>();
  const namespaces = new Map<string, Record<string, string>>();
  for (const o of objects) {
    const key = `${groupOf(o.json.apiVersion)}/${o.json.kind}`;
    const list = byKind.get(key);
    if (list) list.push(o); else byKind.set(key, [o]);
    const name = o.json.metadata?.name;
    if (key === '/Namespace' && typeof name === 'string' && !namespaces.has(name)) namespaces.set(name, o.json.metadata?.labels ?? {});
  }
  const place = (o: CheckObject) => (o.origin !== undefined ? `(${o.origin})` : `(${o.doc.file}, document ${o.doc.document})`);
  const appOf = (me: CheckObject): AdmissionApp => ({
    objects: (group, kind) => (byKind.get(`${group}/${kind}`) ?? []).filter(o => o !== me)
      .map(o => ({ json: o.json, path: `${o.doc.file}#${o.doc.document}`, place: place(o) })),
  });

  // each object on its own: the schema, the webhook's defaults and rules (a live object is the cluster's: never judged)
  const verdicts = new Map<CheckObject, Judgement>();
  for (const o of objects) {
    if (!o.kruise || o.origin !== undefined) continue;
    const old = stored.get(identityOf(o.json));
    const verdict = old
      ? updateRules().judgeUpdate(old.json, o.json, ctx, appOf(o))
      : o.doc.verdict?.judgement ?? judgeManifest(o.json, ctx, appOf(o));
    verdicts.set(o, verdict);
  }
  const memo = new Map<string, unknown>();
  const model: AppModel<CheckObject> = {
    all: objects,
    objects: (group, kind) => byKind.get(`${group}/${kind}`) ?? [],
    namespaceLabels: ns => ({ ...(namespaces.get(ns) ?? {}), 'kubernetes.io/metadata.name': ns }),
    admitted: o => (verdicts.get(o)?.errors.length ?? 0) === 0,
    place,
    once: <T>(key: string, compute: () => T): T => {
      if (!memo.has(key)) memo.set(key, compute());
      return memo.get(key) as T;
    },
  };
  const wide = appWideProblems(model);
  const gates = input.gates ? [input.gates] : [];

  const documents: CheckedDocument[] = [];
  let judged = 0;
  let refused = 0;
  for (const o of objects) {
    if (o.origin !== undefined) continue;
    const v = verdicts.get(o);
    const head = () => describeObject(o.json, { source: o.doc.file, document: o.doc.document });
    const errors = [...(v?.errors ?? []), ...(o.kruise ? gateProblems(o.json, gates) : []), ...(wide.get(o) ?? [])];
    const ownWarnings = v && v.decoded && errors.length === 0 ? o.doc.verdict?.warnings ?? manifestWarnings(o.json, ctx, appOf(o)) : [];
    const warnings = [...(o.doc.notes ?? []), ...ownWarnings];
    if (o.kruise) judged++;
    if (errors.length > 0) refused++;
    const name = o.json.metadata?.name;
    const namespace = o.json.metadata?.namespace;
    documents.push({
      file: o.doc.file,
      document: o.doc.document,
      apiVersion: String(o.json.apiVersion),
      kind: String(o.json.kind),
      name: typeof name === 'string' ? name : undefined,
      namespace: typeof namespace === 'string' ? namespace : undefined,
      judged: o.kruise,
      errors: errors.length > 0 ? errors.map(l => `${head()} ${l}`) : [],
      warnings: warnings.length > 0 ? warnings.map(l => `${head()} ${l}`) : [],
    });
  }
  const files = [...new Set(input.documents.map(d => d.file))];
  const { errors: targetErrors, warnings: targetWarnings } = targetProblems(input.target, ctx);
  return { target: input.target, files, documents, judged, refused, targetErrors, targetWarnings };
}

/**
 * The known failures of the target's release on the cluster's Kubernetes
 * (src/releases/failures.ts), each a line about the target: refused or warned.
 */
function targetProblems(target: CheckTarget, ctx: AdmissionContext): { errors: string[]; warnings: string[] } {
  const t = target.releases;
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const m of knownFailures(t, name => ctx.gate(name))) {
    const given = m.release.product === 'openkruise' ? t.openKruise : t.rollouts;
    const line = `the target: ${PRODUCT_NAME[m.release.product]} ${releaseText(given.release)} (${given.declared}) runs ${failureLine(m, t)}; `
      + failureFix(m, moveToFor(given), n => ctx.gate(n));
    // the documents' workloads it breaks are refused each; a check installs no manager
    (targetVerdict(m.failure, false) === 'refuse' ? errors : warnings).push(line);
  }
  return { errors, warnings };
}
