/**
 * Feature gates as every part of the library reads them: something that
 * says whether a gate is on (an installation of the library's control plane,
 * a context's, `--feature-gates` of a command, the gates a plan assumes),
 * and, where a message must tell the user what to do, how to turn it on.
 * Each reader of gates (admission, the app-wide checks, plans, the Rollout
 * settings) takes these shapes, declared once here.
 */

/** Whether a feature gate is on, as the manager that reads it resolves it (its release's default when not set). */
export interface GateReader {
  isEnabled(gate: string): boolean;
}

/** A gate reader that can also tell the user how to turn a gate on. */
export interface GateSource extends GateReader {
  /** How the user turns the gate on, for messages. */
  howToEnable(gate: string): string;
}

/** A gate source with its place in messages, e.g. `at 'infra/kruise'`, `of --feature-gates '...'`. */
export interface PlacedGateSource extends GateSource {
  readonly place: string;
}
