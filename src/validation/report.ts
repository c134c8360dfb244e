import { IConstruct } from 'constructs';
import { _currentRound, _markCheckRounds, _newCheckRound } from './render';

/**
 * One rule violation, as the library reports it: the field (dotted path from
 * the object root), the value found, what is wrong and how to fix it.
 * cdk8s prefixes the construct path when the message comes from a node
 * validation, so the full line reads
 * `[chart/web] spec.updateStrategy.partition: "12.5%" is ...; use ...`.
 */
export function fieldError(field: string, value: unknown, problem: string, fix: string): string {
  const shown = value === undefined ? '(unset)' : JSON.stringify(value);
  return `${field}: ${shown} ${problem}; ${fix}`;
}

type WarningProducer = () => string[];
type AppWarningProducer = () => Array<{ scope: IConstruct; message: string }>;

interface AppWarnings {
  readonly producers: Array<{ scope: IConstruct; produce: WarningProducer }>;
  readonly appProducers: AppWarningProducer[];
  readonly printed: Set<string>;
  fatal: boolean;
  /** The warnings of the last round collected (the validation passes of one synth share a round). */
  collected?: { readonly round: number; readonly lines: string[] };
}

const registry = new WeakMap<IConstruct, AppWarnings>();

function forRoot(scope: IConstruct): AppWarnings {
  const root = scope.node.root;
  let entry = registry.get(root);
  if (!entry) {
    _markCheckRounds(root);
    const created: AppWarnings = { producers: [], appProducers: [], printed: new Set(), fatal: process.env.CDK8S_KRUISE_WARNINGS_AS_ERRORS === 'true' };
    entry = created;
    registry.set(root, created);
    root.node.addValidation({
      validate: () => {
        if (created.collected?.round !== _currentRound()) created.collected = { round: _currentRound(), lines: collect(created) };
        const lines = created.collected.lines;
        if (created.fatal) return lines.map(l => `warning treated as error: ${l}`);
        for (const l of lines) {
          if (created.printed.has(l)) continue;
          created.printed.add(l);
          // eslint-disable-next-line no-console
          console.warn(`[cdk8s-kruise] warning: ${l}`);
        }
        return [];
      },
    });
  }
  return entry;
}

function collect(entry: AppWarnings): string[] {
  const out: string[] = [];
  for (const p of entry.producers) {
    for (const w of p.produce()) out.push(`[${p.scope.node.path}] ${w}`);
  }
  for (const p of entry.appProducers) {
    for (const w of p()) out.push(`[${w.scope.node.path}] ${w.message}`);
  }
  return [...new Set(out)];
}

/**
 * Warnings about what OpenKruise silently ignores or does surprisingly.
 *
 * Constructs register warnings that are computed at synth (so they see the
 * final configuration). Each warning is printed once per app; an app can make
 * them fatal with `Warnings.treatAsErrors(app)` or the environment variable
 * `CDK8S_KRUISE_WARNINGS_AS_ERRORS=true`.
 */
export class Warnings {
  /**
   * Register a warning that always applies to `scope`.
   *
   * @param scope the construct the warning is about
   * @param message what will surprise the user, and what to do about it
   */
  public static add(scope: IConstruct, message: string): void {
    const entry = forRoot(scope);
    entry.producers.push({ scope, produce: () => [message] });
    entry.collected = undefined;
  }

  /**
   * Make every warning of the app fail synth instead of being printed.
   *
   * @param scope any construct of the app
   */
  public static treatAsErrors(scope: IConstruct): void {
    forRoot(scope).fatal = true;
  }

  /**
   * Every warning of the app, computed now (for tests and tooling).
   *
   * @param scope any construct of the app
   */
  public static of(scope: IConstruct): string[] {
    _newCheckRound();
    return collect(forRoot(scope));
  }

  /**
   * Register warnings computed at synth time.
   * @internal
   */
  public static _addProducer(scope: IConstruct, produce: () => string[]): void {
    const entry = forRoot(scope);
    entry.producers.push({ scope, produce });
    entry.collected = undefined;
  }

  /**
   * Register warnings computed at synth time for many constructs at once.
   * @internal
   */
  public static _addAppProducer(scope: IConstruct, produce: AppWarningProducer): void {
    const entry = forRoot(scope);
    entry.appProducers.push(produce);
    entry.collected = undefined;
  }

  private constructor() {}
}
