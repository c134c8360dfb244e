/**
 * The public API as Python, Java and Go see it, read from the jsii assembly
 * that `npx projen compile` writes (the test task compiles before jest runs).
 *
 * The compile task silences jsii's reserved-word warnings because nearly all
 * of them are false alarms for the languages we publish: Go exports every name
 * with a capital first letter (`type` becomes `Type()`, `range` becomes
 * `ReserveOrdinal_Range`), and C# is not a target. The names that would
 * really clash, lower-case names in Python and Java, are checked here instead.
 */
import * as fs from 'fs';
import * as path from 'path';

const ASSEMBLY = path.join(__dirname, '..', '..', '.jsii');

interface TypeRef {
  readonly primitive?: string;
  readonly fqn?: string;
  readonly union?: { types: TypeRef[] };
  readonly intersection?: { types: TypeRef[] };
  readonly collection?: { kind: string; elementtype: TypeRef };
}
interface Parameter { readonly name: string; readonly type: TypeRef }
interface Callable { readonly name?: string; readonly parameters?: Parameter[]; readonly returns?: { type: TypeRef } }
interface JsiiType {
  readonly fqn: string;
  readonly name: string;
  readonly kind: 'class' | 'interface' | 'enum';
  readonly locationInModule?: { filename: string };
  readonly properties?: Array<{ name: string; type: TypeRef }>;
  readonly methods?: Callable[];
  readonly initializer?: Callable;
  readonly members?: Array<{ name: string }>;
}

function loadTypes(): JsiiType[] {
  if (!fs.existsSync(ASSEMBLY)) {
    throw new Error(`${ASSEMBLY} is missing: run \`npx projen compile\` first`);
  }
  return Object.values(JSON.parse(fs.readFileSync(ASSEMBLY, 'utf-8')).types as Record<string, JsiiType>);
}

const types = loadTypes();
/** The hand-written API (src/), as opposed to the generated L1 (imports/). */
const handWritten = types.filter(t => t.locationInModule?.filename.startsWith('src/'));

/** Every type reference a member of `t` exposes, with where it is. */
function typeRefs(t: JsiiType): Array<[string, TypeRef]> {
  const refs: Array<[string, TypeRef]> = [];
  for (const p of t.properties ?? []) refs.push([`${t.fqn}.${p.name}`, p.type]);
  const callables = [...(t.methods ?? []), ...(t.initializer ? [{ ...t.initializer, name: '<constructor>' }] : [])];
  for (const m of callables) {
    if (m.returns) refs.push([`${t.fqn}.${m.name}() returns`, m.returns.type]);
    for (const p of m.parameters ?? []) refs.push([`${t.fqn}.${m.name}(${p.name})`, p.type]);
  }
  return refs;
}

function hasUnion(ref: TypeRef): boolean {
  if (ref.union || ref.intersection) return true;
  return ref.collection ? hasUnion(ref.collection.elementtype) : false;
}

/** Every name a user writes: types, properties, methods, parameters, enum members. */
function names(t: JsiiType): Array<[string, string]> {
  const out: Array<[string, string]> = [[t.fqn, t.name]];
  for (const p of t.properties ?? []) out.push([`${t.fqn}.${p.name}`, p.name]);
  for (const m of t.methods ?? []) {
    out.push([`${t.fqn}.${m.name}()`, m.name!]);
    for (const p of m.parameters ?? []) out.push([`${t.fqn}.${m.name}(${p.name})`, p.name]);
  }
  for (const p of t.initializer?.parameters ?? []) out.push([`${t.fqn}(${p.name})`, p.name]);
  for (const e of t.members ?? []) out.push([`${t.fqn}.${e.name}`, e.name]);
  return out;
}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

const PYTHON_KEYWORDS = new Set([
  'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except',
  'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass',
  'raise', 'return', 'try', 'while', 'with', 'yield',
]);
const JAVA_KEYWORDS = new Set([
  'abstract', 'assert', 'boolean', 'break', 'byte', 'case', 'catch', 'char', 'class', 'const', 'continue',
  'default', 'do', 'double', 'else', 'enum', 'extends', 'final', 'finally', 'float', 'for', 'goto', 'if',
  'implements', 'import', 'instanceof', 'int', 'interface', 'long', 'native', 'new', 'package', 'private',
  'protected', 'public', 'return', 'short', 'static', 'strictfp', 'super', 'switch', 'synchronized', 'this',
  'throw', 'throws', 'transient', 'try', 'void', 'volatile', 'while', 'true', 'false', 'null',
]);

test('the assembly holds the hand-written API and the L1', () => {
  expect(handWritten.length).toBeGreaterThan(0);
  expect(types.some(t => t.fqn === 'cdk8s-kruise.kruise.KubeCloneSet')).toBe(true);
});

test('no hand-written prop, parameter or return type is a union (it would be Object / interface{} in Java and Go)', () => {
  const unions = handWritten.flatMap(t => typeRefs(t).filter(([, ref]) => hasUnion(ref)).map(([where]) => where));
  expect(unions).toEqual([]);
});

test('no public name is a Python or Java keyword', () => {
  // Type names (PascalCase) and enum members (UPPER_CASE) keep their case in
  // both languages, so only lower-case names can clash.
  const clashes = types.flatMap(t => names(t)).filter(([, name]) => /^[a-z]/.test(name)).flatMap(([where, name]) => [
    ...(PYTHON_KEYWORDS.has(snake(name)) ? [`${where}: "${snake(name)}" in Python`] : []),
    ...(JAVA_KEYWORDS.has(name) ? [`${where}: "${name}" in Java`] : []),
  ]);
  expect(clashes).toEqual([]);
});

test('the keyword check catches a clash', () => {
  const probe: JsiiType = { fqn: 'x.Probe', name: 'Probe', kind: 'class', properties: [{ name: 'default', type: { primitive: 'string' } }], methods: [{ name: 'import', parameters: [{ name: 'lambda', type: { primitive: 'string' } }] }] };
  const found = names(probe).filter(([, n]) => PYTHON_KEYWORDS.has(snake(n)) || JAVA_KEYWORDS.has(n)).map(([w]) => w);
  expect(found).toEqual(['x.Probe.default', 'x.Probe.import()', 'x.Probe.import(lambda)']);
  expect(hasUnion({ collection: { kind: 'array', elementtype: { union: { types: [{ primitive: 'string' }, { primitive: 'number' }] } } } })).toBe(true);
});
