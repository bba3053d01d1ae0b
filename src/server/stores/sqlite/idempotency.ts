// Idempotency records and claims on SQLite. A claim is a row that one statement takes only while it
// is absent or expired (SQLite runs a statement under the file's write lock, so two processes
// never both get it); a record past its expiry counts as absent. Every so many writes, one bounded
// batch of expired rows is deleted.
import type { SqliteConnection } from './connection.js';
import { secretRecordKey, type IdempotencyRecord, type IdempotencyStore } from '../idempotency-types.js';

const SWEEP_EVERY = 100;
const SWEEP_BATCH = 500;

export function sqliteIdempotencyStore(db: SqliteConnection, now: () => number): IdempotencyStore {
  const { idempotency, claims } = db.tables;
  // Each claim's owner says whose it is, so a release never deletes another process's claim.
  const owner = crypto.randomUUID();
  const claimsHeld = new Map<string, string>();
  let claimCount = 0;
  let writes = 0;

  async function counted(): Promise<void> {
    if (++writes % SWEEP_EVERY !== 0) return;
    // The next sweep takes what this one could not: an expired row counts as absent meanwhile.
    await db
      .write(() => {
        for (const table of [idempotency, claims]) {
          db.change(
            `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} WHERE expires_at <= ? LIMIT ${SWEEP_BATCH})`,
            now(),
          );
        }
      })
      .catch(() => {});
  }

  return {
    async keepSecret(name, candidate) {
      const key = secretRecordKey(name);
      // Never expires: the expired-row sweep passes it by.
      await db.run(
        `INSERT INTO ${idempotency} (key, record, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
        key,
        JSON.stringify({ secret: candidate }),
        Number.MAX_VALUE,
      );
      const row = db.get(`SELECT record FROM ${idempotency} WHERE key = ?`, key);
      return (JSON.parse(String(row!.record)) as { secret: string }).secret;
    },
    async claim(key, ttlMs) {
      const value = `${owner}:${++claimCount}`;
      const time = now();
      const taken = await db.run(
        `INSERT INTO ${claims} AS claim (key, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE claim.expires_at <= ?`,
        key,
        value,
        time + ttlMs,
        time,
      );
      await counted();
      if (taken !== 1) return false;
      claimsHeld.set(key, value);
      return true;
    },
    async release(key) {
      const value = claimsHeld.get(key);
      if (value === undefined) return;
      claimsHeld.delete(key);
      await db.run(`DELETE FROM ${claims} WHERE key = ? AND owner = ?`, key, value);
    },
    async get(key) {
      const row = db.get(`SELECT record FROM ${idempotency} WHERE key = ? AND expires_at > ?`, key, now());
      return row === undefined ? undefined : (JSON.parse(String(row.record)) as IdempotencyRecord);
    },
    async set(key, record, ttlMs) {
      await db.run(
        `INSERT INTO ${idempotency} (key, record, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at`,
        key,
        JSON.stringify(record),
        now() + ttlMs,
      );
      await counted();
    },
  };
}
