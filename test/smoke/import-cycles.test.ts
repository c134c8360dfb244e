/**
 * No module of src/ reaches itself again through its imports: the graph of
 * every static import and re-export, type-only ones included, and every
 * `require()` of a module loaded on first use, read with the TypeScript
 * compiler API, has no circle. A circle hidden behind a lazy `require` or a
 * type-only import is still one: the two modules cannot be understood or
 * changed one without the other (a type they share belongs on a floor below
 * both, as `CliIo`, the control plane's props and the release data's shapes
 * are).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const SRC = path.resolve(__dirname, '..', '..', 'src');

/** The .ts file a relative specifier names, or undefined when it is outside `root`. */
function resolve(from: string, spec: string, root: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const file = fs.existsSync(`${base}.ts`) ? `${base}.ts` : fs.existsSync(path.join(base, 'index.ts')) ? path.join(base, 'index.ts') : undefined;
  return file && file.startsWith(root + path.sep) ? file : undefined;
}

/** The module graph of the given sources (file -> the files it imports, for types or values, or loads). */
function moduleGraph(sources: ReadonlyMap<string, string>, root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const deps = new Set<string>();
    const add = (spec: string) => {
      if (!spec.startsWith('.')) return;
      const sibling = path.resolve(path.dirname(file), `${spec}.ts`);
      const target = resolve(file, spec, root) ?? (sources.has(sibling) ? sibling : undefined);
      if (target) deps.add(target);
    };
    const visit = (n: ts.Node): void => {
      const isModule = ts.isImportDeclaration(n) || ts.isExportDeclaration(n);
      if (isModule && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) add(n.moduleSpecifier.text);
      const isRequire = ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'require';
      if (isRequire && n.arguments.length === 1 && ts.isStringLiteral(n.arguments[0])) add(n.arguments[0].text);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    graph.set(file, [...deps]);
  }
  return graph;
}

/** The strongly connected components of more than one module (or a module that loads itself): the circles. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) strong(v);
  return out;
}

function sourcesUnder(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourcesUnder(p, out);
    else if (p.endsWith('.ts')) out.set(p, fs.readFileSync(p, 'utf-8'));
  }
  return out;
}

test('src/ has no import circle, lazy requires and type-only imports included', () => {
  const graph = moduleGraph(sourcesUnder(SRC), SRC);
  expect(graph.size).toBeGreaterThan(100);
  expect(circles(graph).map(c => c.map(f => path.relative(SRC, f)))).toEqual([]);
});

test('the check finds a circle through a lazy require, and one through type-only imports', () => {
  const root = path.join(SRC, '__virtual__');
  const f = (name: string) => path.join(root, `${name}.ts`);
  const sources = new Map([
    [f('a'), "import { b } from './b';\nexport const a = () => b;\n"],
    [f('b'), "export const b = 1;\nexport function later() { return require('./c'); }\n"],
    [f('c'), "import { a } from './a';\nexport const c = a;\n"],
    [f('d'), "import type { E } from './e';\nexport type D = E;\n"],
    [f('e'), "import { type D } from './d';\nexport type E = D | 1;\n"],
  ]);
  expect(circles(moduleGraph(sources, root)).map(c => c.map(x => path.basename(x)))).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts', 'e.ts']]);
});
