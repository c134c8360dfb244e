/**
 * `npx projen gen`: regenerate crds/, schemas/ and imports/ from the API model.
 * Files of those folders that the model no longer produces are removed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { GENERATED_DIRS, generatedFiles } from './generated';

const root = path.resolve(__dirname, '..');
const files = generatedFiles();
for (const dir of GENERATED_DIRS) {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) continue;
  for (const f of fs.readdirSync(abs, { withFileTypes: true })) {
    if (f.isFile() && !files.has(`${dir}/${f.name}`)) fs.rmSync(path.join(abs, f.name));
  }
}
for (const [rel, content] of files) {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}
console.log(`generated ${files.size} files: crds/, schemas/ (JSON schemas and their validators), imports/kruise/, imports/rollouts/ (the L1, one module per kind and version)`);
