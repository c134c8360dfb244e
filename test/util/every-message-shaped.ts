/**
 * Every message any test makes the library print holds the one shape
 * (test/util/message-shape.ts). Registered for every test file (jest
 * `setupFilesAfterEnv`, .projenrc.ts): while a test runs, each line a
 * construct's validation returns and each warning the library computes is
 * recorded, and the test fails when one of them is not in the shape. So
 * every corpus case on every entry path, every L2 test app, every example
 * and every documented program is held to it, whether the test looks at
 * the message or not.
 *
 * Left out: the validations of cdk8s-plus-28's own constructs (an Ingress
 * or HorizontalPodAutoscaler of the app), which speak for that library.
 */
import { IConstruct, Node } from 'constructs';
import { unshaped } from './message-shape';
import { Warnings } from '../../src/validation/report';

/** cdk8s-plus-28 classes that validate themselves (their messages are not ours). */
const KPLUS_VALIDATED = new Set(['Ingress', 'HorizontalPodAutoscaler']);

const printed: string[] = [];
/** The warnings a test listed with `Warnings.of` (so it looked at them). */
const listed = new Set<string>();
const at = (scope: IConstruct, message: string) => `[${scope.node.path}] ${message}`;

const MARK = Symbol.for('cdk8s-kruise.test.every-message-shaped');
const proto = Node.prototype as any;
if (!proto[MARK]) {
  proto[MARK] = true;
  const validate = proto.validate;
  proto.validate = function (this: Node): string[] {
    const lines: string[] = validate.call(this);
    if (!KPLUS_VALIDATED.has(this.host.constructor?.name)) printed.push(...lines.map(l => at(this.host, l)));
    return lines;
  };
}

// the warnings, as they are computed (printed at synth, or listed by Warnings.of)
const w = Warnings as any;
if (!w[MARK]) {
  w[MARK] = true;
  const addProducer = w._addProducer;
  const addAppProducer = w._addAppProducer;
  w._addProducer = (scope: IConstruct, produce: () => string[]) => addProducer.call(Warnings, scope, () => {
    const out = produce();
    printed.push(...out.map(m => at(scope, m)));
    return out;
  });
  type AppWarning = { scope: IConstruct; message: string };
  w._addAppProducer = (scope: IConstruct, produce: () => AppWarning[]) => addAppProducer.call(Warnings, scope, () => {
    const out = produce();
    printed.push(...out.map(x => at(x.scope, x.message)));
    return out;
  });
  // Warnings.add registers a producer of its one message
  w.add = (scope: IConstruct, message: string) => w._addProducer(scope, () => [message]);
  // a test that lists the warnings with Warnings.of has looked at them
  const of = w.of;
  w.of = (scope: IConstruct): string[] => {
    const lines: string[] = of.call(Warnings, scope);
    for (const l of lines) listed.add(l);
    return lines;
  };
}

// The warnings the library prints at synth (`[cdk8s-kruise] warning: ...` on console.warn) are
// held for the test instead of printed: a test that makes the library warn asserts what it said
// with takeWarnings() (or lists them with Warnings.of), and a warning no test looked at fails the
// test that caused it.
const WARNING = '[cdk8s-kruise] warning: ';
const warned: string[] = [];
const CONSOLE_MARK = Symbol.for('cdk8s-kruise.test.held-warnings');
if (!(console as any)[CONSOLE_MARK]) {
  const warn = console.warn;
  const held = function (this: Console, ...args: unknown[]): void {
    if (typeof args[0] === 'string' && args[0].startsWith(WARNING)) {
      // a test that spies on console.warn itself sees the call; the line is its business then
      if (!jest.isMockFunction(console.warn)) warned.push(args[0].slice(WARNING.length));
      return;
    }
    warn.apply(this, args);
  };
  (held as any)[CONSOLE_MARK] = true;
  console.warn = held;
  (console as any)[CONSOLE_MARK] = true;
}

/**
 * The warnings the library printed since the last call (and since the test
 * began), each without its `[cdk8s-kruise] warning: ` prefix; a test that
 * makes the library warn takes them here and asserts them.
 */
export function takeWarnings(): string[] {
  return warned.splice(0);
}

/**
 * The messages recorded since the last call (and since the test began): a
 * test that prints an unshaped message on purpose takes it here, so only
 * the library's own messages are held to the shape.
 */
export function takePrinted(): string[] {
  return printed.splice(0);
}

afterEach(() => {
  const bad = [...new Set(unshaped(takePrinted()))];
  if (bad.length > 0) {
    throw new Error(`the library printed ${bad.length} message(s) not in the shape [path] Kind "name" (apiVersion) field: value problem; fix:\n${bad.join('\n')}`);
  }
  const unasked = takeWarnings().filter(l => !listed.has(l));
  listed.clear();
  if (unasked.length > 0) {
    throw new Error(`the library warned ${unasked.length} time(s) and the test did not look: assert the warnings with takeWarnings() `
      + `(test/util/every-message-shaped.ts), or change the test so nothing warns:\n${unasked.join('\n')}`);
  }
});
