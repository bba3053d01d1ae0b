// The demo's page as a shop ships one: demo/ built for production by Vite into a folder of its own
// (the panel's script and styles, minified), with the widget from the script tag's files in dist/,
// served beside it at /pay-widget/ exactly as a merchant serves them. No dev server, no module graph.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Logger } from 'vite';

export type BuiltPage = {
  /** The built page's folder: index.html and its assets. */
  dir: string;
  close(): Promise<void>;
};

const demoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Builds demo/ into a temporary folder (a few seconds), removed by `close()`. */
export async function buildDemoPage(logger: Logger): Promise<BuiltPage> {
  const dir = await mkdtemp(join(tmpdir(), 'pay-widget-demo-page-'));
  try {
    await build({
      configFile: false,
      root: demoRoot,
      logLevel: 'warn',
      customLogger: logger,
      build: { outDir: dir, emptyOutDir: true, reportCompressedSize: false },
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, close: () => rm(dir, { recursive: true, force: true }) };
}
