// The SQLite ledger's tables: the DDL createSqliteStores runs on first use (written to
// sqlite.sql by the build, shipped for merchants who run their own migrations), and the tables' names.

/** The DDL, for the default prefix; shipped as sqlite.sql. */
export const SQLITE_SCHEMA_SQL = `-- pay-widget's SQLite ledger (pay-widget/server/sqlite): the tables createSqliteStores creates on
-- first use, for merchants who run their own migrations. Safe to run again. Times are milliseconds
-- since the epoch. With a tablePrefix other than the default, replace pay_widget_ throughout.
-- The connection settings are not stored in the file but set by createSqliteStores on its connection:
-- PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;

-- One row per payment. payment holds the entry as JSON, less the columns beside it: version
-- (the compare-and-set), due_at (when work is next owed; the reconciler's index), the
-- Idempotency-Key that started it, and expires_at, set only once nothing is owed on it.
CREATE TABLE IF NOT EXISTS pay_widget_payments (
  reference TEXT PRIMARY KEY,
  idempotency_key TEXT UNIQUE,
  version INTEGER NOT NULL,
  state TEXT NOT NULL,
  due_at REAL,
  expires_at REAL,
  payment TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pay_widget_payments_due ON pay_widget_payments (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS pay_widget_payments_expiry ON pay_widget_payments (expires_at) WHERE expires_at IS NOT NULL;

-- Each payment's history (pay-widget ledger show), oldest first: at most 100 rows a payment,
-- deleted with it.
CREATE TABLE IF NOT EXISTS pay_widget_payment_history (
  id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL,
  at REAL NOT NULL,
  event TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pay_widget_payment_history_reference ON pay_widget_payment_history (reference, id);
-- The ledger's list (pay-widget ledger list), newest first.
CREATE INDEX IF NOT EXISTS pay_widget_payments_created ON pay_widget_payments (json_extract(payment, '$.createdAt'));
CREATE TRIGGER IF NOT EXISTS pay_widget_payment_history_forget AFTER DELETE ON pay_widget_payments
BEGIN DELETE FROM pay_widget_payment_history WHERE reference = old.reference; END;

-- The answers kept per Idempotency-Key; a row past expires_at counts as absent.
CREATE TABLE IF NOT EXISTS pay_widget_idempotency (
  key TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS pay_widget_idempotency_expiry ON pay_widget_idempotency (expires_at);

-- One attempt's claim on an Idempotency-Key, until it is released or expires_at passes.
CREATE TABLE IF NOT EXISTS pay_widget_idempotency_claims (
  key TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS pay_widget_idempotency_claims_expiry ON pay_widget_idempotency_claims (expires_at);
`;

export const DEFAULT_PREFIX = 'pay_widget_';
const PREFIX = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export type SqliteTables = { payments: string; idempotency: string; claims: string; prefix: string };

/** The quoted table names for `prefix`; throws on a prefix that is not a plain identifier. */
export function sqliteTables(prefix = DEFAULT_PREFIX): SqliteTables {
  if (!PREFIX.test(prefix))
    throw new TypeError('createSqliteStores: tablePrefix must be letters, digits and _ (at most 63 characters)');
  return {
    payments: `"${prefix}payments"`,
    idempotency: `"${prefix}idempotency"`,
    claims: `"${prefix}idempotency_claims"`,
    prefix,
  };
}

/** The DDL for `prefix`. */
export function schemaSql(prefix: string): string {
  return SQLITE_SCHEMA_SQL.replaceAll(DEFAULT_PREFIX, prefix);
}
