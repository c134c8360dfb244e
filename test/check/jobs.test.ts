/**
 * `cdk8s-kruise check --jobs N`: the same bytes for any N, and no worker for
 * a small input. Run on the compiled command (lib/, which the test task
 * compiles before jest runs), where the workers are the compiled
 * src/threads/worker.ts; the workers a run starts are read from Node's own
 * debug log of worker threads (NODE_DEBUG=worker), never from timing.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CheckReport, runCheck } from '../../src/check/check';
import { judgeSetup, readAndJudge } from '../../src/check/jobs';
import { inputFiles, parseDocuments, readText } from '../../src/check/read';
import { checkTarget } from '../../src/check/releases';
import { renderCheck } from '../../src/check/render';
import { BYTES_PER_THREAD, threadsFor } from '../../src/threads/pool';
import { runCountingWorkers } from '../threads/workers';

/** `cdk8s-kruise check ARGS` in a fresh node; `workers`: the worker threads it started. */
const check = (args: string[]) => runCountingWorkers('check', args);

const cloneSet = (name: string, ns: string, type = 'InPlaceIfPossible') => `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  replicas: 2
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}, tier: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources: {requests: {cpu: 100m}}
  updateStrategy:
    type: ${type}
`;
const sidecarSet = (name: string, extra = '') => `apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata:
  name: ${name}
${extra}spec:
  selector:
    matchLabels: {tier: web}
  containers:
  - name: logtail
    image: ${name}:1
`;

/**
 * A corpus of 12 files, over 1 MiB (so 4 threads read it), where every
 * kind of outcome lands in a different file: documents admitted, refused
 * on their own, warned about, refused by the checks across files (two
 * SidecarSets injecting the same container, in files 3 and 9), a Rollout
 * whose workload is in another file (judged with the others), JSON, a List
 * and other kinds passed by.
 */
