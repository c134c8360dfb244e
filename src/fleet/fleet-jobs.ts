/**
 * `cdk8s-kruise fleet --jobs N`: the sources (the apps' outputs, the
 * clusters' objects) are read, parsed and their workloads checked against
 * the policies by up to N threads at once, this one and N-1 worker threads
 * (../threads/pool.ts); what crosses back is a digest of each source (its
 * summary, its own policies, and what its workloads met, in order), not its
 * objects. This thread then plays the digests back into one report, in
 * input order, after the conflicts between the policies and the sources'
 * own: the same report as one thread writes (`runFleetCheck`), whatever N
 * and whatever the threads' timing.
 *
 * Errors come in the order one thread meets them: the policies' files, then
 * each source's files in input order (a source named like one before it
 * right after its own files), then the release and the policies' refusals,
 * then each source's own refused policy. A small input (less than
 * `BYTES_PER_THREAD` per thread, or one source) starts no worker.
 */
import * as fs from 'fs';
import {
  checkSource, Collector, fileOf, FleetReleases, Policy, policyOf, prepareCheck, Prepared, Reached, readSource,
  runFleetCheck, WorkloadSink,
} from './fleet-engine';
import { FleetInputNames, firstDuplicate, readFleetPaths, readPolicies, readSourceObjects, SourceEntry, sourceEntries } from './fleet-read';
import { FleetCheckPaths, FleetInjection, FleetProblemKind, FleetProblemSeverity, FleetReport, FleetSourceSummary, FleetWorkload } from './fleet-types';
import { PlanInputError } from '../plan/errors';
import { manifestFiles } from '../plan/sources';
import { defaultJobs, runPool, threadsFor, UnitAnswer, UnitRunner } from '../threads/pool';

type Json = any;

const KINDS = Object.values(FleetProblemKind);
const SEVERITIES = Object.values(FleetProblemSeverity);

/** What a source's workloads met, in `SourceDigest.met`: a code, then the workload's place in `workloads`, then its fields. */
const enum Met {
  /** The kind's and the severity's place in their enums, the message's in `messages`, the number of policies, each policy's number. */
  PROBLEM = 0,
  /** The injection's place in `injections`, the number of policies, each policy's number. */
  INJECTED = 1,
  /** The policy's number. */
  COVERED = 2,
  /** The old policy's number. */
  REACHED_BEFORE = 3,
}

/**
 * A source, checked: what this thread needs of it for the report. What its
 * workloads met is one list of numbers (a policy by its place in
 * `Prepared.numbered`, which every thread builds alike from the same input),
 * so that a digest is cheap to make, to send and to keep.
 */
interface SourceDigest {
  readonly summary: FleetSourceSummary;
  /** Its own policies (not under review, not an old copy), with their files. */
  readonly own: Array<{ readonly json: Json; readonly file?: string }>;
  /** The workloads named by `met`, in the order first named. */
  readonly workloads: FleetWorkload[];
  /** Their pods' labels, when there are old policies (a change report reads them); else empty. */
  readonly labels: Array<Record<string, string>>;
  readonly met: number[];
  readonly messages: string[];
  readonly injections: Array<Omit<FleetInjection, 'workload'>>;
  /** The message of its first own policy the cluster refuses. */
  readonly refusal?: string;
}

/** A sink that writes down what it is told, for another thread to play back. */
class Recorder implements WorkloadSink {
  public readonly met: number[] = [];
  public readonly messages: string[] = [];
  public readonly injections: Array<Omit<FleetInjection, 'workload'>> = [];
  public readonly workloads: FleetWorkload[] = [];
  public readonly labels: Array<Record<string, string>> = [];
  private last?: Reached;
  private lastAt = -1;

  constructor(private readonly prep: Prepared, private readonly withLabels: boolean) {}

