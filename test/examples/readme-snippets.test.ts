/**
 * The `ts` code blocks of README sections compile (type-checked against the
 * library, strict) and run: each section's blocks are one module, in order,
 * with a `chart` to build in, and the chart must synthesize.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as ts from 'typescript';
import * as lib from '../../src';

const root = path.resolve(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');

/** The README sections whose snippets are checked here, by the start of their heading. */
const SECTIONS = ['## Batch jobs', '## Multi-domain', '## Image pre-pull', '## Day-2 operations'];

interface Snippet { readonly section: string; readonly file: string; readonly source: string }

function sectionText(heading: string): string {
  const start = readme.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`README has no section starting with "${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** One module of a section's blocks: their imports merged at the top, their code in order in `run(chart)`. */
function snippetOf(heading: string, i: number): Snippet {
  const blocks = [...sectionText(heading).matchAll(/```ts\n([\s\S]*?)```/g)].map(m => m[1]);
  if (blocks.length === 0) throw new Error(`README section "${heading}" has no ts block`);
  const named = new Map<string, Set<string>>([['cdk8s', new Set(['Chart'])]]);
  const namespaces = new Set<string>();
  const code: string[] = [];
  for (const line of blocks.join('\n').split('\n')) {
    const n = /^import \{ (.+) \} from '([^']+)';$/.exec(line);
    const ns = /^import \* as \w+ from '[^']+';$/.exec(line);
    if (n) {
      const names = named.get(n[2]) ?? new Set<string>();
      n[1].split(',').map(x => x.trim()).filter(x => x).forEach(x => names.add(x));
      named.set(n[2], names);
    } else if (ns) {
      namespaces.add(line);
    } else {
      code.push(`  ${line}`);
    }
  }
  const imports = [...namespaces, ...[...named].map(([mod, names]) => `import { ${[...names].sort().join(', ')} } from '${mod}';`)];
  return {
    section: heading,
    file: path.join(root, 'test', 'examples', `readme-snippet-${i}.ts`),
    source: `${imports.join('\n')}\n\nexport function run(chart: Chart): void {\n${code.join('\n')}\n}\n`,
  };
}

const snippets = SECTIONS.map(snippetOf);

test('every snippet type-checks against the library (strict), as a user writes it with `cdk8s-kruise`', () => {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    types: [],
    baseUrl: root,
    paths: { 'cdk8s-kruise': ['src/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const virtual = new Map(snippets.map(s => [s.file, s.source]));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, onError, create) => (virtual.has(file)
    ? ts.createSourceFile(file, virtual.get(file)!, lang) : getSourceFile(file, lang, onError, create));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = f => virtual.has(f) || fileExists(f);
  const readFile = host.readFile.bind(host);
  host.readFile = f => virtual.get(f) ?? readFile(f);
  const program = ts.createProgram([...virtual.keys()], options, host);
  const problems = ts.getPreEmitDiagnostics(program)
    .filter(d => d.file && virtual.has(d.file.fileName))
    .map(d => {
      const s = snippets.find(x => x.file === d.file!.fileName)!;
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${s.section}: ${s.source.split('\n')[line].trim()}\n  ${ts.flattenDiagnosticMessageText(d.messageText, '\n  ')}`;
    });
  expect(problems).toEqual([]);
});

describe.each(snippets.map(s => [s.section, s] as const))('%s', (_section, s) => {
  test('runs, and its chart synthesizes', () => {
    const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true };
    const js = ts.transpileModule(s.source, { compilerOptions }).outputText;
    const mods: Record<string, unknown> = { 'cdk8s-kruise': lib, cdk8s, 'cdk8s-plus-28': kplus };
    const exported: Record<string, any> = {};
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      new Function('require', 'exports', js)((m: string) => {
        if (!(m in mods)) throw new Error(`README snippet of ${s.section} imports ${m}`);
        return mods[m];
      }, exported);
      const chart: Chart = Testing.chart();
      exported.run(chart);
      const objects = Testing.synth(chart);
      expect(objects.length).toBeGreaterThan(0);
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  });
});
