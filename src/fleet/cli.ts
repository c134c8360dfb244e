/**
 * `cdk8s-kruise fleet`: the fleet check on the command line. Exit codes: 0
 * checked, 2 the cluster refuses part of it (a CI gate), 3 nothing is
 * refused but a sidecar silently replaces an app container, 1 a usage or
 * input error (one line on stderr).
 */
import { parseArgs } from 'util';
import { checkFleetPaths } from './fleet-jobs';
import { renderFleet } from './fleet-render';
import { FleetFormat } from './fleet-types';
import type { CliIo } from '../cli-io';
import { PlanInputError } from '../plan/errors';
import { RELEASE_FLAG, RELEASE_FLAGS_USAGE } from '../releases/flags';
import { parseJobs } from '../threads/pool';

export const FLEET_USAGE = `usage: cdk8s-kruise fleet --policies PATH [--policies PATH ...]
                          [--workloads [NAME=]PATH ...] [--live [NAME=]FILE ...] [--old-policies PATH ...]
                          [--openkruise V] [--rollouts V] [--format table|markdown|json] [--jobs N]

  --policies PATH      policies under review: a synth output folder or a manifest file (SidecarSets,
                       WorkloadSpreads, PodUnavailableBudgets, PersistentPodStates; Namespaces count everywhere)
  --workloads PATH     an app's synth output, one per app (named by the path, or NAME=PATH)
  --live FILE          a cluster's objects from kubectl get ... -A -o json, one per cluster (named by the
                       file name, or NAME=FILE); each source keeps its own Namespaces and their labels
  --old-policies PATH  the policies as they are now: the report says what the change does
${RELEASE_FLAGS_USAGE}  --format F           table (default), markdown (for a PR comment) or json
  --jobs N             read and check the sources in up to N threads (default: the cores available); the
                       report is the same for any N; a small input is checked in one

exit codes: 0 checked, 2 the cluster refuses part of it, 3 a sidecar silently replaces an app container,
1 usage or input error
`;

const NAMES = { policies: '--policies', workloads: '--workloads', live: '--live', oldPolicies: '--old-policies' };

/** Run `cdk8s-kruise fleet` with the arguments after `fleet`; returns the exit code. */
export function fleetMain(args: string[], io: CliIo): number {
  const fail = (msg: string): number => {
    io.err(`cdk8s-kruise fleet: ${msg}\n`);
    return 1;
  };
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        'policies': { type: 'string', multiple: true },
        'workloads': { type: 'string', multiple: true },
        'live': { type: 'string', multiple: true },
        'old-policies': { type: 'string', multiple: true },
        'openkruise': { type: 'string' },
        'rollouts': { type: 'string' },
        'format': { type: 'string' },
        'jobs': { type: 'string', short: 'j' },
        'help': { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e: any) {
    return fail(`${String(e?.message ?? e).split('\n')[0]} (cdk8s-kruise fleet --help)`);
  }
  if (values.help) {
    io.out(FLEET_USAGE);
    return 0;
  }
  const format = (values.format as string | undefined) ?? 'table';
  if (!['table', 'markdown', 'json'].includes(format)) return fail(`--format '${format}' is not table, markdown or json`);
  const jobs = parseJobs(values.jobs as string | undefined);
  if (Number.isNaN(jobs)) return fail(`--jobs '${values.jobs}' is not a whole number of threads, 1 or more`);
  const policies = (values.policies as string[] | undefined) ?? [];
  if (policies.length === 0) return fail('say which policies to check: --policies PATH (cdk8s-kruise fleet --help)');
  const workloads = values.workloads as string[] | undefined;
  const live = values.live as string[] | undefined;
  if (!workloads && !live) return fail('say what the policies act on: --workloads PATH (an app\'s synth output) or --live FILE (a cluster\'s objects)');
  try {
    const releases = {
      openKruise: values.openkruise as string | undefined, kruiseRollouts: values.rollouts as string | undefined, releaseNames: RELEASE_FLAG,
    };
    const report = checkFleetPaths({ policies, workloads, live, oldPolicies: values['old-policies'] as string[] | undefined }, NAMES, releases, jobs);
    io.out(renderFleet(report, format as FleetFormat));
    return report.refused ? 2 : report.replacesAppContainer ? 3 : 0;
  } catch (e) {
    if (e instanceof PlanInputError) return fail(e.message);
    throw e;
  }
}
