/**
 * `npx projen gen`: regenerate crds/, schemas/ and imports/ from the API model.
 * Files of those folders that the model no longer produces are removed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { generatedFiles } from './generated';

const root = path.resolve(__dirname, '..');
const files = generatedFiles();
for (const dir of ['crds', 'schemas']) {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) continue;
  for (const f of fs.readdirSync(abs)) {
    if (!files.has(`${dir}/${f}`)) fs.rmSync(path.join(abs, f));
  }
}
for (const [rel, content] of files) {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}
console.log(`generated ${files.size} files: crds/, schemas/ (JSON schemas and their validators), imports/kruise.ts, imports/rollouts.ts`);
