/**
 * `cdk8s-kruise health`: the health checks of the OpenKruise and Kruise
 * Rollouts kinds, printed as YAML for Argo CD (the `argocd-cm` ConfigMap) or
 * Flux (a Kustomization's `healthCheckExprs`). Exit codes: 0 printed, 1 a
 * usage error (one line on stderr). Dispatched by src/cli.ts.
 */
import { parseArgs } from 'util';
import { stringify } from 'yaml';
import { KruiseHealthChecks } from '.';
import type { CliIo } from '../cli-io';

const USAGE = `usage: cdk8s-kruise health (--argocd [--namespace NS] | --flux)

  --argocd         the argocd-cm ConfigMap with a Lua health script per kind
                   (resource.customizations.health.<group>_<Kind>); apply it with
                   kubectl apply --server-side, which merges the keys into an existing argocd-cm
  --namespace NS   Argo CD's namespace (default: argocd)
  --flux           spec.healthCheckExprs of a Flux Kustomization (CEL per kind); Flux reads
                   them for the objects it waits for, so set wait: true next to them

exit codes: 0 printed, 1 usage error
`;

/** `cdk8s-kruise health` with `rest` (the arguments after `health`); returns the exit code. */
export function healthMain(rest: string[], io: CliIo): number {
  const fail = (msg: string): number => {
    io.err(`cdk8s-kruise health: ${msg} (cdk8s-kruise health --help)\n`);
    return 1;
  };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        argocd: { type: 'boolean' },
        flux: { type: 'boolean' },
        namespace: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    return fail((e as Error).message);
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (values.argocd === values.flux) {
    return fail(values.argocd ? 'give one of --argocd and --flux, not both' : 'give --argocd or --flux');
  }
  if (values.flux && values.namespace !== undefined) {
    return fail(`--namespace ${values.namespace} is Argo CD's namespace; Flux's healthCheckExprs go in the Kustomization you write, so leave it out with --flux`);
  }
  if (values.argocd) {
    const configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'argocd-cm',
        namespace: (values.namespace as string | undefined) ?? 'argocd',
        labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' },
      },
      data: KruiseHealthChecks.argoCdConfigData(),
    };
    io.out(stringify(configMap, { lineWidth: 0 }));
    return 0;
  }
  const exprs = KruiseHealthChecks.fluxHealthCheckExprs().map(e => ({ ...e }));
  io.out('# spec.healthCheckExprs of a Flux Kustomization (with wait: true)\n');
  io.out(stringify({ healthCheckExprs: exprs }, { lineWidth: 0 }));
  return 0;
}