function corpus(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-jobs-'));
  // each file's bulk is a ConfigMap's data (read, passed by), so the test pays for the bytes and not for judging them
  const per = 30;
  const bulk = (f: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bulk, namespace: ns-${f}}\ndata:\n  blob: ${'x'.repeat(Math.ceil((1.1 * 4 * BYTES_PER_THREAD) / 12))}\n`;
  for (let f = 0; f < 12; f++) {
    const docs: string[] = [bulk(f)];
    for (let i = 0; i < per; i++) {
      const n = f * per + i;
      docs.push(cloneSet(`w-${n}`, `ns-${f}`, n % 97 === 5 ? 'OnDelete' : 'InPlaceIfPossible'));
    }
    if (f === 3) docs.push(sidecarSet('logs-a'));
    if (f === 9) docs.push(sidecarSet('logs-b'));
    if (f === 5) docs.push(sidecarSet('logs-c', '  namespace: default\n').replace('logtail', 'other'));
    if (f === 7) docs.push(`apiVersion: rollouts.kruise.io/v1beta1\nkind: Rollout\nmetadata: {name: r, namespace: ns-2}\nspec:\n  workloadRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: w-${2 * per}}\n  strategy:\n    canary:\n      steps: [{replicas: 1}]\n`);
    if (f === 8) docs.push('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: ns-8}\ndata: {a: b}\n');
    fs.writeFileSync(path.join(dir, `app-${String(f).padStart(2, '0')}.yaml`), docs.join('---\n'));
  }
  const fromJson = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'from-json', namespace: 'ns-j' }, spec: { selector: { matchLabels: { app: 'j' } }, template: { metadata: { labels: { app: 'j' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } }, updateStrategy: { type: 'Bogus' } } };
  fs.writeFileSync(path.join(dir, 'list.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [fromJson] }));
  return dir;
}

/** The report of an input judged the way a check did before --jobs: every object with all the others, in this process. */
function judgedTogether(dir: string): CheckReport {
  const documents = inputFiles([dir]).flatMap(f => parseDocuments(readText(f, () => ''), f));
  return runCheck({ documents, target: checkTarget(undefined, undefined) });
}

describe('cdk8s-kruise check --jobs', () => {
  let dir: string;
  let together: CheckReport;
  beforeAll(() => {
    dir = corpus();
    together = judgedTogether(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test.each(['text', 'json', 'junit'] as const)('the same bytes for --jobs 1, 2 and 4 (text; 1 and 4 for the others), and as judged all together (%s)', format => {
    const expected = renderCheck(together, format);
    // the corpus holds each kind of outcome, so the comparison covers them
    if (format === 'text') {
      expect(expected).toContain('spec.updateStrategy.type: "OnDelete" is not supported by the CloneSet webhook');
      expect(expected).toContain('spec.updateStrategy.type: "Bogus"');
      expect(expected).toContain('"logs-b" is another SidecarSet');
      expect(expected).toContain('warning: SidecarSet "logs-c"');
      expect(expected).toMatch(/documents refused\n$/);
    }
    const jobs = format === 'text' ? [1, 2, 4] : [1, 4];
    const runs = jobs.map(j => ({ jobs: j, ...check(['--jobs', String(j), '--output', format, dir]) }));
    for (const r of runs) {
      expect({ jobs: r.jobs, code: r.code, err: r.err }).toEqual({ jobs: r.jobs, code: 2, err: '' });
      expect(r.out).toBe(expected);
    }
    // one worker for each thread beyond this one
    expect(runs.map(r => r.workers)).toEqual(jobs.map(j => j - 1));
  });

  test('the file reported for bad input is the first in input order, whichever thread read it', () => {
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'check-jobs-bad-'));
    try {
      // a small bad file first, two good ones, a big bad one last (taken first: the threads take the largest files first)
      fs.writeFileSync(path.join(bad, 'a-small.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [\n');
      const blob = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bulk}\ndata:\n  blob: ${'x'.repeat(BYTES_PER_THREAD)}\n`;
      for (const f of ['b.yaml', 'c.yaml']) fs.writeFileSync(path.join(bad, f), [blob, ...Array.from({ length: 20 }, (_, i) => cloneSet(`w-${i}`, f))].join('---\n'));
      fs.writeFileSync(path.join(bad, 'z-big.yaml'), `${blob}---\n${blob}---\nkind: [\n`);
      const runs = [1, 4].map(jobs => check(['--jobs', String(jobs), bad]));
      expect(runs.map(r => r.workers)).toEqual([0, 3]);
      for (const r of runs) expect({ code: r.code, out: r.out, err: r.err }).toEqual({ code: 1, out: '', err: `cdk8s-kruise check: ${path.join(bad, 'a-small.yaml')}:4: not valid YAML (deficient indentation); fix the file\n` });
    } finally {
      fs.rmSync(bad, { recursive: true, force: true });
    }
  });

  test('a small input (one file, a few documents) starts no worker, whatever --jobs says', () => {
    const small = fs.mkdtempSync(path.join(os.tmpdir(), 'check-jobs-small-'));
    try {
      const file = path.join(small, 'web.yaml');
      fs.writeFileSync(file, [cloneSet('web', 'shop'), sidecarSet('logs')].join('---\n'));
      const r = check(['--jobs', '4', file]);
      expect(r).toEqual({ code: 0, out: expect.stringMatching(/^checked 2 documents in 1 file .*; all admitted\n$/), err: '', workers: 0 });
    } finally {
      fs.rmSync(small, { recursive: true, force: true });
    }
  });

  test('threads: one per BYTES_PER_THREAD of input, at most --jobs, at most one per file', () => {
    expect(threadsFor([BYTES_PER_THREAD - 1], 8)).toBe(1);
    expect(threadsFor([5 * BYTES_PER_THREAD], 8)).toBe(1);
    expect(threadsFor([BYTES_PER_THREAD, BYTES_PER_THREAD - 1], 8)).toBe(1);
    expect(threadsFor([BYTES_PER_THREAD, BYTES_PER_THREAD], 8)).toBe(2);
    expect(threadsFor(Array(10).fill(BYTES_PER_THREAD), 4)).toBe(4);
    expect(threadsFor(Array(10).fill(BYTES_PER_THREAD), 1)).toBe(1);
  });

  test('workers that end without a word (their script does not load): this thread judges what they left, the same report', () => {
    const target = checkTarget(undefined, undefined);
    const files = inputFiles([dir]);
    const report = (jobs: number, stallMs?: number) => renderCheck(runCheck({ documents: readAndJudge(files, () => '', jobs, judgeSetup(target.releases), stallMs), target }), 'text');
    const saved = process.env.TS_NODE_PROJECT;
    // run from the sources, a worker registers ts-node with this project first: a missing one ends it at once, before any file
    process.env.TS_NODE_PROJECT = path.join(dir, 'no-such-tsconfig.json');
    let broken: string;
    try {
      broken = report(4, 1500);
    } finally {
      if (saved === undefined) delete process.env.TS_NODE_PROJECT;
      else process.env.TS_NODE_PROJECT = saved;
    }
    expect(broken).toBe(report(1));
    expect(broken).toBe(renderCheck(together, 'text'));
  });

  test('--jobs takes a whole number of threads, 1 or more', () => {
    const r = check(['--jobs', '0', '-']);
    expect(r).toEqual({ code: 1, out: '', err: "cdk8s-kruise check: --jobs '0' is not a whole number of threads, 1 or more\n", workers: 0 });
  });
});
