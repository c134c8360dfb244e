import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { GENERATED_DIRS, generatedFiles } from '../../build-tools/generated';
import { ALL_KINDS, crdFileName, renderCrd } from '../../src/api';

const root = path.resolve(__dirname, '..', '..');
const files = generatedFiles();

describe('generated files are up to date with the API model (run `npx projen gen` when this fails)', () => {
  for (const [rel, content] of files) {
    test(rel, () => {
      const abs = path.join(root, rel);
      expect(fs.existsSync(abs)).toBe(true);
      // compare as text so a stale file shows the exact lines that moved
      expect(fs.readFileSync(abs, 'utf-8')).toEqual(content);
    });
  }

  test.each(GENERATED_DIRS)('%s/ holds nothing the model does not produce', dir => {
    const extra = fs.readdirSync(path.join(root, dir), { withFileTypes: true }).filter(f => f.isFile() && !files.has(`${dir}/${f.name}`)).map(f => f.name);
    expect(extra).toEqual([]);
  });
});

describe('crds/', () => {
  test('one file per kind, named <group>_<plural>.yaml', () => {
    const crdFiles = [...files.keys()].filter(f => f.startsWith('crds/')).map(f => f.slice('crds/'.length)).sort();
    expect(crdFiles).toEqual(ALL_KINDS.map(crdFileName).sort());
    expect(crdFiles).toContain('apps.kruise.io_clonesets.yaml');
    expect(crdFiles).toContain('policy.kruise.io_podunavailablebudgets.yaml');
    expect(crdFiles).toContain('rollouts.kruise.io_rollouts.yaml');
  });

  test.each(ALL_KINDS.map(k => [crdFileName(k), k] as const))('%s parses back to the rendered CRD (YAML round trip)', (file, k) => {
    const parsed = parse(fs.readFileSync(path.join(root, 'crds', file), 'utf-8'));
    expect(parsed).toEqual(renderCrd(k));
    expect(parsed.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(parsed.kind).toBe('CustomResourceDefinition');
    expect(parsed.metadata.name).toBe(`${k.plural}.${k.group}`);
  });

  test('no model-only annotation reaches a CRD', () => {
    for (const [rel, content] of files) {
      if (rel.startsWith('crds/') || rel.startsWith('schemas/')) expect(content).not.toContain('x-cdk8s-kruise');
    }
  });

  test('the output is deterministic', () => {
    const again = generatedFiles();
    expect([...again.entries()]).toEqual([...files.entries()]);
  });
});
