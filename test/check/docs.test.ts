/**
 * docs/checking-yaml.md shows what `cdk8s-kruise check` really prints: each
 * command of the page runs (on test/fixtures/check, the page's `manifests/`,
 * and on the kruise chart's rendering in ../shared, or one skipped line
 * without it) and prints the text block that follows it; the pre-commit
 * hook the page names is the one the repository ships. So do the check
 * steps of docs/existing-clusters.md, on the rendering of the page's shop
 * chart (test/fixtures/check/existing-clusters) and its saved live state
 * and /version.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadDocuments } from '../../src/check/yaml';
import { main } from '../../src/cli';
import { fencedBlocks } from '../util/markdown';
import { REFERENCE_DIR, describeWithReference } from '../util/reference';

const PAGE = 'docs/checking-yaml.md';
const ROOT = path.join(__dirname, '..', '..');
const blocks = fencedBlocks(PAGE);

/**
 * Run `npx cdk8s-kruise check ...` as the page writes it, from `cwd`; a
 * command piped into it (`helm template ... | npx cdk8s-kruise check -`)
 * gives `stdin`.
 */
function run(command: string, cwd: string, stdin?: string): { code: number; out: string } {
  const args = command.replace(/^.*\| /, '').replace(/^npx cdk8s-kruise /, '').split(/\s+/);
  let out = '';
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const code = main(args, { out: t => (out += t), err: t => (out += t), stdin: stdin === undefined ? undefined : () => stdin });
    return { code, out };
  } finally {
    process.chdir(before);
  }
}

/** The text block after the sh block holding `command` (of `page`'s blocks). */
function shownAfter(command: string, page = blocks): string {
  const at = page.findIndex(b => b.lang === 'sh' && b.code.split('\n').includes(command));
  expect(at).toBeGreaterThanOrEqual(0);
  const shown = page.slice(at + 1).find(b => b.lang === 'text');
  return shown!.code;
}

test('the check of manifests/ prints what the page shows, exit code 2', () => {
  const command = 'npx cdk8s-kruise check manifests';
  const r = run(command, path.join(ROOT, 'test', 'fixtures', 'check'));
  expect(r.out).toBe(shownAfter(command));
  expect(r.code).toBe(2);
});

describeWithReference('the check of the kruise chart\'s rendering', [path.join(REFERENCE_DIR, 'kruise-chart-1.9.0-alpha.3', 'helm-template.yaml')], () => {
  test('prints what the page shows, exit code 0', () => {
    const command = 'npx cdk8s-kruise check ../shared/reference/kruise-chart-1.9.0-alpha.3/helm-template.yaml';
    const r = run(command, ROOT);
    expect(r.out).toBe(shownAfter(command));
    expect(r.code).toBe(0);
  });
});

test('the pre-commit hook the page names is the one shipped, running the check on YAML and JSON files', () => {
  const hooks = loadDocuments(fs.readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf-8'))[0] as any[];
  const config = loadDocuments(blocks.find(b => b.lang === 'yaml' && b.code.includes('.pre-commit-config.yaml'))!.code)[0] as any;
  const used = config.repos[0].hooks[0];
  const hook = hooks.find(h => h.id === used.id);
  expect(hook).toMatchObject({ entry: 'npx --no-install cdk8s-kruise check', language: 'system' });
  expect(new RegExp(hook.files).test('deploy/shop.yaml')).toBe(true);
  expect(new RegExp(used.files).test('deploy/shop.yaml')).toBe(true);
});

describe('docs/existing-clusters.md: the check of the Helm-rendered parts', () => {
  const page = fencedBlocks('docs/existing-clusters.md');
  // what `helm template shop ./charts/shop` writes; the live state is the one the page's context reads
  const rendered = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'check', 'existing-clusters', 'shop-chart.yaml'), 'utf-8');
  const cwd = path.join(ROOT, 'test', 'fixtures', 'readme');

  test.each([
    'helm template shop ./charts/shop | npx cdk8s-kruise check --openkruise 1.8 -',
    'helm template shop ./charts/shop | npx cdk8s-kruise check --live cluster/kruise.json -',
    // the cluster's Kubernetes: OpenKruise 1.9.0 on the EKS cluster whose /version the page saves
    'helm template shop ./charts/shop | npx cdk8s-kruise check --openkruise 1.9.0 --live cluster/version.json -',
  ])('%s prints what the page shows, exit code 2', command => {
    const r = run(command, cwd, rendered);
    expect(r.out).toBe(shownAfter(command, page));
    expect(r.code).toBe(2);
  });

  test('the same chart is admitted on the default release, as the page says', () => {
    expect(run('npx cdk8s-kruise check -', cwd, rendered).code).toBe(0);
  });
});
