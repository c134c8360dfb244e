/**
 * The floors of src/: the vocabulary shared by the commands and the
 * constructs (a plain manifest, a gate source, the release data) sits below
 * all of them, and a gate source is declared once. (No circles:
 * test/smoke/import-cycles.test.ts.) Imports are read with TypeScript's own
 * pre-processor.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const SRC = path.join(__dirname, '..', '..', 'src');

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
