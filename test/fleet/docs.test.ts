/**
 * docs/fleet-policies.md shows what really happens: the synth error it prints
 * is the one its program raises (the docs tests run every program, from
 * test/fixtures/readme, next to the platform's output in
 * test/fixtures/platform/dist and a cluster's live state in
 * test/fixtures/clusters), and the pull-request comment it prints is what
 * `cdk8s-kruise fleet` writes for that image bump.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { build as buildApp } from '../../examples/fleet-app/main';
import { build as buildPlatform } from '../../examples/fleet-platform/main';
import { main } from '../../src/cli';
import { fencedBlocks } from '../util/markdown';
import { runProgram } from '../util/programs';

const PAGE = 'docs/fleet-policies.md';
const blocks = fencedBlocks(PAGE);
const FIXTURES = path.join(__dirname, '..', 'fixtures');

test('the platform output the docs programs read is the platform example\'s', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-docs-platform-'));
  buildPlatform(new App({ outdir })).synth();
  expect(fs.readdirSync(path.join(FIXTURES, 'platform', 'dist'))).toEqual(fs.readdirSync(outdir));
  for (const f of fs.readdirSync(outdir)) {
    expect(fs.readFileSync(path.join(FIXTURES, 'platform', 'dist', f), 'utf-8')).toBe(fs.readFileSync(path.join(outdir, f), 'utf-8'));
  }
});

test('the page\'s own platform app writes the logging agent its app programs read, as the platform example does', () => {
  const program = blocks.find(b => b.lang === 'ts' && b.code.includes('class LoggingAgentPolicy'))!;
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-docs-page-platform-'));
  const env = process.env.CDK8S_OUTDIR;
  try {
    process.env.CDK8S_OUTDIR = outdir;
    runProgram(program.code);
  } finally {
    if (env === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = env;
  }
  const agent = (file: string) => parseAllDocuments(fs.readFileSync(file, 'utf-8')).map(d => d.toJS())
    .find(o => o.kind === 'SidecarSet' && o.metadata.name === 'logging-agent');
  const page = agent(path.join(outdir, 'policies.k8s.yaml'));
  const fixture = agent(path.join(FIXTURES, 'platform', 'dist', 'policies.k8s.yaml'));
  // what the app programs' checks read of it: the pods it selects and the sidecar's name and ports
  const seen = (s: any) => ({ selector: s.spec.selector, containers: s.spec.containers.map((c: any) => ({ name: c.name, ports: c.ports })) });
  expect(seen(page)).toEqual(seen(fixture));
  expect(seen(page).containers).toEqual([{ name: 'log-agent', ports: [{ containerPort: 2020, name: 'agent-metrics' }] }]);
});

test('the synth error the page shows is the one its program raises', () => {
  const program = blocks.find(b => b.lang === 'ts' && b.code.includes("new kplus.Deployment(payments, 'exporter'"))!;
  const shown = blocks.find(b => b.lang === 'text' && b.line > program.line)!;
  const cwd = process.cwd();
  let error = '';
  try {
    process.chdir(path.join(FIXTURES, 'readme'));
    runProgram(program.code).build().synthYaml();
  } catch (e: any) {
    error = String(e.message);
  } finally {
    process.chdir(cwd);
  }
  expect(error).toBe(shown.code.trimEnd());
});

test('the pull-request comment is what cdk8s-kruise fleet prints for the image bump, exit code 0', () => {
  // the walkthrough's layout: the platform's branch and main, the payments app's output, a cluster's live state
  const layout = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-docs-'));
  buildPlatform(new App({ outdir: path.join(layout, 'platform-main', 'dist') })).synth();
  process.env.LOG_AGENT_IMAGE = 'fluent/fluent-bit:3.2.2';
  process.env.PLATFORM_DIST = path.join(layout, 'platform-main', 'dist');
  try {
    buildPlatform(new App({ outdir: path.join(layout, 'platform', 'dist') })).synth();
    buildApp(new App({ outdir: path.join(layout, 'payments', 'dist') })).synth();
  } finally {
    delete process.env.LOG_AGENT_IMAGE;
    delete process.env.PLATFORM_DIST;
  }
  fs.mkdirSync(path.join(layout, 'clusters'));
  fs.copyFileSync(path.join(FIXTURES, 'clusters', 'prod-eu.json'), path.join(layout, 'clusters', 'prod-eu.json'));

  const command = blocks.find(b => b.lang === 'sh' && b.code.includes('--old-policies ../platform-main/dist'))!.code.trim();
  const [npx, program, ...argv] = command.split(/\s+/);
  expect([npx, program]).toEqual(['npx', 'cdk8s-kruise']);
  expect(argv).toEqual(['fleet', '--policies', 'dist', '--old-policies', '../platform-main/dist', '--workloads', 'payments=../payments/dist',
    '--live', '../clusters/prod-eu.json', '--format', 'markdown']);
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
  const comment = blocks.find(b => b.lang === 'text' && b.code.startsWith('### Fleet check:'))!;
  expect(out).toBe(comment.code);
}, 60_000);
