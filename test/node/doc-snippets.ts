// The code blocks of the README and of docs/, read as a merchant copies them: every ```ts and
// ```tsx block (and the README's ```js server) becomes a file of its own, imports the package by its
// name, and is type-checked by tsc against the types the package ships (dist/types, through the
// package's own exports), so run after `npm run build`.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { repoRoot } from './consumer-app.js';

export type CodeBlock = {
  /** The page, relative to the repository (`docs/server.md`). */
  page: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** `ts`, `tsx`, `js`, … as written after the fence. */
  lang: string;
  /** The file name in brackets after the language (```ts [lib/pay.ts], ```ts [app/pay/[endpoint]/route.ts]), when there is one. */
  title: string | undefined;
  code: string;
};

const FENCE = /^```(\w*)[ \t]*(?:\[(.+)\])?[^\n]*\n([\s\S]*?)^```[ \t]*$/gm;

export function codeBlocks(page: string, text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  for (const match of text.matchAll(FENCE)) {
    const line = text.slice(0, match.index).split('\n').length;
    blocks.push({ page, line, lang: match[1] ?? '', title: match[2]?.trim(), code: match[3] ?? '' });
  }
  return blocks;
}

/** README.md and every page under docs/ (not its .vitepress folder), relative to the repository. */
export async function documentationPages(): Promise<string[]> {
  const pages = ['README.md'];
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(join(repoRoot, dir), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'public') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  }
  await walk('docs');
  return pages.sort();
}

export async function allCodeBlocks(): Promise<CodeBlock[]> {
  const blocks: CodeBlock[] = [];
  for (const page of await documentationPages())
    blocks.push(...codeBlocks(page, await readFile(join(repoRoot, page), 'utf8')));
  return blocks;
}

/** The blocks tsc checks: TypeScript everywhere, and the README's JavaScript (its complete server). */
export function isTypeChecked(block: CodeBlock): boolean {
  return block.lang === 'ts' || block.lang === 'tsx' || (block.page === 'README.md' && block.lang === 'js');
}

/**
 * Where a block is written: its title when it names a file (so that blocks of one page import each
 * other, `./pay.js` from `[pay.ts]`), else `block-<line>.<ext>`; in a folder per page.
 */
export function snippetPath(block: CodeBlock): string {
  const folder = relative('.', block.page)
    .replace(/\.md$/, '')
    .replace(/[^\w-]+/g, '_');
  const extension = block.lang === 'js' ? 'mjs' : block.lang;
  const name =
    block.title && /^[\w./[\]-]+\.(m?[jt]sx?)$/.test(block.title) ? block.title : `block-${block.line}.${extension}`;
  return join(folder, name);
}
