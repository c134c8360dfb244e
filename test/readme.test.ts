/**
 * The README's code works when pasted: every `ts` block is a whole program
 * that compiles (with the project's compiler options, `cdk8s-kruise` being
 * src/) and synthesizes without an error or a warning; every Python, Java and
 * Go block is an excerpt of the language smoke-test app, which
 * `npx projen test:languages` runs.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { Block, blocks, typeErrors as compile } from './util/code-blocks';

const root = path.resolve(__dirname, '..');
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');

const tsBlocks = blocks(README).filter(b => b.lang === 'ts' || b.lang === 'typescript');
const fileOf = (b: Block) => path.join(root, 'test', `README.md.line-${b.line}.ts`);

/** Type errors of every block, compiled together in one program (the project's test tsconfig). */
function typeErrors(): Map<string, string[]> {
  return compile(new Map(tsBlocks.map(b => [fileOf(b), b.code])));
}

test('the README has TypeScript blocks', () => {
  expect(tsBlocks.length).toBeGreaterThan(3);
});

describe('every ts block of the README compiles as written', () => {
  let errors: Map<string, string[]>;
  beforeAll(() => {
    errors = typeErrors();
  }, 120_000);
  test.each(tsBlocks.map(b => [b.line, b] as const))('README.md line %d', (_line, b) => {
    expect(errors.get(fileOf(b))).toEqual([]);
  });
});

describe('every ts block of the README synthesizes, with no warning', () => {
  test.each(tsBlocks.map(b => [b.line, b] as const))('README.md line %d', (_line, b) => {
    const js = ts.transpileModule(b.code, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText;
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-block-'));
    const cwd = process.cwd();
    const env = process.env.CDK8S_OUTDIR;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      // relative files a block reads (KruiseInclude's manifests/shop.yaml)
      process.chdir(path.join(__dirname, 'fixtures', 'readme'));
      process.env.CDK8S_OUTDIR = outdir;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const load = (id: string) => (id === 'cdk8s-kruise' ? require('../src') : require(id));
      const mod = { exports: {} };
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      new Function('require', 'module', 'exports', js)(load, mod, mod.exports);
      expect(warn.mock.calls.map(c => String(c[0]))).toEqual([]);
      expect(fs.readdirSync(outdir).filter(f => f.endsWith('.k8s.yaml')).length).toBeGreaterThan(0);
    } finally {
      warn.mockRestore();
      process.chdir(cwd);
      if (env === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = env;
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});

/** Where `snippet` stands in `source` as a run of whole lines, each under the same extra indentation. */
function isExcerpt(snippet: string, source: string): boolean {
  const want = snippet.trimEnd().split('\n');
  const have = source.split('\n');
  for (let i = 0; i + want.length <= have.length; i++) {
    const indent = /^\s*/.exec(have[i])![0];
    if (want.every((l, k) => (l === '' ? have[i + k].trim() === '' : have[i + k] === indent + l))) return true;
  }
  return false;
}

const SMOKE_APPS: Record<string, string> = {
  python: 'test/python/app.py',
  java: 'test/java/src/main/java/io/github/cdk8skruise/smoke/App.java',
  go: 'test/go/main.go',
};

describe('every Python, Java and Go block of the README is an excerpt of the smoke-test app of its language', () => {
  const langBlocks = blocks(README).filter(b => b.lang in SMOKE_APPS);
  test('there is one of each', () => {
    expect(langBlocks.map(b => b.lang).sort()).toEqual(['go', 'java', 'python']);
  });
  test.each(langBlocks.map(b => [b.lang, b.line, b] as const))('%s block at README.md line %d', (lang, _line, b) => {
    const source = fs.readFileSync(path.join(root, SMOKE_APPS[lang]), 'utf-8');
    expect(isExcerpt(b.code, source)).toBe(true);
  });
});
