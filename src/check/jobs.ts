/**
 * `cdk8s-kruise check --jobs N`: the files are read, parsed and each object
 * judged on its own (schema, webhook defaults and rules, warnings) by up to N
 * threads at once, this one and N-1 worker threads (./worker.ts); the checks
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
 *
 * The call stays synchronous: the threads take files from a shared counter,
 * and this thread waits on another (`Atomics.wait`) and then reads their
 * answers off their ports (`receiveMessageOnPort`). The wait is bounded: a
 * worker that ends without a word (its script failed to load, it ran out of
 * memory) is noticed when no thread has answered for `STALL_MS`, and this
 * thread then judges every file left without an answer itself, so the
 * output is the same, only later.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as WorkerThreads from 'worker_threads';
import type { CheckDocument, PreJudged } from './check';
import { CheckInputError, parseDocuments, readText } from './read';
import { judgeManifest, manifestWarnings } from '../admission/judge';
import { AdmissionApp, AdmissionContext } from '../admission/types';
import type { GateReader } from '../gates/source';
import { gateDefaults, lineOf, Product, Release } from '../releases/registry';
import { Target, targetGate } from '../releases/target';
import { groupOf } from '../validation/manifest';
import { sharingTemplateViews } from '../validation/pod-template';
import { KRUISE_GROUPS } from '../validation/schemas';

/**
 * Input bytes that pay for one more thread. A thread's start is more than its
 * thread: it loads the reader and the validators again, and V8 compiles and
 * optimizes the same code again while it warms up, on the cores where this
 * thread's compiler and garbage collector already run (a check on one thread
 * keeps about 1.4 cores busy). Measured on a 2-core machine with the bench's
 * workload documents (about 640 bytes each): a second thread made a check
 * slower up to about 13 MB (10,000 documents: 1.30 s against 1.13 s) and
 * quicker beyond (40,000: 2.65 s against 3.17 s).
 */
export const BYTES_PER_THREAD = 6 * 1024 * 1024;

/** How long the workers may all be silent (no file answered, none finished) before this thread judges what they left. */
export const STALL_MS = 60_000;

/** The default of `--jobs`: the cores this process may use. */
export function defaultJobs(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : Math.max(1, os.cpus().length);
}

/**
 * How many threads judge `files` of these sizes (bytes; standard input
 * counts as 0) with `jobs` allowed: this one alone for a small input, else
 * one per `BYTES_PER_THREAD`, at most `jobs` and at most one per file.
 */
export function threadsFor(sizes: readonly number[], jobs: number): number {
  const bytes = sizes.reduce((a, b) => a + b, 0);
  return Math.max(1, Math.min(jobs, sizes.length, Math.floor(bytes / BYTES_PER_THREAD)));
}

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

/** What a worker is started with. */
export interface WorkerData {
  readonly files: readonly string[];
  /** File indices in the order they are taken (largest first). */
  readonly order: readonly number[];
  /** [next position in `order`, workers finished, the first bad file's index or -1]. */
  readonly control: SharedArrayBuffer;
  readonly port: WorkerThreads.MessagePort;
  readonly target: unknown;
  readonly gates?: Readonly<Record<string, boolean>>;
}

/** A worker's answer for one file, or its end. */
type Answer = { index: number; documents: CheckDocument[] } | { index: number; error: string } | { fatal: string };

/**
 * Take files from the shared counter until none is left, answering each (a
 * worker, or this thread). Once a file is bad input, only a bad file before
 * it can change what is reported: the files after it are skipped, those
 * before it only parsed.
 */
function takeFiles(files: readonly string[], order: readonly number[], control: Int32Array, setup: JudgeSetup, answer: (a: Answer) => void): void {
  for (let at = Atomics.add(control, 0, 1); at < order.length; at = Atomics.add(control, 0, 1)) {
    const index = order[at];
    const file = files[index];
    const firstBad = Atomics.load(control, 2);
    if (firstBad >= 0 && index > firstBad) continue;
    try {
      const text = readText(file, () => '');
      answer({ index, documents: firstBad >= 0 ? parseDocuments(text, file) : judgeFile(text, file, setup) });
    } catch (e) {
      if (!(e instanceof CheckInputError)) throw e;
      for (let seen = Atomics.load(control, 2); seen < 0 || index < seen; seen = Atomics.load(control, 2)) {
        if (Atomics.compareExchange(control, 2, seen, index) === seen) break;
      }
      answer({ index, error: e.message });
    }
  }
}

