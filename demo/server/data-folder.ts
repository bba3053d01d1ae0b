// Where the demo keeps what must outlive a restart of `npm start`: the ledger (a SQLite file, both
// stores), the sandbox's own payments (a JSON file beside it, so a payment started before a restart
// can still be paid after it), and the secret that signs status tokens (so the widget's status
// polls keep working across the restart). One folder, named here, ignored by git.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxPayment, SandboxStorage } from '../../src/sandbox/index.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';

/** `.pay-widget/` in the app's folder (this repository's root), beside package.json. */
export const DEMO_DATA_FOLDER = fileURLToPath(new URL('../../.pay-widget/', import.meta.url));

export type DemoData = {
  stores: ReturnType<typeof createSqliteStores>;
  sandboxStorage: SandboxStorage;
  statusSecret: string;
  /** The ledger's file, for the log. */
  ledgerFile: string;
};

export function openDemoData(folder: string): DemoData {
  // Only this account reads the customers' details and tokens kept here (the ledger warns otherwise).
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const ledgerFile = join(folder, 'demo-ledger.db');
  return {
    stores: createSqliteStores(ledgerFile),
    sandboxStorage: jsonFile(join(folder, 'demo-sandbox.json')),
    statusSecret: keptSecret(join(folder, 'demo-status-secret')),
    ledgerFile,
  };
}

/** The sandbox's payments as one JSON file, replaced whole (written beside it, then renamed over it). */
function jsonFile(path: string): SandboxStorage {
  return {
    load: () => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as SandboxPayment[]) : undefined),
    save(payments) {
      writeFileSync(`${path}.tmp`, JSON.stringify(payments), { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
    },
  };
}

/** A random secret made on the first start and read on the next ones. */
function keptSecret(path: string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}
