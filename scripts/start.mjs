#!/usr/bin/env node
/**
 * `npm start`: the demo, as a shop ships one. The script tag's files are built first when they are missing or older
 * than src/ (dist/, about 15 s), then demo/ is served, built for production, on http://127.0.0.1:5173/ (the next free
 * port when that one is taken; PORT=… to choose) with the widget's files at /pay-widget/ and the session, status,
 * webhook and simulate endpoints on the same server, backed by the offline sandbox gateway, whose webhooks come back to
 * it: the whole payment loop, offline. PAY_BASE_URL + PAY_PUBLIC_KEY + PAY_SECRET_KEY point it at a real gateway
 * instead; REDIS_URL keeps its stores in Redis. Otherwise the ledger is a SQLite file in .pay-widget/ (with the
 * sandbox's payments beside it), so a payment outlives a restart. The wiring is demo/server.ts (TypeScript, loaded
 * through tsx), which the e2e test uses too.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time of the files under `folder`, 0 when there are none. */
function newest(folder) {
  let time = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return time;
}

/** The script tag's first file's time, 0 when it was never built. */
function built() {
  try {
    return statSync(join(root, 'dist', 'pay-widget.iife.js')).mtimeMs;
  } catch {
    return 0;
  }
}

if (built() < newest(join(root, 'src'))) {
  console.log('pay-widget demo: building the script tag (dist/pay-widget.iife.js and the files beside it)…');
  const { build } = await import('vite');
  await build({ configFile: join(root, 'vite.config.ts'), mode: 'script-tag', logLevel: 'warn' });
}

register();
const { startDemo, DEMO_DATA_FOLDER } = await import('../demo/server.ts');

const requested = process.env.PORT?.trim();
const port = requested ? Number(requested) : 5173;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT=${requested} is not a port number (0 to 65535).`);
  process.exit(1);
}

let demo;
try {
  demo = await startDemo({ port, dataFolder: DEMO_DATA_FOLDER });
} catch (error) {
  console.error(`pay-widget demo: could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

console.log(`\n  pay-widget demo: open ${demo.url}`);
console.log(`  the page and the script tag as a shop serves them, backed by the ${demo.describe()}\n`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (closing) process.exit(1);
    closing = true;
    demo.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
