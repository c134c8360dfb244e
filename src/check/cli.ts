/**
 * `cdk8s-kruise check`: the library's admission for manifests written
 * anywhere (Helm or kustomize output, a repository's YAML, standard input).
 * Exit codes: 0 every document admitted, 2 something refused, 1 bad input
 * (YAML that does not parse, with its file and line) or usage.
 */
import * as fs from 'fs';
import { parseArgs } from 'util';
import type { CliIo } from '../cli-io';
import { runCheck } from './check';
import { judgeSetup, readAndJudge } from './jobs';
import { CheckInputError, inputFiles, parseLive, readText } from './read';
import { CheckUsageError, LiveVersion, checkTarget } from './releases';
import { CHECK_FORMATS, CheckFormat, renderCheck } from './render';
import type * as Gates from '../control-plane/_gates';
import type { PlacedGateSource } from '../gates/source';
import { fromVersionInfo, versionInfoInText } from '../releases/kubernetes';
import { gateDefaults, Release, ReleaseError } from '../releases/registry';
import { parseJobs } from '../threads/pool';

export const CHECK_USAGE = `usage: cdk8s-kruise check [--openkruise V] [--rollouts V] [--feature-gates G] [--live FILE]
                          [--kubernetes V] [--kubernetes-vendor eks|gke|aks|other]
                          [--output text|json|junit] [--jobs N] PATH... | -

  PATH                 a manifest file, or a folder (every .yaml, .yml and .json in it, recursively);
                       - reads standard input (e.g. helm template ... | cdk8s-kruise check -)
  --openkruise V       the OpenKruise release the cluster runs: a line (1.8) or a release (1.8.2); the
                       default is the release of the kruise-manager in --live, else 1.9
  --rollouts V         the Kruise Rollouts release the cluster runs: a line (0.5) or a release (0.5.3);
                       the default is the release of the kruise-rollout-manager in --live, else 0.6
  --feature-gates G    kruise-manager's --feature-gates, e.g. WorkloadSpread=false,ImagePullJobGate=true:
                       the webhook rules follow them (the release's defaults for the others), and
                       objects needing a gate that is off are refused
  --live FILE          the cluster's objects (kubectl get ... -A -o json): SidecarSets, budgets, Namespaces
                       and workloads the documents are checked against, CRDs the cluster has beyond its
                       release's chart (kubectl get crd -o json); never judged themselves; a document of an
                       object the file holds is judged as an update of it (what may not change); or its
                       API server's version (kubectl get --raw /version > version.json)
  --kubernetes V       the cluster's Kubernetes: /version's gitVersion (v1.31.4-eks-2d5f260) or a minor
                       (1.31); known failures of the release there are refused or warned
  --kubernetes-vendor V  eks, gke, aks or other (EKS and GKE are read from the gitVersion)
  --output F           text (default), json, or junit (XML for CI test reports)
  --jobs N             read and judge the files in up to N threads (default: the cores available); the
                       output is the same for any N; a small input is judged in one

Every OpenKruise and Kruise Rollouts document goes through the admission of cdk8s synth as the release
does it (its schema, the webhook's defaults and rules) and the checks across all the documents given (SidecarSet conflicts,
budgets, spreads, Rollout targets); other kinds are counted and passed by.

exit codes: 0 all admitted, 2 something is refused, 1 bad input or usage
`;

/**
 * The `--feature-gates` of the kruise-manager Deployment of a cluster's live
 * state (as `KruiseContext.addLiveState` reads them), if the state holds one.
 */
function liveGates(live: ReadonlyArray<{ json: any }>): string | undefined {
  const manager = live.map(d => d.json).find(o => o.kind === 'Deployment' && o.apiVersion === 'apps/v1' && o.metadata?.name === 'kruise-controller-manager');
  const container = (manager?.spec?.template?.spec?.containers ?? []).find((c: any) => c?.name === 'manager');
  const flag = (container?.args ?? []).find((a: unknown) => typeof a === 'string' && a.startsWith('--feature-gates='));
  return flag === undefined ? undefined : flag.slice('--feature-gates='.length);
}

