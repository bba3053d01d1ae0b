#!/usr/bin/env node
/**
 * `npm start`: the demo. Vite serves demo/ on http://127.0.0.1:5173/ (the next free port when that
 * one is taken; PORT=… to choose) with the session, status, webhook and simulate endpoints mounted
 * on the same server, backed by the offline sandbox gateway, whose webhooks come back to it: the
 * whole payment loop, offline. PAY_BASE_URL + PAY_PUBLIC_KEY + PAY_SECRET_KEY point it at a real
 * gateway instead; REDIS_URL keeps its stores in Redis. Otherwise the ledger is a SQLite file in
 * .pay-widget/ (with the sandbox's payments beside it), so a payment outlives a restart. The wiring
 * is demo/server.ts (TypeScript, loaded through tsx), which the e2e test uses too.
 */
import { register } from 'tsx/esm/api';

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

demo.printUrls();
console.log(`\n  pay-widget demo: open ${demo.url}`);
console.log(`  backed by the ${demo.describe()}\n`);
if (process.stdin.isTTY) demo.bindShortcuts();

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
