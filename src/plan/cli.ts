/**
 * `cdk8s-kruise plan`: the update plan on the command line. Exit codes: 0
 * planned, 2 the plan holds a change the cluster will refuse (a CI gate), 3
 * a change fights a Kruise Rollouts release in progress (known with
 * --old-live), 1 a usage or input error (one line on stderr).
 * The program's commands are dispatched by src/cli.ts.
 */
import * as path from 'path';
import { parseArgs } from 'util';
import { PlanInputError } from './errors';
import { parseGateFlag } from './gates';
import { comparePlan } from './planner';
import { renderPlan } from './render';
import { readDirectory, readGitRef, readLive } from './sources';
import { PlanFormat } from './types';
import type { CliIo } from '../cli';

const USAGE = `usage: cdk8s-kruise plan (--old DIR --new DIR | --git-ref REF --dir DIR | --old-live FILE --new DIR)
                          [--format table|markdown|json] [--feature-gates Name=true,...] [--nodes N] [--namespace NS]
                          [--openkruise V|OLD..NEW] [--rollouts V|OLD..NEW]

  --old DIR            manifests running now (a synth output directory)
  --new DIR            manifests about to be applied
  --git-ref REF        compare DIR as committed at REF (e.g. origin/main) with DIR on disk
  --dir DIR            the synth output directory for --git-ref (default: dist); also the new side for --old-live
  --old-live FILE      live objects from kubectl get ... -o json (a List) as the old side; also tells
                       which Kruise Rollouts releases are in progress, and plans migrations: a StatefulSet
                       becoming an Advanced StatefulSet (add pods and pvc to the get), a Deployment's pods
                       moving to a CloneSet, a Helm release taken over (--show-managed-fields)
  --format F           table (default), markdown (for a PR comment) or json
  --feature-gates G    OpenKruise gates of the cluster, e.g. InPlaceWorkloadVerticalScaling=true
  --nodes N            nodes an Advanced DaemonSet runs on, for its pod counts
  --namespace NS       namespace of objects without one (default: default)
  --openkruise V       the OpenKruise release the cluster runs: a line (1.8) or a release (1.8.2); OLD..NEW
                       (1.8..1.9) plans an upgrade: CRD versions and fields, gate defaults and webhook rules
                       that change, and with --old-live the objects the new release will refuse. Default: the
                       release of the control planes in the old and new manifests, else 1.9
  --rollouts V         the same for Kruise Rollouts (0.5, 0.5..0.6); default 0.6

exit codes: 0 planned, 2 the cluster will refuse part of the change, 3 part of the change fights a
Kruise Rollouts release in progress (with --old-live), 1 usage or input error
`;

/** The usage of `cdk8s-kruise plan`. */
export const PLAN_USAGE = USAGE;

/** `cdk8s-kruise plan` with `rest` (the arguments after `plan`); returns the exit code. */
export function planMain(rest: string[], io: CliIo): number {
  const fail = (msg: string): number => {
    io.err(`cdk8s-kruise plan: ${msg}\n`);
    return 1;
  };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        'old': { type: 'string' },
        'new': { type: 'string' },
        'git-ref': { type: 'string' },
        'dir': { type: 'string' },
        'old-live': { type: 'string' },
        'format': { type: 'string' },
        'feature-gates': { type: 'string' },
        'nodes': { type: 'string' },
        'namespace': { type: 'string' },
        'openkruise': { type: 'string' },
        'rollouts': { type: 'string' },
        'help': { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e: any) {
    return fail(`${String(e?.message ?? e).split('\n')[0]} (cdk8s-kruise plan --help)`);
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const str = (k: string): string | undefined => values[k] as string | undefined;
  const format = str('format') ?? 'table';
  if (!['table', 'markdown', 'json'].includes(format)) return fail(`--format '${format}' is not table, markdown or json`);
  const sources = ['old', 'git-ref', 'old-live'].filter(k => str(k) !== undefined);
  if (sources.length !== 1) {
    return fail(sources.length === 0 ? 'say what runs now: --old DIR, --git-ref REF or --old-live FILE (cdk8s-kruise plan --help)'
      : `--${sources.join(' and --')} both give the old side; pass only one`);
  }
  if (str('git-ref') !== undefined && str('new') !== undefined) return fail('--git-ref compares with --dir on disk; drop --new (or use --old and --new)');
  if (str('old') !== undefined && str('new') === undefined) return fail('--old needs --new DIR, the manifests about to be applied');
  if (str('old') !== undefined && str('dir') !== undefined) return fail('--dir goes with --git-ref or --old-live; with --old use --new');
  if (str('old-live') !== undefined && str('new') !== undefined && str('dir') !== undefined) return fail('--old-live takes the new side from --new or --dir, not both');
  let nodes: number | undefined;
  if (str('nodes') !== undefined) {
    nodes = Number(str('nodes'));
    if (!/^\d+$/.test(str('nodes')!)) return fail(`--nodes '${str('nodes')}' is not a node count; pass a whole number like 3`);
  }
  try {
    const featureGates = str('feature-gates') === undefined ? undefined : parseGateFlag(str('feature-gates')!, '--feature-gates');
    const cwd = io.cwd ?? process.cwd();
    let oldObjs: any[];
    let newObjs: any[];
    let newDir: string;
    if (str('git-ref') !== undefined) {
      const dir = str('dir') ?? 'dist';
      oldObjs = readGitRef(str('git-ref')!, dir, cwd);
      newObjs = readDirectory(path.resolve(cwd, dir), '--dir');
      newDir = dir;
    } else if (str('old-live') !== undefined) {
      const dir = str('new') ?? str('dir');
      if (dir === undefined) return fail('--old-live needs --new DIR, the manifests about to be applied');
      oldObjs = readLive(str('old-live')!);
      newObjs = readDirectory(dir, str('new') ? '--new' : '--dir');
      newDir = dir;
    } else {
      oldObjs = readDirectory(str('old')!, '--old');
      newObjs = readDirectory(str('new')!, '--new');
      newDir = str('new')!;
    }
    const report = comparePlan(oldObjs, newObjs, {
      featureGates,
      gatesOrigin: '--feature-gates',
      daemonSetNodes: nodes,
      defaultNamespace: str('namespace'),
      oldIsLive: str('old-live') !== undefined,
      newManifestsDir: newDir,
      openKruise: str('openkruise'),
      openKruiseOrigin: '--openkruise',
      kruiseRollouts: str('rollouts'),
      kruiseRolloutsOrigin: '--rollouts',
    });
    io.out(renderPlan(report, format as PlanFormat));
    return report.rejected ? 2 : report.releaseConflict ? 3 : 0;
  } catch (e) {
    if (e instanceof PlanInputError) return fail(e.message);
    throw e;
  }
}
