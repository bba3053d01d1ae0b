// Idempotency records and claims on PostgreSQL. A claim is a row that an insert takes only while it
// is absent or expired; a record past its expiry counts as absent. Every so many writes, one
// bounded batch of expired rows is deleted.
import { clockSql, type PostgresQueryable, type PostgresTables } from './sql.js';
import { secretRecordKey, type IdempotencyRecord, type IdempotencyStore } from '../idempotency-types.js';

const SWEEP_EVERY = 100;
const SWEEP_BATCH = 500;

export function postgresIdempotencyStore(
  db: PostgresQueryable,
  tables: PostgresTables,
  clock: () => number | null,
): IdempotencyStore {
  // Each claim's owner says whose it is, so a release never deletes another instance's claim.
  const owner = crypto.randomUUID();
  const claimsHeld = new Map<string, string>();
  let claimCount = 0;
  let writes = 0;

  async function sweepExpired(): Promise<void> {
    for (const table of [tables.idempotency, tables.claims]) {
      await db.query(
        `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table}
          WHERE expires_at <= ${clockSql(1)} LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)`,
        [clock()],
      );
    }
  }

  async function counted(): Promise<void> {
    if (++writes % SWEEP_EVERY === 0) await sweepExpired().catch(() => {});
  }

  return {
    async keepSecret(name, candidate) {
      const key = secretRecordKey(name);
      // Never expires: the expired-row sweep passes it by.
      await db.query(
        `INSERT INTO ${tables.idempotency} (key, record, expires_at) VALUES ($1, $2::jsonb, 'Infinity'::double precision)
         ON CONFLICT (key) DO NOTHING`,
        [key, JSON.stringify({ secret: candidate })],
      );
      const { rows } = await db.query(`SELECT record FROM ${tables.idempotency} WHERE key = $1`, [key]);
      const record = rows[0]?.record;
      return (typeof record === 'string' ? JSON.parse(record) : record).secret as string;
    },
    async claim(key, ttlMs) {
      const value = `${owner}:${++claimCount}`;
      const { rows } = await db.query(
        `INSERT INTO ${tables.claims} AS claim (key, owner, expires_at) VALUES ($1, $2, ${clockSql(4)} + $3::double precision)
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE claim.expires_at <= ${clockSql(4)} RETURNING 1`,
        [key, value, ttlMs, clock()],
      );
      await counted();
      if (rows.length === 0) return false;
      claimsHeld.set(key, value);
      return true;
    },
    async release(key) {
      const value = claimsHeld.get(key);
      if (value === undefined) return;
      claimsHeld.delete(key);
      await db.query(`DELETE FROM ${tables.claims} WHERE key = $1 AND owner = $2`, [key, value]);
    },
    async get(key) {
      const { rows } = await db.query(
        `SELECT record FROM ${tables.idempotency} WHERE key = $1 AND expires_at > ${clockSql(2)}`,
        [key, clock()],
      );
      const record = rows[0]?.record;
      if (record === undefined) return undefined;
      return (typeof record === 'string' ? JSON.parse(record) : record) as IdempotencyRecord;
    },
    async set(key, record, ttlMs) {
      await db.query(
        `INSERT INTO ${tables.idempotency} (key, record, expires_at) VALUES ($1, $2::jsonb, ${clockSql(4)} + $3::double precision)
         ON CONFLICT (key) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at`,
        [key, JSON.stringify(record), ttlMs, clock()],
      );
      await counted();
    },
  };
}
