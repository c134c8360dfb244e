/**
 * `cdk8s-kruise check --jobs N`: the files are read, parsed and each object
 * judged on its own (schema, webhook defaults and rules, warnings) by up to N
 * threads at once, this one and N-1 worker threads (../threads/pool.ts); the checks
 * across documents then run once, here, over everything (`runCheck`).
 *
 * What a file yields does not depend on which thread read it or when: each
 * file's documents go back to their place in the input order, and the first
 * file that cannot be read or parsed, in that order, is the one reported. A
 * judgement that reads anything beyond its own object (the other objects of
 * the input, the CRDs among them) is not kept: the object is judged again
 * here, with everything read (`PreJudged`).
 *
 * Workers cost a start (a thread, the reader, the validators of the kinds
 * they meet), so a small input starts none: a thread is started for every
 * `BYTES_PER_THREAD` of input, up to N, and never more threads than files.
 */
import * as fs from 'fs';
import type { CheckDocument, PreJudged } from './check';
import { CheckInputError, parseDocuments, readText } from './read';
import { judgeManifest, manifestWarnings } from '../admission/judge';
import { AdmissionApp, AdmissionContext } from '../admission/types';
import type { GateReader } from '../gates/source';
import { gateDefaults, lineOf, Product, Release } from '../releases/registry';
import { Target, targetGate } from '../releases/target';
import { runPool, STALL_MS, threadsFor, UnitAnswer, UnitRunner } from '../threads/pool';
import { groupOf } from '../validation/manifest';
import { sharingTemplateViews } from '../validation/pod-template';
import { KRUISE_GROUPS } from '../validation/schemas';

/** What a check's threads judge by: its target and its feature gates, in a form that crosses threads. */
export interface JudgeSetup {
  readonly target: Target;
  /** `--feature-gates` (or the live manager's), each gate of the release on or off; absent: the release's defaults. */
  readonly gates?: Readonly<Record<string, boolean>>;
}

/** The setup of a check's target and gates. */
export function judgeSetup(target: Target, gates?: GateReader): JudgeSetup {
  if (!gates) return { target };
  // every gate the release has, as the given gates set it (a name the release lacks is off for its manager)
  const names = new Set([...Object.keys(gateDefaults(target.openKruise.release)), ...Object.keys(target.featureGates)]);
  return { target, gates: Object.fromEntries([...names].sort().map(n => [n, gates.isEnabled(n)])) };
}

/** The admission context of a setup; `outside` is called when a rule asks about anything beyond its own object. */
function contextOf(setup: JudgeSetup, outside: () => void): AdmissionContext {
  const { target, gates } = setup;
  return {
    target,
    gate: (name: string) => (gates ? gates[name] === true : targetGate(target, name)),
    crdInstalled: () => {
      outside();
      return false;
    },
  };
}

/**
 * The documents of one file, each OpenKruise and Kruise Rollouts object
 * judged on its own where the judgement reads nothing else.
 */
export function judgeFile(text: string, name: string, setup: JudgeSetup): CheckDocument[] {
  // an object's warnings read the defaulted pod template its judgement made (nothing changes a parsed document)
  const views = new WeakMap<object, Record<string, any>>();
  return parseDocuments(text, name).map(doc => sharingTemplateViews(views, () => {
    if (!KRUISE_GROUPS.includes(groupOf(doc.json.apiVersion))) return doc;
    let alone = true;
    const outside = () => { alone = false; };
    const ctx = contextOf(setup, outside);
    const app: AdmissionApp = { objects: () => { outside(); return []; } };
    const judgement = judgeManifest(doc.json, ctx, app);
    const warnings = judgement.decoded && judgement.errors.length === 0 ? manifestWarnings(doc.json, ctx, app) : [];
    if (!alone) return doc;
    const verdict: PreJudged = { judgement, warnings };
    return { ...doc, verdict };
  }));
}

