/**
 * What every command of the `cdk8s-kruise` program writes to and reads from,
 * apart from the program itself (./cli.ts), so that each command's module
 * depends on this and the program on the commands, never back.
 */
/** Where a command writes. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Working directory (relative paths, --git-ref). */
  readonly cwd?: string;
  /** Standard input, read whole (a command given `-`). */
  readonly stdin?: () => string;
}
