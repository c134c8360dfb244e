/**
 * Running a TypeScript program of the docs in this process, as a user's app
 * would run: `cdk8s-kruise` is the library's source (src/), and `locals`
 * answers relative imports such as `./main`.
 */
import * as ts from 'typescript';

export const transpile = (code: string) => ts.transpileModule(code, {
  compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
}).outputText;

/** Runs `code` as a CommonJS module and returns its exports; `globals` become free variables of the module. */
export function runProgram(code: string, locals: Record<string, unknown> = {}, globals: Record<string, unknown> = {}): any {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (id: string) => (id in locals ? locals[id] : id === 'cdk8s-kruise' ? require('../../src') : require(id));
  const mod = { exports: {} as any };
  const names = Object.keys(globals);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('require', 'module', 'exports', ...names, transpile(code))(load, mod, mod.exports, ...names.map(n => globals[n]));
  return mod.exports;
}
