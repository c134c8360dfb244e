/**
 * The code blocks of a markdown page, and the type errors of its TypeScript
 * blocks compiled together as one program (the project's test tsconfig,
 * `cdk8s-kruise` being src/): what the README and docs/ tests check.
 */
import * as path from 'path';
import * as ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');

/** One fenced block: its language, the line its code starts on, its code. */
export interface Block { readonly lang: string; readonly line: number; readonly code: string }

/** Every fenced block of a markdown text, with the line its code starts on. */
export function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l === '```');
    out.push({ lang: open[1], line: i + 2, code: lines.slice(i + 1, end).join('\n') + '\n' });
    i = end;
  }
  return out;
}

/**
 * Type errors of `sources` (file name -> code, files under test/), compiled
 * together with the test tsconfig; `paths` adds module names (relative to test/).
 */
export function typeErrors(sources: Map<string, string>, paths: Record<string, string[]> = {}): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'test', 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: d => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const options = { ...config.options, noEmit: true, paths: { ...config.options.paths, ...paths } };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError) => (sources.has(name)
    ? ts.createSourceFile(name, sources.get(name)!, lang)
    : getSourceFile(name, lang, onError));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = name => sources.has(name) || fileExists(name);
  const program = ts.createProgram([...sources.keys()], options, host);
  const errors = new Map<string, string[]>([...sources.keys()].map(f => [f, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (!d.file || !sources.has(d.file.fileName)) continue;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    errors.get(d.file.fileName)!.push(`line ${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }
  return errors;
}
