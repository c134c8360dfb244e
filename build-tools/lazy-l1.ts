/**
 * Post-compile step: the `kruise` and `rollouts` namespaces of
 * lib/src/index.js (the L1 bindings, 16k and 3.6k lines) are loaded on first
 * access instead of at `require('cdk8s-kruise')`. jsii declares each submodule
 * from `export * as <ns> from '../imports/<ns>'`, which TypeScript compiles to
 * an eager require; this turns each such statement into a getter that
 * requires the module and then replaces itself with the value. The
 * constructs read the L1 through src/_kruise-l1.ts, lazily as well.
 */
import * as fs from 'fs';
import * as path from 'path';

const file = path.join(__dirname, '..', 'lib', 'src', 'index.js');
/** The namespaces made lazy: the OpenKruise L1 and the Kruise Rollouts L1. */
const NAMESPACES = ['kruise', 'rollouts'];

let js = fs.readFileSync(file, 'utf-8');
for (const ns of NAMESPACES) {
  const eager = `exports.${ns} = __importStar(require("../imports/${ns}"));`;
  const lazy = [
    `Object.defineProperty(exports, "${ns}", { enumerable: true, configurable: true, get: () => {`,
    `    const value = __importStar(require("../imports/${ns}"));`,
    `    Object.defineProperty(exports, "${ns}", { enumerable: true, value });`,
    '    return value;',
    '} });',
  ].join('\n');
  if (js.includes(lazy)) continue;
  if (js.split(eager).length !== 2) {
    throw new Error(`lazy-l1: ${file} does not hold exactly one "${eager}"; did the export of the ${ns} namespace in src/index.ts change?`);
  }
  js = js.replace(eager, lazy);
}
fs.writeFileSync(file, js);
