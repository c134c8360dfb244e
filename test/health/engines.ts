/**
 * The health checks judged by the engines themselves: `health-engines` (a Go
 * program built from the Go module proxy by build-engines.sh) runs the Lua in
 * gopher-lua as Argo CD runs it and the CEL in Flux's own status evaluator. A
 * group of tests that needs it builds it on first use; without the Go
 * toolchain the group is one skipped test saying so.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as path from 'path';
import { SKIPPED_GROUP } from '../util/reference';

const BUILD = path.join(__dirname, 'build-engines.sh');

/** One object to judge. */
export interface EngineCase {
  readonly id: string;
  readonly lua?: string;
  /** Run the Lua with Lua's standard libraries open (Argo CD's built-in scripts). */
  readonly openLibs?: boolean;
  readonly cel?: { readonly current: string; readonly failed?: string; readonly inProgress?: string };
  /** Also judge the object by kstatus alone (Flux without healthCheckExprs). */
  readonly kstatus?: boolean;
  readonly object: unknown;
}

/** What the engines said. */
export interface EngineResult {
  readonly id: string;
  readonly argo?: { readonly status?: string; readonly message?: string };
  readonly argoError?: string;
  readonly flux?: 'Current' | 'InProgress' | 'Failed';
  readonly fluxError?: string;
  readonly kstatus?: string;
}

let binary: string | undefined | null = null;

/** The path of health-engines, built when the Go toolchain is there; undefined without it. */
export function healthEnginesBinary(): string | undefined {
  if (binary !== null) return binary;
  const built = execFileSync('bash', [BUILD, '--if-built']).toString().trim();
  if (built) return (binary = built);
  if (spawnSync('go', ['version']).status !== 0) return (binary = undefined);
  const r = spawnSync('bash', [BUILD], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building health-engines failed:\n${r.stderr}`);
  return (binary = r.stdout.trim());
}

/** Judge the cases with both engines. */
export function judge(cases: readonly EngineCase[]): EngineResult[] {
  const bin = healthEnginesBinary();
  if (!bin) throw new Error('health-engines is not built');
  const out = execFileSync(bin, { input: JSON.stringify({ cases }), maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.toString()) as EngineResult[];
}

/** `describe(name, fn)` when health-engines can run; otherwise one skipped test saying why. */
export function describeWithEngines(name: string, fn: () => void): void {
  if (healthEnginesBinary()) {
    describe(name, fn);
    return;
  }
  describe(name, () => {
    test.skip(`${SKIPPED_GROUP}the Go toolchain (go) is not on PATH to build test/health/engines`, () => undefined);
  });
}
