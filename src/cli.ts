/**
 * The `cdk8s-kruise` program: one command per module, each loaded only when
 * it is the one asked for. Exit codes are each command's own; 1 is always a
 * usage or input error with one line on stderr.
 */
import type * as CheckCli from './check/cli';
import type { CliIo } from './cli-io';
import type * as FleetCli from './fleet/cli';
import type * as HealthCli from './health/cli';
import type * as PlanCli from './plan/cli';

export type { CliIo } from './cli-io';

/** A command of the program: what `--help` says of it, and how it runs. */
interface Command {
  readonly summary: string;
  readonly run: (args: string[], io: CliIo) => number;
}

/* eslint-disable @typescript-eslint/no-require-imports */
const COMMANDS: Record<string, Command> = {
  plan: {
    summary: 'what OpenKruise will do with a change of manifests',
    run: (args, io) => (require('./plan/cli') as typeof PlanCli).planMain(args, io),
  },
  fleet: {
    summary: 'policies against the workloads of many apps and clusters',
    run: (args, io) => (require('./fleet/cli') as typeof FleetCli).fleetMain(args, io),
  },
  health: {
    summary: 'health checks of the OpenKruise kinds for Argo CD (argocd-cm) and Flux (healthCheckExprs)',
    run: (args, io) => (require('./health/cli') as typeof HealthCli).healthMain(args, io),
  },
  check: {
    summary: 'OpenKruise manifests from anywhere (Helm, kustomize, YAML, stdin) against the admission of synth',
    run: (args, io) => (require('./check/cli') as typeof CheckCli).checkMain(args, io),
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

const defaultIo: CliIo = {
  out: t => process.stdout.write(t),
  err: t => process.stderr.write(t),
};

function overview(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map(n => n.length));
  const lines = names.map(n => `  ${n.padEnd(width)}   ${COMMANDS[n].summary} (cdk8s-kruise ${n} --help)`);
  return `usage: cdk8s-kruise COMMAND [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

/** Run the program with `argv` (the arguments after the program name); returns the exit code. */
export function main(argv: string[], io: CliIo = defaultIo): number {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(overview());
    return command === undefined ? 1 : 0;
  }
  const found = Object.prototype.hasOwnProperty.call(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!found) {
    const names = Object.keys(COMMANDS).map(n => `'${n}'`);
    io.err(`cdk8s-kruise: unknown command '${command}'; the commands are ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} (cdk8s-kruise --help)\n`);
    return 1;
  }
  return found.run(rest, io);
}
