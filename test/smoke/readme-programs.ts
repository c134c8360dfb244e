/**
 * The README's quick start in TypeScript, Python, Java and Go, laid out for
 * the language tier (test/smoke/run.sh): `ts-node readme-programs.ts <dir>`
 * runs the TypeScript program into `<dir>/typescript/dist/` and writes each
 * other program where its language's build expects it, in a project of its
 * own next to the smoke test of that language:
 *
 *   <dir>/python/main.py                        run with the smoke test's venv
 *   <dir>/java/src/main/java/Main.java          built with test/java/pom.xml
 *   <dir>/go/main.go, go.mod, go.sum            test/go's module, renamed, with
 *                                               its replace lines made absolute
 *
 * Each program writes `dist/` in its own folder when run there; run.sh
 * compares every one with the TypeScript output, file by file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, fencedBlocks } from '../util/markdown';
import { runProgram } from '../util/programs';

function one(lang: string, file?: string): string {
  const found = fencedBlocks('README.md').filter(b => b.lang === lang && (file === undefined || b.file === file));
  if (found.length !== 1) throw new Error(`README.md has ${found.length} ${lang} blocks${file ? ` named ${file}` : ''}, not 1`);
  return found[0].code;
}

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function main() {
  const out = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist', 'smoke', 'readme'));
  fs.rmSync(out, { recursive: true, force: true });

  // TypeScript: the quick start's main.ts, as the docs tests run it
  const tsDist = path.join(out, 'typescript', 'dist');
  const before = process.env.CDK8S_OUTDIR;
  process.env.CDK8S_OUTDIR = tsDist;
  try {
    runProgram(one('ts', 'main.ts'));
  } finally {
    if (before === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = before;
  }
  if (!fs.existsSync(tsDist) || fs.readdirSync(tsDist).length === 0) throw new Error('the TypeScript quick start wrote nothing');

  write(path.join(out, 'python', 'main.py'), one('python'));
  write(path.join(out, 'java', 'src', 'main', 'java', 'Main.java'), one('java'));

  const go = path.join(out, 'go');
  write(path.join(go, 'main.go'), one('go'));
  const mod = fs.readFileSync(path.join(ROOT, 'test', 'go', 'go.mod'), 'utf-8')
    .replace(/^(\/\/.*\n)+/, '// The README\'s Go quick start against the modules in dist/go (test/smoke/readme-programs.ts).\n')
    .replace(/^module .*$/m, 'module github.com/cdk8s-kruise/cdk8s-kruise-readme-go')
    .replace(/=> \.\.\/\.\.\/dist\/go\//g, `=> ${path.join(ROOT, 'dist', 'go')}/`);
  write(path.join(go, 'go.mod'), mod);
  fs.copyFileSync(path.join(ROOT, 'test', 'go', 'go.sum'), path.join(go, 'go.sum'));

  process.stdout.write(`README programs in ${path.relative(ROOT, out)}: TypeScript wrote ${fs.readdirSync(tsDist).join(', ')}\n`);
}

main();
