/**
 * The shape of src/: no module imports, even for a type, a module that
 * imports it back, through any chain; and the vocabulary shared by the
 * commands and the constructs (a plain manifest, a gate source, the release
 * data) sits below all of them.
 * Imports are read with TypeScript's own pre-processor.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const SRC = path.join(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The src/ modules a file imports or requires (relative paths only), as paths relative to src/ without `.ts`. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf-8'), true, true);
  const out: string[] = [];
  for (const ref of info.importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), ref.fileName);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find(f => fs.existsSync(f));
    if (target) out.push(path.relative(SRC, target).replace(/\.ts$/, ''));
  }
  return out;
}

const graph = new Map(sourceFiles(SRC).map(f => [path.relative(SRC, f).replace(/\.ts$/, ''), importsOf(f)]));

/** Every cycle's first sighting, as `a > b > ... > a`. */
function cycles(): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (m: string) => {
    state.set(m, 'open');
    stack.push(m);
    for (const next of graph.get(m) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].join(' > '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(m, 'done');
  };
  for (const m of [...graph.keys()].sort()) if (!state.has(m)) visit(m);
  return found;
}

test('the graph is read: src/index reaches the constructs, the program reaches each command', () => {
  expect(graph.get('index')).toContain('clone-set');
  expect(graph.get('cli')).toEqual(expect.arrayContaining(['check/cli', 'fleet/cli', 'health/cli', 'plan/cli', 'cli-io']));
});

test('no import circles in src/, type imports included', () => {
  expect(cycles()).toEqual([]);
});

test('the reading of a cycle finds one where there is one', () => {
  graph.set('zz-a', ['zz-b']);
  graph.set('zz-b', ['zz-a']);
  try {
    expect(cycles()).toEqual(['zz-a > zz-b > zz-a']);
  } finally {
    graph.delete('zz-a');
    graph.delete('zz-b');
  }
});

test.each([
  // the vocabulary of a plain manifest: read by check, admission and the fleet check alike
  ['validation/manifest', ['validation/']],
  // the shapes of a gate source, taken by every reader of gates
  ['gates/source', []],
  // the shapes of the release data, filled in by each line's folder
  ['releases/types', []],
  ['releases/openkruise-1.9/release', ['releases/types', 'releases/openkruise-1.9/']],
])('%s sits on a floor below what reads it: it imports only %j', (module, allowed) => {
  expect(graph.has(module)).toBe(true);
  expect((graph.get(module) ?? []).filter(d => !allowed.some(a => d === a || d.startsWith(a)))).toEqual([]);
});

test('a gate source is declared once: src/gates/source.ts, which every reader of gates extends or takes', () => {
  const declaring = sourceFiles(SRC).filter(f => /^\s*(isEnabled\(gate: string\): boolean|howToEnable\(gate: string\): string);/m.test(fs.readFileSync(f, 'utf-8')));
  expect(declaring.map(f => path.relative(SRC, f))).toEqual([path.join('gates', 'source.ts')]);
});