  public problem(kind: FleetProblemKind, severity: FleetProblemSeverity, policies: Policy[], w: Reached, message: string): void {
    const reviewed = policies.filter(p => p.reviewed);
    this.met.push(Met.PROBLEM, this.place(w), KINDS.indexOf(kind), SEVERITIES.indexOf(severity), this.messages.length, reviewed.length);
    this.messages.push(message);
    this.policies(reviewed);
  }

  public injected(policies: Policy[], w: Reached, injection: Omit<FleetInjection, 'workload'>): void {
    this.met.push(Met.INJECTED, this.place(w), this.injections.length, policies.length);
    this.injections.push(injection);
    this.policies(policies);
  }

  public covered(p: Policy, w: Reached): void {
    this.met.push(Met.COVERED, this.place(w), this.prep.numberOf.get(p)!);
  }

  public reachedBefore(p: Policy, w: Reached): void {
    this.met.push(Met.REACHED_BEFORE, this.place(w), this.prep.numberOf.get(p)!);
  }

  private policies(list: Policy[]): void {
    for (const p of list) this.met.push(this.prep.numberOf.get(p)!);
  }

  /** The workload's place: the check tells of one workload at a time, so the last one is all there is to remember. */
  private place(w: Reached): number {
    if (w !== this.last) {
      this.last = w;
      this.lastAt = this.workloads.length;
      this.workloads.push(w.ref);
      if (this.withLabels) this.labels.push(w.labels);
    }
    return this.lastAt;
  }
}

/** Tell `sink` what a digest's workloads met, in the order they met it. */
function playBack(d: SourceDigest, prep: Prepared, sink: WorkloadSink): void {
  const { met } = d;
  const policy = (at: number) => prep.numbered[met[at]];
  const policies = (from: number, n: number) => {
    const out: Policy[] = [];
    for (let k = 0; k < n; k++) out.push(policy(from + k));
    return out;
  };
  let w: Reached | undefined;
  let wAt = -1;
  for (let i = 0; i < met.length;) {
    const at = met[i + 1];
    if (at !== wAt) {
      wAt = at;
      w = { ref: d.workloads[at], labels: d.labels[at] ?? {} };
    }
    switch (met[i]) {
      case Met.PROBLEM: {
        const n = met[i + 5];
        sink.problem(KINDS[met[i + 2]], SEVERITIES[met[i + 3]], policies(i + 6, n), w!, d.messages[met[i + 4]]);
        i += 6 + n;
        break;
      }
      case Met.INJECTED: {
        const n = met[i + 3];
        sink.injected(policies(i + 4, n), w!, d.injections[met[i + 2]]);
        i += 4 + n;
        break;
      }
      case Met.COVERED:
        sink.covered(policy(i + 2), w!);
        i += 3;
        break;
      default:
        sink.reachedBefore(policy(i + 2), w!);
        i += 3;
    }
  }
}

/**
 * One source read and checked into its digest; `degraded` (a source after it
 * cannot be read, so no report is written): only read.
 */
function digestOf(e: SourceEntry, prep: Prepared, degraded: boolean): UnitAnswer<SourceDigest | undefined> {
  let manifests: Json[];
  try {
    manifests = readSourceObjects(e);
  } catch (err) {
    if (err instanceof PlanInputError) return { bad: err.message };
    throw err;
  }
  if (degraded) return { value: undefined };
  const summary = { name: e.name, kind: e.kind, workloads: 0, namespaces: 0 };
  const empty = { summary, own: [], workloads: [], labels: [], met: [], messages: [], injections: [] };
  let source;
  try {
    source = readSource({ name: e.name, kind: e.kind, manifests }, prep);
  } catch (err) {
    if (err instanceof PlanInputError) return { value: { ...empty, refusal: err.message } };
    throw err;
  }
  const recorder = new Recorder(prep, prep.old !== undefined);
  checkSource(source, prep, recorder);
  return {
    value: {
      summary: source.summary,
      own: source.own.map(p => ({ json: p.json, file: fileOf.get(p.json) })),
      workloads: recorder.workloads,
      labels: recorder.labels,
      met: recorder.met,
      messages: recorder.messages,
      injections: recorder.injections,
    },
  };
}

