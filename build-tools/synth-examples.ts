/**
 * `npx projen examples`: synthesize every cdk8s app under examples/ into
 * dist/examples/<app>/, each with the cdk8s CLI of devDependencies running its
 * own cdk8s.yaml, exactly as `cdk8s synth` does inside the app
 * (examples/README.md).
 *
 * The apps are type-checked once, together (tsc -p examples/tsconfig.json);
 * ts-node then only transpiles (swc, set in that tsconfig), two apps at a
 * time.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '..');
const examplesDir = path.join(root, 'examples');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

/** Every example app folder: one with a cdk8s.yaml. */
export function exampleApps(): string[] {
  return fs.readdirSync(examplesDir)
    .filter(d => fs.existsSync(path.join(examplesDir, d, 'cdk8s.yaml')))
    .sort();
}

interface Result { readonly name: string; readonly code: number | null; readonly output: string }

/** `cdk8s synth` inside examples/<name>, written to dist/examples/<name>/. */
function synth(name: string): Promise<Result> {
  const outdir = path.join(root, 'dist', 'examples', name);
  fs.rmSync(outdir, { recursive: true, force: true });
  return new Promise(resolve => {
    const child = spawn(bin('cdk8s'), ['synth', '--no-check-upgrade', '--output', outdir], {
      cwd: path.join(examplesDir, name),
    });
    let output = '';
    child.stdout.on('data', d => (output += d));
    child.stderr.on('data', d => (output += d));
    child.on('close', code => resolve({ name, code, output }));
  });
}

async function main() {
  const apps = exampleApps();
  const tsc = spawnSync(bin('tsc'), ['--noEmit', '-p', path.join(examplesDir, 'tsconfig.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) {
    console.error('examples/: type errors (tsc -p examples/tsconfig.json)');
    process.exit(1);
  }

  const queue = [...apps];
  const failed: Result[] = [];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const r = await synth(name);
      const outdir = path.join(root, 'dist', 'examples', name);
      if (r.code !== 0) {
        failed.push(r);
        console.error(`examples/${name}: cdk8s synth failed (exit ${r.code})\n${r.output}`);
        continue;
      }
      // warnings the app prints on purpose (e.g. a day-2 podsToDelete) stay visible
      for (const l of r.output.split('\n')) if (l.startsWith('[cdk8s-kruise] warning')) console.log(`examples/${name}: ${l}`);
      const files = fs.readdirSync(outdir).sort();
      console.log(`examples/${name} -> ${path.relative(root, outdir)}/ (${files.join(', ')})`);
    }
  };
  await Promise.all([worker(), worker()]);
  if (failed.length > 0) {
    console.error(`${failed.length} of ${apps.length} example app(s) failed: ${failed.map(f => f.name).join(', ')}`);
    process.exit(1);
  }
  console.log(`synthesized ${apps.length} example app(s)`);
}

if (require.main === module) {
  main().catch(e => {
    console.error(e);
    process.exit(1);
  });
}
