/**
 * Post-compile step: the `kruise` namespace of lib/src/index.js (the L1
 * bindings, 16k lines) is loaded on first access instead of at
 * `require('cdk8s-kruise')`. jsii declares the submodule from
 * `export * as kruise from '../imports/kruise'`, which TypeScript compiles to
 * an eager require; this turns that one statement into a getter that
 * requires the module and then replaces itself with the value. The
 * constructs read the L1 through src/_kruise-l1.ts, lazily as well.
 */
import * as fs from 'fs';
import * as path from 'path';

const file = path.join(__dirname, '..', 'lib', 'src', 'index.js');
const eager = 'exports.kruise = __importStar(require("../imports/kruise"));';
const lazy = [
  'Object.defineProperty(exports, "kruise", { enumerable: true, configurable: true, get: () => {',
  '    const value = __importStar(require("../imports/kruise"));',
  '    Object.defineProperty(exports, "kruise", { enumerable: true, value });',
  '    return value;',
  '} });',
].join('\n');

const js = fs.readFileSync(file, 'utf-8');
if (js.includes(lazy)) process.exit(0);
if (js.split(eager).length !== 2) {
  throw new Error(`lazy-l1: ${file} does not hold exactly one "${eager}"; did the export of the kruise namespace in src/index.ts change?`);
}
fs.writeFileSync(file, js.replace(eager, lazy));
