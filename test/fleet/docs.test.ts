/**
 * docs/fleet-policies.md works as written: every `ts` block compiles (with the
 * project's compiler options, `cdk8s-kruise` being src/, the platform's policy
 * package being examples/fleet-platform/policies.ts) and runs in the layout the
 * page describes (the app next to the platform's synth output and a cluster's
 * live state); the synth error it shows is the one the block raises; the pull
 * request comment it shows is what `cdk8s-kruise fleet` prints for it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import * as ts from 'typescript';
import { build as buildApp } from '../../examples/fleet-app/main';
import { build as buildPlatform } from '../../examples/fleet-platform/main';
import { main } from '../../src/plan/cli';
import { Block, blocks, typeErrors } from '../util/code-blocks';

const root = path.resolve(__dirname, '..', '..');
const PAGE = fs.readFileSync(path.join(root, 'docs', 'fleet-policies.md'), 'utf-8');
const POLICY_PACKAGE = '@acme/platform-policies';

const all = blocks(PAGE);
const tsBlocks = all.filter(b => b.lang === 'ts');

/** The walkthrough's layout: the platform's output (main and the branch's image bump), the payments app's, a cluster's live state. */
let layout: string;
beforeAll(() => {
  layout = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-docs-'));
  buildPlatform(new App({ outdir: path.join(layout, 'platform-main', 'dist') })).synth();
  process.env.LOG_AGENT_IMAGE = 'fluent/fluent-bit:3.2.2';
  try {
    buildPlatform(new App({ outdir: path.join(layout, 'platform', 'dist') })).synth();
  } finally {
    delete process.env.LOG_AGENT_IMAGE;
  }
  process.env.PLATFORM_DIST = path.join(layout, 'platform-main', 'dist');
  try {
    buildApp(new App({ outdir: path.join(layout, 'payments', 'dist') })).synth();
  } finally {
    delete process.env.PLATFORM_DIST;
  }
  fs.mkdirSync(path.join(layout, 'clusters'));
  fs.copyFileSync(path.join(__dirname, 'fixtures', 'docs', 'prod-eu.json'), path.join(layout, 'clusters', 'prod-eu.json'));
  fs.mkdirSync(path.join(layout, 'app'));
}, 120_000);

test('the page has its blocks', () => {
  expect(tsBlocks.length).toBe(4);
  expect(all.filter(b => b.lang === 'markdown')).toHaveLength(1);
});

test('every ts block compiles as written', () => {
  const fileOf = (b: Block) => path.join(root, 'test', `fleet-policies.md.line-${b.line}.ts`);
  const sources = new Map(tsBlocks.map(b => [fileOf(b), b.code]));
  const errors = typeErrors(sources, { [POLICY_PACKAGE]: ['../examples/fleet-platform/policies.ts'] });
  expect([...errors.values()].flat()).toEqual([]);
}, 120_000);

/** Run a block in the app's folder of the layout; returns the error it throws, if any, and the files it wrote. */
function run(b: Block): { error?: string; files: string[] } {
  const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const js = ts.transpileModule(b.code, { compilerOptions }).outputText;
  const cwd = process.cwd();
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-docs-out-'));
  process.env.CDK8S_OUTDIR = outdir;
  try {
    process.chdir(path.join(layout, 'app'));
    /* eslint-disable @typescript-eslint/no-require-imports */
    const load = (id: string) => (id === 'cdk8s-kruise' ? require('../../src') : id === POLICY_PACKAGE ? require('../../examples/fleet-platform/policies') : require(id));
    /* eslint-enable @typescript-eslint/no-require-imports */
    const mod = { exports: {} };
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    new Function('require', 'module', 'exports', js)(load, mod, mod.exports);
    return { files: fs.readdirSync(outdir) };
  } catch (e: any) {
    return { error: String(e.message), files: fs.readdirSync(outdir) };
  } finally {
    process.chdir(cwd);
    delete process.env.CDK8S_OUTDIR;
  }
}

test('the app block synthesizes its own objects only; the collision block fails with the error the page shows', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    expect(run(tsBlocks[0])).toEqual({ files: ['payments.k8s.yaml'] });
    const shown = all.find(b => b.lang === 'text' && b.line > tsBlocks[1].line)!;
    expect(run(tsBlocks[1]).error).toBe(shown.code.trimEnd());
    // a context alone: nothing to write
    expect(run(tsBlocks[2])).toEqual({ files: [] });
    expect(run(tsBlocks[3])).toEqual({ files: [] });
    expect(warn).not.toHaveBeenCalled();
  } finally {
    warn.mockRestore();
  }
});

test('the pull request comment is what cdk8s-kruise fleet prints for the image bump, exit code 0', () => {
  const command = all.find(b => b.lang === 'sh' && b.code.includes('--old-policies ../platform-main/dist'))!.code.trim();
  const argv = command.split(/\s+/).slice(1);
  expect(argv).toEqual(['fleet', '--policies', 'dist', '--old-policies', '../platform-main/dist', '--workloads', 'payments=../payments/dist', '--live', '../clusters/prod-eu.json', '--format', 'markdown']);
  const cwd = process.cwd();
  let out = '';
  let err = '';
  let code: number;
  try {
    process.chdir(path.join(layout, 'platform'));
    code = main(argv, { out: t => (out += t), err: t => (err += t) });
  } finally {
    process.chdir(cwd);
  }
  expect([code, err]).toEqual([0, '']);
  expect(out).toBe(all.find(b => b.lang === 'markdown')!.code);
});