/** `--feature-gates G` as the gates of a kruise-manager of `release`, or a usage error. */
function featureGates(flag: string, release: Release, place = `of --feature-gates '${flag}'`): PlacedGateSource {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { _GateSet } = require('../control-plane/_gates') as typeof Gates;
  const settings = new Map<string, Gates._GateSetting>();
  for (const part of flag.split(',').map(p => p.trim()).filter(p => p !== '')) {
    const m = /^([A-Za-z0-9]+)=(true|false)$/.exec(part);
    if (!m) throw new CheckUsageError(`--feature-gates: '${part}' is not Gate=true or Gate=false (as kruise-manager's --feature-gates takes them)`);
    settings.set(m[1], { value: m[2] === 'true', origin: `--feature-gates ${m[1]}`, explicit: true });
  }
  const gates = new _GateSet(settings, gateDefaults(release), `v${release.version}`);
  const problems = gates.problems();
  if (problems.length > 0) throw new CheckUsageError(problems[0].replace(/use one of the names in KruiseFeatureGate(?: that \S+ has)? \(([^)]*)\)/, 'use one of $1'));
  return {
    place,
    isEnabled: g => {
      try {
        return gates.isEnabled(g);
      } catch {
        // a gate the release does not have: kruise-manager knows no such gate, so what it guards is off
        return false;
      }
    },
    howToEnable: g => `turn ${g} on in kruise-manager's --feature-gates (and here), or stop using the kind`,
  };
}

/** Run `cdk8s-kruise check` with the arguments after `check`; returns the exit code. */
export function checkMain(args: string[], io: CliIo): number {
  const fail = (msg: string): number => {
    io.err(`cdk8s-kruise check: ${msg}\n`);
    return 1;
  };
  let parsed: { values: Record<string, string | string[] | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        'openkruise': { type: 'string' },
        'rollouts': { type: 'string' },
        'feature-gates': { type: 'string' },
        'live': { type: 'string', multiple: true },
        'kubernetes': { type: 'string' },
        'kubernetes-vendor': { type: 'string' },
        'output': { type: 'string', short: 'o' },
        'jobs': { type: 'string', short: 'j' },
        'help': { type: 'boolean', short: 'h' },
      },
    });
  } catch (e: any) {
    return fail(`${String(e?.message ?? e).split('\n')[0]} (cdk8s-kruise check --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(CHECK_USAGE);
    return 0;
  }
  const format = (values.output as string | undefined) ?? 'text';
  if (!(CHECK_FORMATS as readonly string[]).includes(format)) return fail(`--output '${format}' is not text, json or junit`);
  const jobs = parseJobs(values.jobs as string | undefined);
  if (Number.isNaN(jobs)) return fail(`--jobs '${values.jobs}' is not a whole number of threads, 1 or more`);
  if (positionals.length === 0) return fail('say what to check: PATH... (files or folders), or - for standard input (cdk8s-kruise check --help)');
  try {
    const stdin = io.stdin ?? (() => fs.readFileSync(0, 'utf8'));
    // the live state: the cluster's objects, and its API server's /version
    const versions: LiveVersion[] = [];
    const live = ((values.live as string[] | undefined) ?? []).flatMap(f => {
      const text = readText(f, stdin);
      const version = versionInfoInText(text);
      if (version === undefined) return parseLive(text, f);
      try {
        versions.push({ cluster: fromVersionInfo(version, `--live ${f}`), file: f });
      } catch (e) {
        if (e instanceof ReleaseError) throw new CheckUsageError(e.message);
        throw e;
      }
      return [];
    });
    // the releases: the flags, else those of the managers the live state holds, else the default lines
    const target = checkTarget(values.openkruise as string | undefined, values.rollouts as string | undefined, live,
      { kubernetes: values.kubernetes as string | undefined, kubernetesVendor: values['kubernetes-vendor'] as string | undefined, versions });
    const release = target.releases.openKruise.release;
    // the gates: --feature-gates, else those of the kruise-manager the live state holds
    const fromLive = values['feature-gates'] === undefined ? liveGates(live) : undefined;
    const gates = values['feature-gates'] !== undefined ? featureGates(values['feature-gates'] as string, release)
      : fromLive !== undefined ? featureGates(fromLive, release, `of the kruise-manager in --live (--feature-gates=${fromLive})`) : undefined;
    const documents = readAndJudge(inputFiles(positionals), stdin, jobs, judgeSetup(target.releases, gates));
    const report = runCheck({ documents, live, target, gates });
    io.out(renderCheck(report, format as CheckFormat));
    return report.refused > 0 || report.targetErrors.length > 0 ? 2 : 0;
  } catch (e) {
    if (e instanceof CheckInputError || e instanceof CheckUsageError) return fail(e.message);
    throw e;
  }
}
