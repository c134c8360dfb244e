/**
 * The pool's own rules, on this thread (the threads themselves are tested
 * through the commands that use them: test/check/jobs.test.ts and
 * test/fleet/fleet-jobs.test.ts compare their output for 1, 2 and 4 threads).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { BYTES_PER_THREAD, parseJobs, runPool, threadsFor, UnitAnswer } from '../../src/threads/pool';

const POOL = path.join(__dirname, '..', '..', 'lib', 'src', 'threads', 'pool.js');

const task = { module: 'check/jobs', runner: 'fileRunner', setup: {} };

describe('runPool', () => {
  test('every unit answered, in the order taken, each answer told as it comes', () => {
    const told: number[] = [];
    const results = runPool<string>({
      order: [2, 0, 1],
      threads: 1,
      task,
      name: 'test',
      local: index => ({ value: `unit ${index}` }),
      onAnswer: index => told.push(index),
    });
    expect([...results]).toEqual([[2, { value: 'unit 2' }], [0, { value: 'unit 0' }], [1, { value: 'unit 1' }]]);
    expect(told).toEqual([2, 0, 1]);
  });

  test('after a bad unit, the units after it are skipped and the ones before it done degraded', () => {
    const done: Array<[number, boolean]> = [];
    const results = runPool<string>({
      order: [3, 1, 4, 0, 2],
      threads: 1,
      task,
      name: 'test',
      local: (index, degraded): UnitAnswer<string> => {
        done.push([index, degraded]);
        return index === 3 || index === 1 ? { bad: `unit ${index} is bad` } : { value: `unit ${index}` };
      },
    });
    // 3 is bad: 1 is done degraded and is bad too, so it is the first bad one; 4 and 2 come after it and are skipped, 0 is done degraded
    expect(done).toEqual([[3, false], [1, true], [0, true]]);
    expect(Object.fromEntries(results)).toEqual({ 3: { bad: 'unit 3 is bad' }, 1: { bad: 'unit 1 is bad' }, 0: { value: 'unit 0' } });
  });
});

describe('a pool with worker threads', () => {
  test('keeps nothing of its answers once it has returned, before the event loop turns (and tells of the workers\' exits)', () => {
    if (!fs.existsSync(POOL)) throw new Error('lib/src/threads/pool.js is missing: run `npx projen compile` first');
    // a synchronous caller (a script checking fleet after fleet, the bench's rounds) never lets the workers' exits be
    // told: what they still hold must not reach the answers. Each of this thread's answers is 16 MiB of numbers; the
    // workers' units (a source that does not exist) are bad, which still leaves this thread's first units answered.
    const script = `
      const { runPool } = require(${JSON.stringify(POOL)});
      const used = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
      const before = used();
      let answered = 0;
      const run = () => runPool({
        order: [0, 1, 2, 3, 4, 5, 6, 7], threads: 3, name: 'test',
        task: { module: 'fleet/fleet-jobs', runner: 'sourceRunner', setup: {
          entries: Array.from({ length: 8 }, (_, i) => ({ name: 'n' + i, kind: 'Workloads', path: '/nonexistent/' + i, flag: 'workloads', expected: 'a folder' })),
          policies: [], releases: {},
        } },
        local: () => { answered++; return { value: new Array(1 << 21).fill(0.5) }; },
      }).size;
      run();
      run();
      process.stdout.write(JSON.stringify({ answered, kept: Math.round((used() - before) / (1 << 20)) }));
    `;
    const r = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf-8' });
    expect(r.stderr).toBe('');
    const { answered, kept } = JSON.parse(r.stdout);
    expect(answered).toBeGreaterThanOrEqual(2);
    // MiB still used: a few for the modules loaded, none of the 16 MiB answers
    expect(kept).toBeLessThan(16);
  });
});

describe('threads and --jobs', () => {
  test('one thread per BYTES_PER_THREAD of input, at most jobs, at most one per unit', () => {
    expect(threadsFor([BYTES_PER_THREAD - 1], 8)).toBe(1);
    expect(threadsFor(Array(3).fill(BYTES_PER_THREAD), 8)).toBe(3);
    expect(threadsFor(Array(3).fill(BYTES_PER_THREAD), 2)).toBe(2);
    expect(threadsFor([10 * BYTES_PER_THREAD], 8)).toBe(1);
  });

  test('--jobs: a whole number, 1 or more; absent, the cores available', () => {
    expect(parseJobs('3')).toBe(3);
    expect(parseJobs(undefined)).toBeGreaterThanOrEqual(1);
    for (const bad of ['0', '-1', '1.5', 'two', '', '03']) expect(parseJobs(bad)).toBeNaN();
  });
});
