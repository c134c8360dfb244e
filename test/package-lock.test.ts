/**
 * `npm ci` on the Node.js the README documents prints no engine warning: every
 * package of package-lock.json accepts it. (projen's default release tooling
 * wanted Node 22 and printed 17 EBADENGINE warnings; .projenrc.ts pins one
 * that runs on 20.)
 */
import * as fs from 'fs';
import * as path from 'path';
import * as semver from 'semver';

const root = path.resolve(__dirname, '..');

/** The oldest Node.js the README says this repository builds on. */
const DOCUMENTED_NODE = '20.19.0';

test('the README documents the Node.js this repository builds on', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
  expect(readme).toContain(`Node.js ${semver.major(DOCUMENTED_NODE)}.${semver.minor(DOCUMENTED_NODE)} or later`);
});

test('every locked package accepts that Node.js, so npm ci prints no EBADENGINE', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf-8'));
  const refusing = Object.entries<any>(lock.packages)
    .filter(([, p]) => typeof p.engines?.node === 'string' && !semver.satisfies(DOCUMENTED_NODE, p.engines.node))
    .map(([where, p]) => `${where} ${p.version}: node ${p.engines.node}`);
  expect(refusing).toEqual([]);
});

test('the check sees a package that wants a newer Node.js', () => {
  expect(semver.satisfies(DOCUMENTED_NODE, '>=22')).toBe(false);
  expect(semver.satisfies(DOCUMENTED_NODE, '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
});
