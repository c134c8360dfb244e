/**
 * `npx projen examples`: synthesize every cdk8s app under examples/ into
 * dist/examples/<app>/, each with the cdk8s CLI of devDependencies running its
 * own cdk8s.yaml, exactly as `cdk8s synth` does inside the app
 * (examples/README.md).
 *
 * The apps are type-checked once, together (tsc -p examples/tsconfig.json);
 * ts-node then only transpiles (swc, set in that tsconfig), two apps at a
 * time. An app that reads another app's output (a second repository's
 * dist/, READS_OUTPUT_OF) is synthesized after it, told where that output is.
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

/**
 * Apps that read another app's synth output, as an app repository reads the
 * platform repository's: the app, and the variable that tells it where.
 */
export const READS_OUTPUT_OF: Record<string, { readonly example: string; readonly env: string }> = {
  'fleet-app': { example: 'fleet-platform', env: 'PLATFORM_DIST' },
};

interface Result { readonly name: string; readonly code: number | null; readonly output: string }

const outdirOf = (name: string) => path.join(root, 'dist', 'examples', name);

/** `cdk8s synth` inside examples/<name>, written to dist/examples/<name>/. */
function synth(name: string): Promise<Result> {
  const outdir = outdirOf(name);
  fs.rmSync(outdir, { recursive: true, force: true });
  const reads = READS_OUTPUT_OF[name];
  return new Promise(resolve => {
    const child = spawn(bin('cdk8s'), ['synth', '--no-check-upgrade', '--output', outdir], {
      cwd: path.join(examplesDir, name),
      env: reads ? { ...process.env, [reads.env]: outdirOf(reads.example) } : process.env,
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

  // the apps another app reads first, the apps that read them once those are written
  const queue = apps.filter(a => !READS_OUTPUT_OF[a]);
  const later = apps.filter(a => READS_OUTPUT_OF[a]);
  const failed: Result[] = [];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const reads = READS_OUTPUT_OF[name];
      if (reads && failed.some(f => f.name === reads.example)) {
        failed.push({ name, code: null, output: '' });
        console.error(`examples/${name}: not synthesized: it reads the output of examples/${reads.example}, which failed`);
        continue;
      }
      const r = await synth(name);
      const outdir = outdirOf(name);
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
  queue.push(...later);
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
