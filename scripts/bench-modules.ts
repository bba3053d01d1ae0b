/**
 * What each source module costs when the script loads: each one built alone the way the script tag
 * is (vite.config.ts, script-tag mode), inlined in a page, and timed in a fresh browser context from a
 * mark before the script to a mark after it, on the main thread's CPU clock (compile + top-level
 * run; nothing is rendered). An empty script and Lit alone are measured for scale.
 *
 *   node --import tsx scripts/bench-modules.ts [--loads 12]
 *
 * A module's figure includes what it imports (client.ts includes rules.ts and envelope.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Rolldown } from 'vite';
import { inFreshContext, launchChromium, withCpuClock } from '../bench/lib/browser.js';
import { cacheDir, root } from '../bench/lib/paths.js';
import { spread } from '../bench/lib/stats.js';

const { values: args } = parseArgs({ options: { loads: { type: 'string', default: '12' } } });
const LOADS = Math.max(1, Number(args.loads));

/** Name → what the entry imports (keeping the module's exports alive on window). */
const MODULES: Record<string, string | undefined> = {
  '(empty script)': undefined,
  lit: 'lit',
  'src/element/banks.ts': '../../../src/element/banks.js',
  'src/element/events.ts': '../../../src/element/events.js',
  'src/contract/rules.ts': '../../../src/contract/rules.js',
  'src/contract/envelope.ts': '../../../src/contract/envelope.js',
  'src/element/client.ts': '../../../src/element/client.js',
  'src/element/messages/index.ts': '../../../src/element/messages/index.js',
  'src/element/pay-widget.styles.ts': '../../../src/element/pay-widget.styles.js',
  'src/element/payment-controller.ts': '../../../src/element/payment-controller.js',
  'src/element/pay-widget.ts': '../../../src/element/pay-widget.js',
};

const entries = join(cacheDir, 'modules');
rmSync(entries, { recursive: true, force: true });
mkdirSync(entries, { recursive: true });

async function scriptFor(name: string, specifier: string | undefined): Promise<string> {
  const entry = join(entries, `${name.replace(/\W+/g, '_')}.ts`);
  writeFileSync(
    entry,
    specifier
      ? `import * as module from '${specifier}';\n(window as unknown as { module: unknown }).module = module;\n`
      : 'export {};\n',
  );
  const result = await build({
    configFile: join(root, 'vite.config.ts'),
    mode: 'script-tag',
    logLevel: 'silent',
    build: {
      write: false,
      sourcemap: false,
      lib: { entry, formats: ['iife'], name: 'Module', fileName: () => 'module.js' },
      rolldownOptions: { output: { postBanner: '' } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((output) => output.output).find((item) => item.type === 'chunk');
  return chunk?.type === 'chunk' ? chunk.code : '';
}

const scripts = new Map<string, string>();
for (const [name, specifier] of Object.entries(MODULES)) scripts.set(name, await scriptFor(name, specifier));
const names = [...scripts.keys()];

const server = createServer((request, response) => {
  const code = scripts.get(names[Number((request.url ?? '/').slice(1))] ?? '') ?? '';
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(
    `<!doctype html><body><script>performance.mark('bench:before')</script><script>${code}\n;performance.mark('bench:after')</script>`,
  );
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const browser = await launchChromium();
const samples = new Map<string, number[]>(names.map((name) => [name, []]));
try {
  for (let round = 0; round < LOADS; round += 1) {
    process.stderr.write(`bench-modules: round ${round + 1}/${LOADS}\n`);
    for (let i = 0; i < names.length; i += 1) {
      const index = (i + round) % names.length;
      const cpu = await inFreshContext(browser, async (page) => {
        const { cpu } = await withCpuClock(page, () => page.goto(`${origin}/${index}`, { waitUntil: 'load' }));
        return cpu('bench:before', 'bench:after');
      });
      if (cpu !== undefined) samples.get(names[index]!)!.push(cpu);
    }
  }
} finally {
  await browser.close();
  server.close();
}

const empty = spread(samples.get('(empty script)')!).median;
console.log(
  `\nCompile + top-level run, main-thread CPU, median (IQR) of ${LOADS} loads; "over empty" subtracts the empty script\n`,
);
console.log(`${'module (with what it imports)'.padEnd(32)} ${'bytes'.padStart(7)}  ${'CPU ms'.padEnd(20)} over empty`);
for (const name of names) {
  const s = spread(samples.get(name)!);
  const range = `${s.median.toFixed(2)} (${s.q1.toFixed(2)}–${s.q3.toFixed(2)})`;
  console.log(
    `${name.padEnd(32)} ${String(scripts.get(name)!.length).padStart(7)}  ${range.padEnd(20)} ${(s.median - empty).toFixed(2)}`,
  );
}
