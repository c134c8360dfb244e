/**
 * Work split over threads, for the commands that read many files
 * (`cdk8s-kruise check --jobs`, `cdk8s-kruise fleet --jobs`): numbered units
 * (a file, a source), done by this thread and up to N-1 worker threads
 * (./worker.ts) at once, each unit's answer back in its place.
 *
 * What a unit yields does not depend on which thread did it or when. A unit
 * can be bad input (`{ bad }`): once one is, only a bad unit before it can
 * change what is reported, so the units after it are skipped and those
 * before it done `degraded` (the caller decides what that saves, e.g. a file
 * only parsed, not judged).
 *
 * The call stays synchronous: the threads take units from a shared counter,
 * and this thread waits on another (`Atomics.wait`) and then reads their
 * answers off their ports (`receiveMessageOnPort`). The wait is bounded: a
 * worker that ends without a word (its script failed to load, it ran out of
 * memory) is noticed when no thread has answered for `stallMs`, and this
 * thread then does every unit left without an answer itself, so the answers
 * are the same, only later.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as WorkerThreads from 'worker_threads';

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

/** How long the workers may all be silent (no unit answered, none finished) before this thread does what they left. */
export const STALL_MS = 60_000;

/** The default of `--jobs`: the cores this process may use. */
export function defaultJobs(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : Math.max(1, os.cpus().length);
}

/** `--jobs N`: N, the cores available when it is not given, NaN when it is not a whole number, 1 or more. */
export function parseJobs(value: string | undefined): number {
  if (value === undefined) return defaultJobs();
  return /^[1-9][0-9]*$/.test(value) ? Number(value) : NaN;
}

/**
 * How many threads share units of these sizes (bytes) with `jobs` allowed:
 * this one alone for a small input, else one per `BYTES_PER_THREAD`, at most
 * `jobs` and at most one per unit.
 */
export function threadsFor(sizes: readonly number[], jobs: number): number {
  const bytes = sizes.reduce((a, b) => a + b, 0);
  return Math.max(1, Math.min(jobs, sizes.length, Math.floor(bytes / BYTES_PER_THREAD)));
}

/** A unit's answer: what it yields, or the message of its bad input. */
export type UnitAnswer<R> = { readonly value: R } | { readonly bad: string };

/** Does unit `index`; `degraded` once a bad unit is known (it comes after every bad one). */
export type UnitRunner<R> = (index: number, degraded: boolean) => UnitAnswer<R>;

/**
 * How a worker thread does units: `module` (a path under src/, without its
 * extension) exports `runner`, a function of `setup` (anything structured
 * cloning carries) that returns the thread's `UnitRunner`.
 */
export interface WorkerTask {
  readonly module: string;
  readonly runner: string;
  readonly setup: unknown;
}

/** What a pool is given. */
export interface PoolSpec<R> {
  /** The units, in the order they are taken (e.g. largest first, so no thread is left with a big one at the end). */
  readonly order: readonly number[];
  /** Threads in all, this one included; 1 starts none. */
  readonly threads: number;
  /** How this thread does a unit. */
  readonly local: UnitRunner<R>;
  /** How the workers do one. */
  readonly task: WorkerTask;
  /** Who reports a failed worker, e.g. `cdk8s-kruise check`. */
  readonly name: string;
  /** @default STALL_MS */
  readonly stallMs?: number;
  /**
   * Told each answer on this thread as it comes in (between this thread's
   * own units, in no set order), so the caller can use the answers while
   * the threads go on.
   *
   * @default - the answers are only returned
   */
  readonly onAnswer?: (index: number, answer: UnitAnswer<R>) => void;
}

/** What a worker is started with. */
export interface PoolWorkerData {
  readonly task: WorkerTask;
  readonly order: readonly number[];
  /** [next position in `order`, workers finished, the first bad unit or -1]. */
  readonly control: SharedArrayBuffer;
  readonly port: WorkerThreads.MessagePort;
}

/** A worker's answer for one unit, or its end. */
type Message<R> = { index: number; answer: UnitAnswer<R> } | { fatal: string };

