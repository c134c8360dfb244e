import { IConstruct } from 'constructs';
import { _currentRound, _markCheckRounds, _newCheckRound } from './render';

export { fieldError, _constructLine } from './field-error';

type WarningProducer = () => string[];
type AppWarningProducer = () => Array<{ scope: IConstruct; message: string }>;

/** One warning: the construct it is about and the message (without the path). */
interface Warning {
  readonly scope: IConstruct;
  readonly message: string;
}

interface AppWarnings {
  readonly producers: Array<{ scope: IConstruct; produce: WarningProducer }>;
  readonly appProducers: AppWarningProducer[];
  readonly printed: Set<string>;
  fatal: boolean;
  /** The warnings of the last round collected (the validation passes of one synth share a round). */
  collected?: { readonly round: number; readonly warnings: Warning[] };
  /** Constructs that report their warnings as errors when the app treats warnings as errors. */
  readonly hooked: WeakSet<IConstruct>;
}

/** How a warning reads when it fails synth: the warning's own line, and why it is an error. */
const AS_ERROR = ' (a warning, treated as an error)';

const lineOf = (w: Warning) => `[${w.scope.node.path}] ${w.message}`;

const registry = new WeakMap<IConstruct, AppWarnings>();

function forRoot(scope: IConstruct): AppWarnings {
  const root = scope.node.root;
  let entry = registry.get(root);
  if (!entry) {
    _markCheckRounds(root);
    const created: AppWarnings = {
      producers: [], appProducers: [], printed: new Set(), fatal: process.env.CDK8S_KRUISE_WARNINGS_AS_ERRORS === 'true', hooked: new WeakSet(),
    };
    entry = created;
    registry.set(root, created);
    const current = () => {
      if (created.collected?.round !== _currentRound()) created.collected = { round: _currentRound(), warnings: collect(created) };
      return created.collected.warnings;
    };
    root.node.addValidation({
      validate: () => {
        const warnings = current();
        if (created.fatal) {
          // each warning fails synth under its own construct, in the shape of every message; the
          // app's root validates first, so the constructs' validations added here run in this pass
          for (const w of warnings) {
            if (w.scope === root || created.hooked.has(w.scope)) continue;
            created.hooked.add(w.scope);
            const about = w.scope;
            about.node.addValidation({ validate: () => (created.fatal ? current().filter(x => x.scope === about).map(x => `${x.message}${AS_ERROR}`) : []) });
          }
          return warnings.filter(w => w.scope === root).map(w => `${w.message}${AS_ERROR}`);
        }
        for (const l of warnings.map(lineOf)) {
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

function collect(entry: AppWarnings): Warning[] {
  const out: Warning[] = [];
  const seen = new Set<string>();
  const add = (w: Warning) => {
    const line = lineOf(w);
    if (seen.has(line)) return;
    seen.add(line);
    out.push(w);
  };
  for (const p of entry.producers) {
    for (const message of p.produce()) add({ scope: p.scope, message });
  }
  for (const p of entry.appProducers) {
    for (const w of p()) add(w);
  }
  return out;
}

/**
 * Warnings about what OpenKruise silently ignores or does surprisingly.
 *
 * Constructs register warnings that are computed at synth (so they see the
 * final configuration). Each warning is printed once per app; an app can make
 * them fatal with `Warnings.treatAsErrors(app)` or the environment variable
 * `CDK8S_KRUISE_WARNINGS_AS_ERRORS=true`: each then fails synth under its
 * construct, as the warning's line followed by `(a warning, treated as an error)`.
 */
export class Warnings {
  /**
   * Register a warning that always applies to `scope`.
   *
   * @param scope the construct the warning is about
   * @param message what will surprise the user, and what to do about it (the library's own name the object, the field, its value, the problem and the fix)
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
    return collect(forRoot(scope)).map(lineOf);
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