/** A target as it crosses threads: each release's line by name (a line is looked up, never copied). */
function targetToWire(t: Target): unknown {
  const release = (r: Release) => ({ ...r, line: r.line.line });
  return {
    ...t,
    openKruise: { ...t.openKruise, release: release(t.openKruise.release) },
    rollouts: { ...t.rollouts, release: release(t.rollouts.release) },
  };
}

function targetFromWire(w: any): Target {
  const release = (r: any): Release => {
    const line = lineOf(r.product as Product, r.line);
    if (!line) throw new Error(`check worker: no line ${r.product} ${r.line}`);
    return { ...r, line };
  };
  return {
    ...w,
    openKruise: { ...w.openKruise, release: release(w.openKruise.release) },
    rollouts: { ...w.rollouts, release: release(w.rollouts.release) },
  };
}

/** A file's documents, or the message of its bad input (it cannot be read or parsed). */
function fileAnswer(file: string, degraded: boolean, setup: JudgeSetup): UnitAnswer<CheckDocument[]> {
  try {
    const text = readText(file, () => '');
    return { value: degraded ? parseDocuments(text, file) : judgeFile(text, file, setup) };
  } catch (e) {
    if (!(e instanceof CheckInputError)) throw e;
    return { bad: e.message };
  }
}

/** What a check's worker threads are started with. */
interface FileSetup {
  readonly files: readonly string[];
  readonly target: unknown;
  readonly gates?: Readonly<Record<string, boolean>>;
}

/** A worker thread's runner (../threads/pool.ts): the files of the check, judged by its target and gates. */
export function fileRunner(wire: FileSetup): UnitRunner<CheckDocument[]> {
  const setup: JudgeSetup = { target: targetFromWire(wire.target), gates: wire.gates };
  return (index, degraded) => fileAnswer(wire.files[index], degraded, setup);
}

/**
 * The documents of `files` (`-`: standard input, read by this thread), in
 * input order, each object judged on its own where that reads nothing else,
 * by up to `jobs` threads. The first file, in input order, that cannot be
 * read or parsed throws its `CheckInputError`.
 *
 * A file is a unit of the pool: one that cannot be read or parsed is bad
 * input, and a file before it is then only parsed (only a bad file before it
 * can change what is reported).
 */
export function readAndJudge(
  files: readonly string[], stdin: () => string, jobs: number, setup: JudgeSetup, stallMs: number = STALL_MS,
): CheckDocument[] {
  const sizes = files.map(f => {
    if (f === '-') return 0;
    try {
      return fs.statSync(f).size;
    } catch {
      return 0; // reported when read
    }
  });
  const threads = threadsFor(sizes, jobs);
  const nameOf = (f: string) => (f === '-' ? '(stdin)' : f);
  if (threads === 1) return files.flatMap(f => judgeFile(readText(f, stdin), nameOf(f), setup));

  // standard input is this thread's; the files go largest first, so no thread is left with a big one at the end
  const order = files.map((_, i) => i).filter(i => files[i] !== '-').sort((a, b) => sizes[b] - sizes[a] || a - b);
  const results = runPool<CheckDocument[]>({
    order,
    threads,
    local: (index, degraded) => fileAnswer(files[index], degraded, setup),
    task: { module: 'check/jobs', runner: 'fileRunner', setup: { files, target: targetToWire(setup.target), gates: setup.gates } },
    name: 'cdk8s-kruise check',
    stallMs,
  });
  files.forEach((f, i) => {
    if (f !== '-') return;
    try {
      results.set(i, { value: judgeFile(readText(f, stdin), nameOf(f), setup) });
    } catch (e) {
      if (!(e instanceof CheckInputError)) throw e;
      results.set(i, { bad: e.message });
    }
  });
  const out: CheckDocument[] = [];
  for (let i = 0; i < files.length; i++) {
    const r = results.get(i);
    if (r === undefined) continue;
    if ('bad' in r) throw new CheckInputError(r.bad);
    out.push(...r.value);
  }
  return out;
}
