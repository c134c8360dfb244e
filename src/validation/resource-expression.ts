/**
 * The resource expressions of a SidecarSet `resourcesPolicy.resourcesExpr`
 * (e.g. `max(cpu*50%, 50m)`), checked the way the OpenKruise webhook checks
 * them: parsed with one variable (`cpu` or `memory`, any case) bound to 1,
 * numbers, percentages, quantities with a suffix, + - * /, unary minus,
 * parentheses and two-argument max()/min().
 */

const SUFFIXES: Record<string, number> = {
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
};

interface Value {
  readonly n: number;
  /** Carries a unit (a quantity such as 50m), as opposed to a plain number. */
  readonly quantity: boolean;
}

class ExpressionError extends Error {}

/** A number with letters that are no quantity suffix (1GB): the webhook admits it and reads it as 0. */
class ReadAsZero extends ExpressionError {
  constructor(public readonly token: string, public readonly letters: string) {
    super(`has ${token}, whose letters ${letters} are no quantity suffix: the webhook admits the expression, but then reads ${token} as 0`);
  }
}

class Parser {
  private pos = 0;

  constructor(private readonly src: string, private readonly variable: string) {}

  public parse(): Value {
    const v = this.expr();
    this.skipSpace();
    if (this.pos < this.src.length) throw new ExpressionError(`unexpected '${this.src.slice(this.pos)}'`);
    return v;
  }

  private skipSpace() {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }

  private peek(): string {
    this.skipSpace();
    return this.src[this.pos] ?? '';
  }

  private expr(): Value {
    let left = this.term();
    for (let op = this.peek(); op === '+' || op === '-'; op = this.peek()) {
      this.pos++;
      const right = this.term();
      left = { n: op === '+' ? left.n + right.n : left.n - right.n, quantity: left.quantity || right.quantity };
    }
    return left;
  }

  private term(): Value {
    let left = this.unary();
    for (let op = this.peek(); op === '*' || op === '/'; op = this.peek()) {
      this.pos++;
      const right = this.unary();
      if (op === '*') {
        if (left.quantity && right.quantity) throw new ExpressionError('multiplies a quantity by a quantity');
        left = { n: left.n * right.n, quantity: left.quantity || right.quantity };
      } else {
        if (right.quantity) throw new ExpressionError('divides by a quantity');
        if (right.n === 0) throw new ExpressionError('divides by zero');
        left = { n: left.n / right.n, quantity: left.quantity };
      }
    }
    return left;
  }

  private unary(): Value {
    if (this.peek() === '-') {
      this.pos++;
      const v = this.unary();
      return { n: -v.n, quantity: v.quantity };
    }
    return this.primary();
  }

  private primary(): Value {
    const c = this.peek();
    if (c === '(') {
      this.pos++;
      const v = this.expr();
      this.expect(')');
      return v;
    }
    const num = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(this.src.slice(this.pos));
    if (num) {
      this.pos += num[0].length;
      const n = Number(num[0]);
      if (this.src[this.pos] === '%') {
        this.pos++;
        return { n: n / 100, quantity: false };
      }
      // the webhook's lexer reads every letter after a number as its unit; a run that is no quantity suffix makes the
      // token a number it cannot parse, which it reads as 0 (pkg/util/calculator lexer.go readNumber and isQuantity,
      // calculator.y factor: NUMBER, whose parse error is dropped; v1.9.0, v1.9.1)
      const letters = /^[A-Za-z]+/.exec(this.src.slice(this.pos))?.[0] ?? '';
      if (letters !== '' && SUFFIXES[letters] === undefined) throw new ReadAsZero(`${num[0]}${letters}`, letters);
      if (letters !== '') {
        this.pos += letters.length;
        return { n: n * SUFFIXES[letters], quantity: true };
      }
      return { n, quantity: false };
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos));
    if (ident) {
      this.pos += ident[0].length;
      const name = ident[0].toLowerCase();
      if (name === 'max' || name === 'min') return this.call(name);
      if (name === this.variable) return { n: 1, quantity: false };
      throw new ExpressionError(`uses unknown name '${ident[0]}' (only ${this.variable} is defined here)`);
    }
    throw new ExpressionError(c === '' ? 'ends too early' : `unexpected '${c}'`);
  }

  private call(name: string): Value {
    this.expect('(');
    const args = [this.expr()];
    while (this.peek() === ',') {
      this.pos++;
      args.push(this.expr());
    }
    this.expect(')');
    if (args.length !== 2) throw new ExpressionError(`calls ${name}() with ${args.length} argument(s); it takes exactly 2`);
    const pick = name === 'max' ? Math.max(args[0].n, args[1].n) : Math.min(args[0].n, args[1].n);
    return { n: pick, quantity: args[0].quantity || args[1].quantity };
  }

  private expect(ch: string) {
    if (this.peek() !== ch) throw new ExpressionError(`expects '${ch}' at position ${this.pos + 1}`);
    this.pos++;
  }
}

/**
 * The problem with a resource expression, or undefined when OpenKruise accepts it.
 *
 * @param expression the expression as written
 * @param variable 'cpu' or 'memory': the one variable the expression may use
 */
export function resourceExpressionProblem(expression: string, variable: 'cpu' | 'memory'): string | undefined {
  try {
    const v = new Parser(expression, variable).parse();
    if (v.n < 0) return `is negative (${v.n}) when ${variable} is 1`;
    return undefined;
  } catch (e) {
    if (e instanceof ReadAsZero) return `${e.message}, so the sidecar's ${variable} would be computed from 0, which is refused here on purpose`;
    if (e instanceof ExpressionError) return e.message;
    throw e;
  }
}
