/**
 * The npm package ships what runs and what documents (the links of the README
 * and docs/ are checked by test/docs.test.ts).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '..');

function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf-8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out)[0].files.map((f: { path: string }) => f.path).sort();
}

describe('the npm package', () => {
  let files: string[];
  beforeAll(() => {
    files = packed();
  }, 60_000);

  test('ships no source, tests, examples, CRD files or tooling', () => {
    const ours = files.filter(f => !f.startsWith('node_modules/'));
    expect(ours.filter(f => /^(src|test|examples|imports|crds|build-tools|projenrc|\.ci|\.github|\.projen)\//.test(f))).toEqual([]);
    expect(ours.filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(ours.filter(f => ['.projenrc.ts', 'tsconfig.json', '.eslintrc.json', '.gitattributes'].includes(f))).toEqual([]);
  });

  test('ships what runs: the schemas and their validators read at synth, the plan CLI and the bundled dependencies', () => {
    const schemas = fs.readdirSync(path.join(root, 'schemas')).filter(f => f.endsWith('.json') || f.endsWith('.js')).map(f => `schemas/${f}`);
    expect(schemas).toContain('schemas/apps.kruise.io_v1alpha1_cloneset.js');
    expect(schemas.length).toBeGreaterThan(2 * 18);
    // the schemas of the older releases, loaded by the apps that target them
    for (const f of ['schemas/openkruise-1.8/index.json', 'schemas/openkruise-1.7/index.json', 'schemas/rollouts-0.5/index.json', 'schemas/openkruise-1.8/apps.kruise.io_v1alpha1_sidecarset.js']) {
      expect(files).toContain(f);
    }
    for (const f of [...schemas, 'bin/cdk8s-kruise', 'package.json', 'node_modules/ajv/package.json', 'node_modules/croner/package.json', 'node_modules/yaml/package.json']) {
      expect(files).toContain(f);
    }
    // the compiled library, when it has been built (`npx projen test` compiles first)
    if (fs.existsSync(path.join(root, 'lib', 'src', 'index.js'))) {
      for (const f of ['lib/src/index.js', 'lib/src/index.d.ts', 'lib/imports/kruise/index.js', 'lib/imports/kruise/clone-set-v1alpha1.js', '.jsii']) expect(files).toContain(f);
    }
  });

  test('ships what documents: README, API reference, docs, licence', () => {
    const pages = fs.readdirSync(path.join(root, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`);
    expect(pages.length).toBeGreaterThan(10);
    for (const f of ['README.md', 'API.md', 'LICENSE', ...pages]) expect(files).toContain(f);
  });
});