/** What a fleet check's worker threads are started with: the policies were judged by this thread. */
interface FleetSetup {
  readonly entries: readonly SourceEntry[];
  readonly policies: Json[];
  readonly oldPolicies?: Json[];
  readonly releases: FleetReleases;
}

/** A worker thread's runner (../threads/pool.ts): the sources of the check, each into its digest. */
export function sourceRunner(setup: FleetSetup): UnitRunner<SourceDigest | undefined> {
  const prep = prepareCheck(setup.policies, setup.oldPolicies, setup.releases, false);
  return (index, degraded) => digestOf(setup.entries[index], prep, degraded);
}

/** The bytes of a source's files (0 when it cannot be listed: the error is reported when it is read). */
function sourceBytes(e: SourceEntry): number {
  try {
    return manifestFiles(e.path, e.flag, e.expected).reduce((n, f) => n + fs.statSync(f).size, 0);
  } catch {
    return 0;
  }
}

/**
 * Read what `paths` names and check it, with up to `jobs` threads: the same
 * report and the same errors as `runFleetCheck(readFleetPaths(paths))`.
 */
export function checkFleetPaths(
  paths: FleetCheckPaths, names?: FleetInputNames, releases: FleetReleases = {}, jobs: number = defaultJobs(),
): FleetReport {
  const alone = () => runFleetCheck({ ...readFleetPaths(paths, names), ...releases });
  const entries = sourceEntries(paths, names);
  const sizes = entries.map(sourceBytes);
  const threads = threadsFor(sizes, jobs);
  if (threads === 1) return alone();

  const { policies, oldPolicies } = readPolicies(paths, names);
  let prep: Prepared;
  try {
    prep = prepareCheck(policies, oldPolicies, releases);
  } catch (e) {
    // a source that cannot be read is reported before the release or a refused policy: one thread's order decides
    if (e instanceof PlanInputError) return alone();
    throw e;
  }
  const duplicate = firstDuplicate(entries);
  const count = duplicate.at >= 0 ? duplicate.at + 1 : entries.length;
  // the largest sources first, so no thread is left with a big one at the end
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => sizes[b] - sizes[a] || a - b);
  const setup: FleetSetup = { entries, policies, oldPolicies, releases };
  // each source is played back into the report as soon as every source before it is: in input order, while the threads go on
  const collector = new Collector(prep);
  const digests: Array<SourceDigest | undefined> = [];
  let played = 0;
  let broken = false;
  const onAnswer = (index: number, a: UnitAnswer<SourceDigest | undefined>) => {
    if ('bad' in a || !a.value) broken = true; // the check ends with an error: nothing more is played back
    else digests[index] = a.value;
    for (let d = digests[played]; !broken && d !== undefined && played < count; d = digests[++played]) {
      if (d.refusal === undefined) playBack(d, prep, collector);
    }
  };
  const results = runPool<SourceDigest | undefined>({
    order,
    threads,
    local: (index, degraded) => digestOf(entries[index], prep, degraded),
    task: { module: 'fleet/fleet-jobs', runner: 'sourceRunner', setup },
    name: 'cdk8s-kruise fleet',
    onAnswer,
  });
  for (let i = 0; i < count; i++) {
    const r = results.get(i);
    if (r && 'bad' in r) throw new PlanInputError(r.bad);
    if (i === duplicate.at) throw new PlanInputError(duplicate.message);
  }
  for (const d of digests) if (d?.refusal !== undefined) throw new PlanInputError(d.refusal);

  collector.conflicts(digests.map(d => ({
    own: d!.own.map(o => {
      if (o.file !== undefined) fileOf.set(o.json, o.file);
      return policyOf(o.json, d!.summary.name, false, prep.ctx, false)!;
    }),
  })));
  return collector.report(digests.map(d => d!.summary));
}
