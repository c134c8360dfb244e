/**
 * `npx projen examples`: synthesize every cdk8s app under examples/ into
 * dist/examples/<app>/. Each example exports `build(app)`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';

const root = path.resolve(__dirname, '..');
const examplesDir = path.join(root, 'examples');

/** Every example app folder (one with a main.ts). */
export function exampleApps(): string[] {
  return fs.readdirSync(examplesDir)
    .filter(d => fs.existsSync(path.join(examplesDir, d, 'main.ts')))
    .sort();
}

function main() {
  const apps = exampleApps();
  for (const name of apps) {
    const outdir = path.join(root, 'dist', 'examples', name);
    fs.rmSync(outdir, { recursive: true, force: true });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(examplesDir, name, 'main.ts'));
    const app: App = mod.build(new App({ outdir }));
    app.synth();
    const files = fs.readdirSync(outdir).sort();
    console.log(`examples/${name} -> ${path.relative(root, outdir)}/ (${files.join(', ')})`);
  }
  console.log(`synthesized ${apps.length} example app(s)`);
}

if (require.main === module) main();
