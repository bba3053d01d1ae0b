-- pay-widget's SQLite ledger (pay-widget/server/sqlite): the tables createSqliteStores creates on
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
