/**
 * A kind's health rule as Flux `healthCheckExprs` (CEL, evaluated by
 * kustomize-controller over the live object: its top-level fields are the
 * variables `metadata`, `spec` and `status`). Flux evaluates `inProgress`,
 * then `failed`, then `current`, and says InProgress when none holds; the
 * rules' first-match clauses become one `current` and one `failed`
 * expression (each a chain over the clauses in order, so neither repeats a
 * clause), and every other outcome is Flux's own InProgress.
 *
 * kstatus has three states where Argo CD has four: Suspended (a partition
 * reached, a paused update, pods waiting for their deletion) is what the spec
 * asks for until someone changes it, so it is `current` for Flux, and a
 * Kustomization that waits is Ready then.
 */
import { Expr, HealthOutcome, KindRule } from './rule';

/** kstatus's state for each outcome. */
export const FLUX_STATUS: Record<HealthOutcome, 'Current' | 'InProgress' | 'Failed'> = {
  Healthy: 'Current',
  Suspended: 'Current',
  Progressing: 'InProgress',
  Degraded: 'Failed',
};

/** A CEL string literal. */
export function celString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** Top-level fields every object has (CEL cannot test the presence of a variable). */
const ALWAYS = ['apiVersion', 'kind'];

/** The CEL of one kind's rule. */
class CelWriter {
  /** The kind's lets, compiled, in order. */
  private readonly lets: [string, string][] = [];
  /** Names bound around the expression being written (the kind's lets, then `with`s). */
  private readonly scope: string[] = [];

  bind(name: string, e: Expr): void {
    this.lets.push([name, this.expr(e)]);
    this.scope.push(name);
  }

  /**
   * A boolean expression inside the kind's lets. CEL has no let in Flux's
   * environment, so each is bound by a one-item comprehension:
   * `[value].all(x_name, body)` is `body` with `x_name` = value.
   */
  wrap(body: string): string {
    if (body === 'true' || body === 'false') return body;
    return this.lets.reduceRight((acc, [name, value]) => `[${value}].all(x_${name}, ${acc})`, body);
  }

  /** `a.b.c` with every step tested by `has()`; the first step is a variable and always there. */
  private present(path: readonly string[]): string {
    if (path.length < 2) {
      if (path.length === 1 && ALWAYS.includes(path[0])) return 'true';
      throw new Error(`health rule: the path '${path.join('.')}' names a top-level field other than ${ALWAYS.join(' and ')}; read a field inside it`);
    }
    const tests: string[] = [];
    for (let i = 2; i <= path.length; i++) tests.push(`has(${path.slice(0, i).join('.')})`);
    return tests.join(' && ');
  }

