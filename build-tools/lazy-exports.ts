/**
 * Post-compile step: `require('cdk8s-kruise')` loads no module of the package
 * but lib/src/index.js; each export loads its own module on first access. The
 * same holds one level down, in the L1 namespaces: `kruise.KubeCloneSet` loads
 * lib/imports/kruise/clone-set-v1alpha1.js and no other kind.
 *
 * jsii needs src/index.ts to be `export * from './x'` and `export * as ns from
 * '../imports/ns'` statements, which TypeScript compiles to eager requires:
 * every construct, the control plane and every kind of both L1 bindings
 * would load at `require`, whatever the app uses. This step rewrites the
 * compiled index: every name a module exports becomes a getter that requires
 * that module on first access and keeps the value, so an app pays for the
 * constructs it uses (a control-plane-only app
 * never loads cdk8s-plus-28's constructs or the L1). The names are read by
 * loading each module once here, at build time; when two modules export the
 * same name the first one in index.ts wins, as `export *` does.
 *
 * The indexes rewritten are the package's (lib/src/index.js) and the L1's
 * (lib/imports/kruise/index.js, lib/imports/rollouts/index.js: `export *` of
 * one module per kind and version). The constructs read the L1 through
 * src/_kruise-l1.ts, which loads those indexes on first use, so a construct
 * loads the L1 classes it uses and no other. test/smoke/lazy-load.test.ts
 * checks the result on the compiled package.
 */
import * as fs from 'fs';
import * as path from 'path';

const LIB = path.join(__dirname, '..', 'lib');
const INDEXES = ['src/index.js', 'imports/kruise/index.js', 'imports/rollouts/index.js'];
const MARK = '/* lazy exports (build-tools/lazy-exports.ts) */';

// Compiled L1 modules whose source is gone (the L1 was one module per product before it was one per kind):
// a stale lib/imports/kruise.js would shadow lib/imports/kruise/index.js.
for (const f of fs.readdirSync(path.join(LIB, 'imports'), { withFileTypes: true })) {
  const source = path.join(__dirname, '..', 'imports', f.name.replace(/\.(d\.ts|js)$/, '.ts'));
  if (f.isFile() && !fs.existsSync(source)) fs.rmSync(path.join(LIB, 'imports', f.name));
}

for (const index of INDEXES) {
  const file = path.join(LIB, index);
  const js = fs.readFileSync(file, 'utf-8');
  if (!js.includes(MARK)) fs.writeFileSync(file, rewrite(file, js));
}

/** The index `file` (its compiled `source`), each export a getter that loads its module on first access. */
function rewrite(file: string, source: string): string {
  const dir = path.dirname(file);
  const star = /^__exportStar\(require\("(\.[^"]+)"\), exports\);$/;
  const namespace = /^exports\.(\w+) = __importStar\(require\("(\.[^"]+)"\)\);$/;
  const lines = source.split('\n');
  const kept: string[] = [];
  const modules: string[] = [];
  const moduleOf = (spec: string): number => {
    if (!modules.includes(spec)) modules.push(spec);
    return modules.indexOf(spec);
  };
  const names: Record<string, number> = {}; // a name `export *` binds -> the module defining it
  const namespaces: Record<string, number> = {}; // `export * as ns`
  const seen = (k: string) => k in names || k in namespaces;

  for (const line of lines) {
    const s = star.exec(line);
    const n = namespace.exec(line);
    if (s) {
      // the names `export *` would bind (first module wins), each bound to the module that defines it
      for (const [k, spec] of definers(dir, path.join(dir, s[1]))) {
        if (!seen(k)) names[k] = moduleOf(spec);
      }
    } else if (n) {
      if (seen(n[1])) throw new Error(`lazy-exports: ${n[1]} is exported twice by ${file}`);
      namespaces[n[1]] = moduleOf(n[2]);
    } else {
      kept.push(line);
    }
  }
  if (modules.length === 0) {
    throw new Error(`lazy-exports: ${file} has no \`export *\` statement left to rewrite; did the index it is compiled from change its form?`);
  }

  // drop TypeScript's `exports.a = exports.b = void 0;` (the getters below define those names)
  const body = kept.filter(l => !/^exports\.\w+ = (exports\.\w+ = )*void 0;$/.test(l));
  // the index's source map no longer matches its lines, and there is nothing in it to step through
  const sourceMap = body.findIndex(l => l.startsWith('//# sourceMappingURL='));
  if (sourceMap >= 0) body.splice(sourceMap);
  fs.rmSync(`${file}.map`, { force: true });
  // A table and a loop rather than a getter per name in the source (an L1 index has hundreds of
  // names), and getters that keep their value instead of redefining the property: redefining one
  // of hundreds of accessors costs V8 about half a millisecond each time.
  return [
    ...body,
    MARK,
    'const modules = [',
    ...modules.map(spec => `    () => require(${JSON.stringify(spec)}),`),
    '];',
    'const loaded = [];',
    'const load = (i) => (loaded[i] ??= modules[i]());',
    'function lazy(name, get) {',
    '    let value;',
    '    Object.defineProperty(exports, name, { enumerable: true, get: () => (value === undefined ? (value = get()) : value) });',
    '}',
    `const names = ${JSON.stringify(names)};`,
    'for (const name of Object.keys(names)) lazy(name, () => load(names[name])[name]);',
    ...Object.entries(namespaces).map(([ns, i]) => `lazy(${JSON.stringify(ns)}, () => __importStar(load(${i})));`),
    '',
  ].join('\n');
}

/**
 * The names module `moduleFile` exports, each with the module (as a specifier
 * relative to the index in `dir`) that defines it: names a module re-exports with
 * `export *` (a folder's index.ts) are followed to where they are defined, so
 * `KruiseControlPlane` loads control-plane/control-plane.js and not every
 * module of the folder.
 */
function definers(dir: string, moduleFile: string): Map<string, string> {
  const resolved = require.resolve(moduleFile);
  const out = new Map<string, string>();
  const source = fs.readFileSync(resolved, 'utf-8');
  for (const m of source.matchAll(/^__exportStar\(require\("(\.[^"]+)"\), exports\);$/gm)) {
    for (const [k, spec] of definers(dir, path.join(path.dirname(resolved), m[1]))) {
      if (!out.has(k)) out.set(k, spec);
    }
  }
  const own = path.relative(dir, resolved).replace(/\.js$/, '').replace(/\/index$/, '');
  // the module's own names: load it (compiled JS, already built) and read its exports
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const k of Object.keys(require(resolved))) {
    if (k !== 'default' && k !== '__esModule' && !out.has(k)) out.set(k, `./${own}`);
  }
  return out;
}
