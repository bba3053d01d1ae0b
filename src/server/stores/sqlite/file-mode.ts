// Who may read the ledger's file: it holds customers' names, e-mails, phones and live status tokens.
// A folder made here is 0700 and a file made here 0600, whatever the umask; SQLite gives the -wal and
// -shm files the mode of the database file. A file or folder that was there already is the
// merchant's: it is left as it is, and one console warning names it when other accounts may read it.
import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { platform } from 'node:os';
import { dirname, resolve } from 'node:path';

/** Group and others' bits. */
const WIDER_THAN_OWNER = 0o077;
/** Files warned of by this process: one warning each, however many connections open them. */
const warned = new Set<string>();

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** Makes `file`'s folder (0700) and the file (0600) when missing; warns when an existing one is wider. */
export function prepareLedgerFile(file: string): void {
  const folder = dirname(file);
  const madeFolder = mkdirSync(folder, { recursive: true, mode: 0o700 }) !== undefined;
  try {
    closeSync(openSync(file, 'wx', 0o600)); // an empty file is a new database to SQLite
    if (madeFolder) return;
  } catch (error) {
    if ((error as { code?: string })?.code !== 'EEXIST') throw error;
  }
  warnIfReadableByOthers(file, folder);
}

function warnIfReadableByOthers(file: string, folder: string): void {
  const key = resolve(file);
  // Windows reports no owner-only modes (its access lists are not in `mode`): nothing to read there.
  if (warned.has(key) || platform() === 'win32') return;
  const wide = [file, `${file}-wal`, `${file}-shm`, folder]
    .filter((path) => existsSync(path))
    .map((path) => ({ path, mode: statSync(path).mode }))
    .filter(({ mode }) => (mode & WIDER_THAN_OWNER) !== 0);
  if (wide.length === 0) return;
  warned.add(key);
  const found = wide.map(({ path, mode }) => `${path} (${octal(mode)})`).join(', ');
  console.warn(
    `pay-widget: other accounts on this machine may read the SQLite ledger, which holds customers' contact details and status tokens: ${found}; chmod 600 the file, its -wal and -shm, and 700 its folder`,
  );
}