/** The body of a worker thread (./worker.ts). */
export function workerMain(data: WorkerData): void {
  const control = new Int32Array(data.control);
  try {
    const setup: JudgeSetup = { target: targetFromWire(data.target), gates: data.gates };
    takeFiles(data.files, data.order, control, setup, a => data.port.postMessage(a));
  } catch (e: any) {
    data.port.postMessage({ fatal: String(e?.stack ?? e) });
  } finally {
    data.port.close();
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
}

/** The worker's script: the compiled module beside this one, or, run from the TypeScript sources (tests), through ts-node. */
function workerScript(): { script: string; eval: boolean } {
  const js = path.join(__dirname, 'worker.js');
  if (fs.existsSync(js)) return { script: js, eval: false };
  const ts = path.join(__dirname, 'worker.ts');
  const project = process.env.TS_NODE_PROJECT ?? path.join(__dirname, '..', '..', 'test', 'tsconfig.json');
  return {
    script: `require('ts-node').register({ transpileOnly: true, project: ${JSON.stringify(project)} }); require(${JSON.stringify(ts)});`,
    eval: true,
  };
}

/**
 * The documents of `files` (`-`: standard input, read by this thread), in
 * input order, each object judged on its own where that reads nothing else,
 * by up to `jobs` threads. The first file, in input order, that cannot be
 * read or parsed throws its `CheckInputError`.
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

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const wt = require('worker_threads') as typeof WorkerThreads;
  const results: Array<CheckDocument[] | string | undefined> = files.map(() => undefined);
  // standard input is this thread's; the files go largest first, so no thread is left with a big one at the end
  const order = files.map((_, i) => i).filter(i => files[i] !== '-').sort((a, b) => sizes[b] - sizes[a] || a - b);
  const control = new SharedArrayBuffer(12);
  const counters = new Int32Array(control);
  counters[2] = -1;
  const { script, eval: isEval } = workerScript();
  const workers = Array.from({ length: threads - 1 }, () => {
    const { port1, port2 } = new wt.MessageChannel();
    const workerData: WorkerData = { files, order, control, port: port2, target: targetToWire(setup.target), gates: setup.gates };
    const worker = new wt.Worker(script, { eval: isEval, workerData, transferList: [port2] });
    worker.unref();
    // an error a worker throws outside its files (its script failed to load) comes after this call returned; its
    // files are judged here by then (the stall above), and unheard it would end the process
    worker.on('error', () => undefined);
    return { worker, port: port1 };
  });
  const take = (a: Answer) => {
    if ('fatal' in a) throw new Error(`cdk8s-kruise check: a worker failed: ${a.fatal}`);
    results[a.index] = 'error' in a ? a.error : a.documents;
  };
  const answers: Answer[] = [];
  const drain = () => {
    const before = answers.length;
    for (const { port } of workers) {
      for (let m = wt.receiveMessageOnPort(port); m !== undefined; m = wt.receiveMessageOnPort(port)) answers.push(m.message as Answer);
    }
    return answers.length > before;
  };
  let stalled = false;
  try {
    files.forEach((f, i) => {
      if (f !== '-') return;
      try {
        results[i] = judgeFile(readText(f, stdin), nameOf(f), setup);
      } catch (e) {
        if (!(e instanceof CheckInputError)) throw e;
        results[i] = e.message;
      }
    });
    takeFiles(files, order, counters, setup, take);
  } finally {
    // the workers stop taking files once the counter is past the end: wait for each to finish its last, or to fall silent
    Atomics.store(counters, 0, order.length);
    let heard = Date.now();
    for (let done = Atomics.load(counters, 1); done < workers.length; done = Atomics.load(counters, 1)) {
      if (Atomics.wait(counters, 1, done, 1000) !== 'timed-out' || drain()) {
        heard = Date.now();
      } else if (Date.now() - heard > stallMs) {
        stalled = true;
        break;
      }
    }
  }
  drain();
  for (const { worker, port } of workers) {
    port.close();
    if (stalled) void worker.terminate();
  }
  answers.forEach(take);
  if (stalled) {
    // what no worker answered, judged here, with the same rule for a bad file as the threads follow
    const left = order.filter(i => results[i] === undefined);
    const again = new Int32Array(new SharedArrayBuffer(12));
    again[2] = Atomics.load(counters, 2);
    takeFiles(files, left, again, setup, take);
  }
  const out: CheckDocument[] = [];
  for (const r of results) {
    if (typeof r === 'string') throw new CheckInputError(r);
    if (r) out.push(...r);
  }
  return out;
}
