/**
 * The npm package ships what runs and what documents, and the README it
 * carries (also the PyPI long description) links only to what a reader of the
 * package can open.
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

  test('ships what runs: the schemas read at synth, the plan CLI and the bundled dependencies', () => {
    const schemas = fs.readdirSync(path.join(root, 'schemas')).filter(f => f.endsWith('.json')).map(f => `schemas/${f}`);
    expect(schemas.length).toBeGreaterThan(18);
    for (const f of [...schemas, 'bin/cdk8s-kruise', 'package.json', 'node_modules/ajv/package.json', 'node_modules/croner/package.json', 'node_modules/yaml/package.json']) {
      expect(files).toContain(f);
    }
    // the compiled library, when it has been built (`npx projen test` compiles first)
    if (fs.existsSync(path.join(root, 'lib', 'src', 'index.js'))) {
      for (const f of ['lib/src/index.js', 'lib/src/index.d.ts', 'lib/imports/kruise.js', 'lib/imports/kruise.d.ts', '.jsii']) expect(files).toContain(f);
    }
  });

  test('ships what documents: README, API reference, docs, licence', () => {
    for (const f of ['README.md', 'API.md', 'LICENSE', 'docs/update-plan.md', 'docs/fleet-policies.md']) expect(files).toContain(f);
  });
});

describe('the links of the README', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
  // outside code blocks only
  const prose = readme.replace(/^```[\s\S]*?^```$/gm, '');
  const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map(m => m[1]);

  test('point at the repository or the web, never at a file of the repository by relative path', () => {
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter(l => !/^(https?:\/\/|#)/.test(l))).toEqual([]);
  });

  test('to the repository name files that exist', () => {
    const repo = 'https://github.com/cdk8s-kruise/cdk8s-kruise/';
    const missing = links.filter(l => l.startsWith(repo))
      .map(l => l.slice(repo.length).replace(/^(blob|tree)\/main\//, ''))
      .filter(p => !fs.existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
  });

  test('to a section name a heading of the README', () => {
    // GitHub's anchors: lower case, punctuation dropped, spaces as hyphens
    const anchors = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map(m => m[1].trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));
    expect(links.filter(l => l.startsWith('#') && !anchors.has(l.slice(1)))).toEqual([]);
  });
});
