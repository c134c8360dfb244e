/**
 * Every folder of examples/ is a cdk8s app laid out as examples/README.md
 * says, so it can be copied into a project from `cdk8s init typescript-app`
 * and `cdk8s synth` works inside it.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { Warnings } from '../../src';

const root = path.resolve(__dirname, '..', '..');
const examples = path.join(root, 'examples');
const folders = fs.readdirSync(examples).filter(d => fs.statSync(path.join(examples, d)).isDirectory()).sort();

test('examples/ holds apps', () => {
  expect(folders.length).toBeGreaterThan(0);
});

describe.each(folders)('examples/%s', name => {
  const dir = path.join(examples, name);

  test('has a cdk8s.yaml that runs main.ts with ts-node, as cdk8s init writes it, without imports', () => {
    expect(parse(fs.readFileSync(path.join(dir, 'cdk8s.yaml'), 'utf-8'))).toEqual({ language: 'typescript', app: 'npx ts-node main.ts' });
  });

  test('main.ts exports build() and synthesizes when run as the app', () => {
    const main = fs.readFileSync(path.join(dir, 'main.ts'), 'utf-8');
    expect(main).toMatch(/^export function build\(app: App = new App\(\)\): App \{$/m);
    expect(main).toMatch(/^if \(require\.main === module\) build\(\)\.synth\(\);$/m);
  });

  test('synthesizes with no warning (the main job prints none)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const app: App = require(path.join(dir, 'main.ts')).build(Testing.app());
    app.synthYaml();
    expect(Warnings.of(app)).toEqual([]);
  });

  test('imports the library by its package name only', () => {
    for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(dir, file), 'utf-8');
      const specifiers = [...text.matchAll(/from '([^']+)'/g)].map(m => m[1]);
      const outside = specifiers.filter(s => s.startsWith('.') && !/^\.\/[\w-]+$/.test(s));
      expect({ file, outside }).toEqual({ file, outside: [] });
    }
  });
});

test('cdk8s synth inside an example writes what its build() writes, without the network', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'example-cli-'));
  const expected = fs.mkdtempSync(path.join(os.tmpdir(), 'example-build-'));
  try {
    execFileSync(path.join(root, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade', '--output', outdir], {
      cwd: path.join(examples, 'stateful-app'),
      stdio: 'pipe',
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { build } = require('../../examples/stateful-app/main');
    (build(new App({ outdir: expected })) as App).synth();
    const files = fs.readdirSync(expected).sort();
    expect(fs.readdirSync(outdir).sort()).toEqual(files);
    for (const f of files) expect(fs.readFileSync(path.join(outdir, f), 'utf-8')).toEqual(fs.readFileSync(path.join(expected, f), 'utf-8'));
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.rmSync(expected, { recursive: true, force: true });
  }
}, 120_000);