  private scalar(v: unknown): string {
    if (typeof v === 'string') return celString(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number' && Number.isInteger(v)) return String(v);
    throw new Error(`health rule: the constant ${JSON.stringify(v)} is not a whole number, string or boolean`);
  }

  expr(e: Expr): string {
    switch (e.op) {
      case 'lit': return this.scalar(e.value);
      case 'get': return `(${this.present(e.path)} ? ${e.path.join('.')} : ${this.scalar(e.dflt)})`;
      case 'has': return `(${this.present(e.path)})`;
      case 'isString': return `(${this.present(e.path)} && type(${e.path.join('.')}) == string)`;
      case 'percent': {
        const v = e.path.join('.');
        return `(${this.present(e.path)} && type(${v}) == string ? (${v}.matches('^(100|[1-9]?[0-9])%$') ? int(${v}.substring(0, size(${v}) - 1)) : -1) : ${e.dflt})`;
      }
      case 'ref':
        if (!this.scope.includes(e.name)) throw new Error(`health rule: '${e.name}' is used before it is bound`);
        return `x_${e.name}`;
      case 'with': {
        // `[value].map(x_name, body)[0]` is body with x_name = value, of any type
        const value = this.expr(e.value);
        this.scope.push(e.name);
        try {
          return `[${value}].map(x_${e.name}, ${this.expr(e.body)})[0]`;
        } finally {
          this.scope.pop();
        }
      }
      case 'cmp': return `(${this.expr(e.a)} ${e.cmp} ${this.expr(e.b)})`;
      case 'arith': return `(${this.expr(e.a)} ${e.arith} ${this.expr(e.b)})`;
      case 'div': return e.round === 'floor' ? `(${this.expr(e.a)} / ${e.by})` : `((${this.expr(e.a)} + ${e.by - 1}) / ${e.by})`;
      case 'and': case 'or':
        if (e.items.length === 0) return e.op === 'and' ? 'true' : 'false';
        return `(${e.items.map(i => this.expr(i)).join(e.op === 'and' ? ' && ' : ' || ')})`;
      case 'not': return `!${this.expr(e.a)}`;
      case 'if': return `(${this.expr(e.cond)} ? ${this.expr(e.then)} : ${this.expr(e.else)})`;
      case 'condition': {
        const tests = ['has(c.type)', `c.type == ${celString(e.type)}`,
          ...Object.entries(e.where).map(([k, v]) => `(has(c.${k}) ? c.${k} : '') == ${celString(v)}`)];
        return `(${this.present(e.list)} && ${e.list.join('.')}.exists(c, ${tests.join(' && ')}))`;
      }
      case 'anyItem':
        return `(${this.present(e.list)} && ${e.list.join('.')}.exists(c, has(c.${e.field}) && c.${e.field} == ${celString(e.value)}))`;
      case 'match': {
        const tests = Object.entries(e.where).map(([k, v]) => `(has(c.${k}) ? c.${k} : '') == ${celString(v)}`);
        return `(${this.present(e.list)} && ${e.list.join('.')}.exists(c, ${tests.length ? tests.join(' && ') : 'true'}))`;
      }
      case 'conditionField': {
        const l = e.list.join('.');
        const match = `c, has(c.type) && c.type == ${celString(e.type)}`;
        const first = `${l}.filter(${match})[0]`;
        return `(${this.present(e.list)} && ${l}.exists(${match}) && has(${first}.${e.field}) ? ${first}.${e.field} : '')`;
      }
      case 'size': return `(${this.present(e.path)} ? size(${e.path.join('.')}) : 0)`;
      case 'sumItems': {
        const l = e.list.join('.');
        const terms: string[] = [];
        for (let i = 0; i < e.max; i++) terms.push(`(size(${l}) > ${i} && has(${l}[${i}].${e.field}) ? ${l}[${i}].${e.field} : 0)`);
        return `(!(${this.present(e.list)}) ? 0 : size(${l}) > ${e.max} ? -1 : ${terms.join(' + ')})`;
      }
    }
  }
}

/** Flux's `healthCheckExprs` entry of one kind. */
export interface CelHealthCheck {
  readonly apiVersion: string;
  readonly kind: string;
  readonly current: string;
  readonly failed?: string;
}

/** The CEL expression that holds when the rule's first matching clause (or its `otherwise`) maps to `target`. */
function chain(rule: KindRule, w: CelWriter, target: 'Current' | 'Failed'): string {
  let out = FLUX_STATUS[rule.otherwise.outcome] === target ? 'true' : 'false';
  const clauses = rule.clauses.filter(c => !c.fluxBuiltIn);
  for (let i = clauses.length - 1; i >= 0; i--) {
    const c = clauses[i];
    const cond = w.expr(c.when);
    const hit = FLUX_STATUS[c.outcome] === target;
    if (out === 'false') out = hit ? cond : 'false';
    else if (out === 'true') out = hit ? 'true' : `!${cond}`;
    else out = hit ? `(${cond} || ${out})` : `(!${cond} && ${out})`;
  }
  return out;
}

/** One kind's rule as a Flux `healthCheckExprs` entry. */
export function toCel(rule: KindRule): CelHealthCheck {
  const w = new CelWriter();
  for (const [name, e] of rule.lets ?? []) w.bind(name, e);
  const failed = chain(rule, w, 'Failed');
  return {
    apiVersion: rule.apiVersion,
    kind: rule.kind,
    current: w.wrap(chain(rule, w, 'Current')),
    ...(failed === 'false' ? {} : { failed: w.wrap(failed) }),
  };
}
