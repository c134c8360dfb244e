/**
 * Reading the project's markdown the way the docs tests, the newcomer test
 * and the language tier need it: the pages, their fenced code blocks, their
 * links and the anchors GitHub gives their headings.
 */
import * as fs from 'fs';
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '..', '..');

/** The repository's URL prefix for files on the default branch, as the README links them. */
export const REPO_URL = 'https://github.com/cdk8s-kruise/cdk8s-kruise/';

/** The pages a reader navigates: the README, every page of docs/, and the examples gallery (paths from the root). */
export function docPages(): string[] {
  const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter(f => f.endsWith('.md')).sort().map(f => `docs/${f}`);
  return ['README.md', ...docs, 'examples/README.md'];
}

export function readPage(page: string): string {
  return fs.readFileSync(path.join(ROOT, page), 'utf-8');
}

/** One fenced code block. */
export interface Block {
  /** The page it is on, from the repository root. */
  readonly page: string;
  /** The language of the fence (```ts → `ts`); empty when the fence names none. */
  readonly lang: string;
  /** The file name after the language (```ts main.test.ts → `main.test.ts`), if any. */
  readonly file?: string;
  /** The line its code starts on (1-based). */
  readonly line: number;
  readonly code: string;
}

/** Every fenced block of a page, in order. */
export function fencedBlocks(page: string, markdown: string = readPage(page)): Block[] {
  const out: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(?:[ \t]+(\S+))?[ \t]*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${page}:${i + 1}: a code fence that is never closed`);
    out.push({ page, lang: open[1], file: open[2], line: i + 2, code: lines.slice(i + 1, end).join('\n') + '\n' });
    i = end;
  }
  return out;
}

/** The page without its fenced blocks and inline code: the text links can be in. */
export function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```\s*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link target of the page's prose: `[text](target)`. */
export function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map(m => m[1]);
}

/** The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = markdown.replace(/^```[\s\S]*?^```\s*$/gm, '');
  for (const m of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