/** Take units from the shared counter until none is left, answering each. */
function takeUnits<R>(order: readonly number[], control: Int32Array, run: UnitRunner<R>, answer: (index: number, a: UnitAnswer<R>) => void): void {
  for (let at = Atomics.add(control, 0, 1); at < order.length; at = Atomics.add(control, 0, 1)) {
    const index = order[at];
    const firstBad = Atomics.load(control, 2);
    if (firstBad >= 0 && index > firstBad) continue;
    const a = run(index, firstBad >= 0);
    if ('bad' in a) {
      for (let seen = Atomics.load(control, 2); seen < 0 || index < seen; seen = Atomics.load(control, 2)) {
        if (Atomics.compareExchange(control, 2, seen, index) === seen) break;
      }
    }
    answer(index, a);
  }
}

/** The body of a worker thread (./worker.ts). */
export function workerMain(data: PoolWorkerData): void {
  const control = new Int32Array(data.control);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const factory = require(path.join(__dirname, '..', data.task.module))[data.task.runner] as (setup: unknown) => UnitRunner<unknown>;
    const run = factory(data.task.setup);
    takeUnits(data.order, control, run, (index, answer) => data.port.postMessage({ index, answer }));
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
 * The listener of a worker's late error: defined out here, so that a worker
 * whose exit is not yet told (the event loop has not turned since) holds no
 * closure over a pool's answers, and through them the caller's results.
 */
const ignore = (): void => undefined;

/**
 * Every unit of `order` done, by up to `threads` threads: the answers by unit
 * index (a unit skipped because a bad one comes before it has none).
 */
export function runPool<R>(spec: PoolSpec<R>): Map<number, UnitAnswer<R>> {
  const results = new Map<number, UnitAnswer<R>>();
  const take = (index: number, a: UnitAnswer<R>) => {
    results.set(index, a);
    spec.onAnswer?.(index, a);
  };
  const control = new SharedArrayBuffer(12);
  const counters = new Int32Array(control);
  counters[2] = -1;
  const helpers = Math.min(spec.threads, spec.order.length) - 1;
  if (helpers <= 0) {
    takeUnits(spec.order, counters, spec.local, take);
    return results;
  }

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const wt = require('worker_threads') as typeof WorkerThreads;
  const { script, eval: isEval } = workerScript();
  const workers = Array.from({ length: helpers }, () => {
    const { port1, port2 } = new wt.MessageChannel();
    const workerData: PoolWorkerData = { task: spec.task, order: spec.order, control, port: port2 };
    const worker = new wt.Worker(script, { eval: isEval, workerData, transferList: [port2] });
    worker.unref();
    // an error a worker throws outside its units (its script failed to load) comes after this call returned; its
    // units are done here by then (the stall below), and unheard it would end the process
    worker.on('error', ignore);
    return { worker, port: port1 };
  });
  // a worker's failure is reported once every thread has stopped
  let fatal: string | undefined;
  const drain = () => {
    let heard = false;
    for (const { port } of workers) {
      for (let m = wt.receiveMessageOnPort(port); m !== undefined; m = wt.receiveMessageOnPort(port)) {
        heard = true;
        const message = m.message as Message<R>;
        if ('fatal' in message) fatal ??= message.fatal;
        else take(message.index, message.answer);
      }
    }
    return heard;
  };
  let stalled = false;
  try {
    // the workers' answers are taken between this thread's own units, not all at the end
    takeUnits(spec.order, counters, spec.local, (index, a) => {
      take(index, a);
      drain();
    });
  } finally {
    // the workers stop taking units once the counter is past the end: wait for each to finish its last, or to fall silent
    Atomics.store(counters, 0, spec.order.length);
    const stallMs = spec.stallMs ?? STALL_MS;
    let heard = Date.now();
    for (let done = Atomics.load(counters, 1); done < workers.length; done = Atomics.load(counters, 1)) {
      // short waits: the answers that come in meanwhile are taken as they come
      if (Atomics.wait(counters, 1, done, 100) !== 'timed-out' || drain()) {
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
  if (fatal !== undefined) throw new Error(`${spec.name}: a worker failed: ${fatal}`);
  if (stalled) {
    // what no worker answered, done here, with the same rule for a bad unit as the threads follow
    const left = spec.order.filter(i => !results.has(i));
    const again = new Int32Array(new SharedArrayBuffer(12));
    again[2] = Atomics.load(counters, 2);
    takeUnits(left, again, spec.local, take);
  }
  return results;
}
