/**
 * A command of the compiled CLI (lib/, which the test task compiles before
 * jest runs) in a fresh node, with the worker threads it started read from
 * Node's own debug log of worker threads (NODE_DEBUG=worker), never from
 * timing: what test/check/jobs.test.ts and test/fleet/fleet-jobs.test.ts
 * count their threads by.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'cdk8s-kruise');

/** What a run printed (Node's debug entries taken out of `err`) and `workers`: the worker threads it started. */
export interface CountedRun {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
  readonly workers: number;
}

/** `cdk8s-kruise COMMAND ARGS`, its workers counted. */
export function runCountingWorkers(command: string, args: string[]): CountedRun {
  if (!fs.existsSync(path.join(ROOT, 'lib', 'src', 'threads', 'worker.js'))) throw new Error('lib/src/threads/worker.js is missing: run `npx projen compile` first');
  const r = spawnSync(process.execPath, [BIN, command, ...args], { encoding: 'utf-8', env: { ...process.env, NODE_DEBUG: 'worker' }, maxBuffer: 256 * 1024 * 1024 });
  // Node's debug entries start with `WORKER <pid>:`; an object it prints goes on over indented lines
  const debug: string[] = [];
  const err: string[] = [];
  let inDebug = false;
  for (const line of r.stderr.split('\n')) {
    inDebug = /^WORKER \d+:/.test(line) || (inDebug && /^[\s}\]]/.test(line));
    (inDebug ? debug : err).push(line);
  }
  return { code: r.status, out: r.stdout, err: err.join('\n'), workers: debug.filter(l => / created Worker with ID \d+$/.test(l)).length };
}
