// Every TypeScript code block of the README and docs/ type-checks as pasted, against the package's
// published types: a name the snippet does not define or import, an option the handlers do not
// take, a function called with the wrong arguments fails here with the page and line. Also: the
// README's links lead to files that exist (VitePress checks docs/ itself when it builds).
// Run after `npm run build`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from './consumer-app.js';
import { allCodeBlocks, documentationPages, isTypeChecked, snippetPath, type CodeBlock } from './doc-snippets.js';

const run = promisify(execFile);
const dir = join(repoRoot, 'test-results', 'doc-snippets');

/**
 * What the runtimes of the Deno and Bun recipes give their programs, as far as the recipes use it
 * (Deno's and Bun's own type packages come with their binaries, not from npm).
 */
const RUNTIME_GLOBALS = `
declare namespace Deno {
  type ServeHandlerInfo = { remoteAddr: { transport: 'tcp' | 'udp'; hostname: string; port: number } };
  function serve(options: { port?: number; hostname?: string }, handler: (request: Request, info: ServeHandlerInfo) => Response | Promise<Response>): unknown;
}
declare namespace Bun {
  type Server = { requestIP(request: Request): { address: string; family: string; port: number } | null };
  function serve(options: { port?: number; hostname?: string; fetch(request: Request, server: Server): Response | Promise<Response> }): Server;
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    moduleDetection: 'force',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    allowJs: true,
    allowImportingTsExtensions: true, // Deno's recipe imports ./pay.ts by its name
    checkJs: true,
    jsx: 'react-jsx',
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['**/*'],
};

const blocks = (await allCodeBlocks()).filter(isTypeChecked);
/** tsc's diagnostics by snippet file (relative to `dir`, forward slashes). */
const diagnostics = new Map<string, string[]>();

before(async () => {
  await rm(dir, { recursive: true, force: true });
  for (const block of blocks) {
    const file = join(dir, snippetPath(block));
    assert.ok(!existsSync(file), `two blocks are written to ${snippetPath(block)} (${block.page}:${block.line})`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, block.code);
  }
  await writeFile(join(dir, 'runtime-globals.d.ts'), RUNTIME_GLOBALS);
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');
  const output = await run(tsc, ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: dir }).then(
    (result) => result.stdout,
    (error: { stdout?: string; message: string }) => error.stdout || error.message,
  );
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
    if (!match) continue;
    const file = match[1]!.replaceAll('\\', '/');
    diagnostics.set(file, [...(diagnostics.get(file) ?? []), `line ${match[2]}: ${match[4]}`]);
  }
});

/** The block's diagnostics, with their lines counted in the Markdown page. */
function errorsOf(block: CodeBlock): string[] {
  const file = snippetPath(block).replaceAll('\\', '/');
  return (diagnostics.get(file) ?? []).map((text) =>
    text.replace(/^line (\d+)/, (_, line: string) => `${block.page}:${block.line + Number(line)}`),
  );
}

describe('the code blocks of the README and docs/, type-checked as pasted', () => {
  it('finds the blocks (the README server, and TypeScript on the pages that have it)', () => {
    const pages = new Set(blocks.map((block) => block.page));
    for (const page of [
      'README.md',
      'docs/server.md',
      'docs/recipes.md',
      'docs/getting-paid.md',
      'docs/stores.md',
      'docs/frameworks.md',
    ]) {
      assert.ok(pages.has(page), `${page} has a checked code block`);
    }
  });

  for (const block of blocks) {
    it(`${block.page}:${block.line} (${block.lang}${block.title ? ` [${block.title}]` : ''})`, () => {
      assert.deepEqual(errorsOf(block), []);
    });
  }
});

describe("the README's links", () => {
  it('lead to files in the repository', async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'));
    assert.ok(targets.length > 5, 'the README links into docs/');
    const missing = targets.filter((target) => !existsSync(join(repoRoot, target.split('#')[0]!)));
    assert.deepEqual(missing, []);
  });
});

/** VitePress's heading ids (its slugify), which the docs' #anchors must name. */
function slug(heading: string): string {
  return heading
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\u0000-\u001f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/** The ids of a page's headings, outside its code blocks. */
function headingIds(text: string): Set<string> {
  const outsideCode = text.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...outsideCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!.replace(/`/g, ''))));
}

describe('the #anchors of the README and docs/', () => {
  it('name a heading of the page they lead to', async () => {
    const broken: string[] = [];
    for (const page of await documentationPages()) {
      const text = await readFile(join(repoRoot, page), 'utf8');
      for (const [, target = '', anchor = ''] of text
        .replace(/^```[\s\S]*?^```/gm, '')
        .matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const file = target ? normalize(join(dirname(page), target)) : page;
        const ids = headingIds(await readFile(join(repoRoot, file), 'utf8'));
        if (!ids.has(anchor)) broken.push(`${page}: ${target}#${anchor}`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
