// The PostgreSQL ledger's tables: the DDL that creates them (written to postgres.sql by the build, shipped
// for merchants who run their own migrations) and migratePostgres, which runs it once however many
// instances start at once.
import { DEFAULT_PREFIX, inTransaction, tableNames, type PostgresPoolLike, type PostgresTableOptions } from './sql.js';

/** The DDL, for the default prefix; shipped as postgres.sql. */
export const POSTGRES_SCHEMA_SQL = `-- pay-widget's PostgreSQL ledger (pay-widget/server/postgres): the tables migratePostgres(pool)
-- creates, for merchants who run their own migrations. Safe to run again. Times are milliseconds
-- since the epoch. With a tablePrefix other than the default, replace pay_widget_ throughout.

-- One row per payment. payment holds the entry as JSON, less the columns beside it: version
-- (the compare-and-set), due_at (when work is next owed; the reconciler's index), the
-- Idempotency-Key that started it, and expires_at, set only once nothing is owed on it.
CREATE TABLE IF NOT EXISTS pay_widget_payments (
  reference text PRIMARY KEY,
  idempotency_key text UNIQUE,
  version integer NOT NULL,
  state text NOT NULL,
  due_at double precision,
  expires_at double precision,
  payment jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS pay_widget_payments_due ON pay_widget_payments (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS pay_widget_payments_expiry ON pay_widget_payments (expires_at) WHERE expires_at IS NOT NULL;

-- Each payment's history (pay-widget ledger show), oldest first: at most 100 rows a payment,
-- deleted with it by the trigger below (a foreign key would make each row written wait for the
-- lock onPaid's transaction holds on its payment).
CREATE TABLE IF NOT EXISTS pay_widget_payment_history (
  id bigserial PRIMARY KEY,
  reference text NOT NULL,
  at double precision NOT NULL,
  event jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS pay_widget_payment_history_reference ON pay_widget_payment_history (reference, id);
CREATE OR REPLACE FUNCTION pay_widget_payment_history_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DELETE FROM %I.%I WHERE reference = $1', TG_TABLE_SCHEMA, 'pay_widget_payment_history') USING OLD.reference;
  RETURN NULL;
END $$;
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'pay_widget_payment_history_forget'
                 AND tgrelid = 'pay_widget_payments'::regclass) THEN
    CREATE TRIGGER pay_widget_payment_history_forget AFTER DELETE ON pay_widget_payments
      FOR EACH ROW EXECUTE FUNCTION pay_widget_payment_history_forget();
  END IF;
END $$;
-- The ledger's list (pay-widget ledger list), newest first.
CREATE INDEX IF NOT EXISTS pay_widget_payments_created ON pay_widget_payments (((payment ->> 'createdAt')::double precision));

-- The answers kept per Idempotency-Key; a row past expires_at counts as absent.
CREATE TABLE IF NOT EXISTS pay_widget_idempotency (
  key text PRIMARY KEY,
  record jsonb NOT NULL,
  expires_at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS pay_widget_idempotency_expiry ON pay_widget_idempotency (expires_at);

-- One attempt's claim on an Idempotency-Key, until it is released or expires_at passes.
CREATE TABLE IF NOT EXISTS pay_widget_idempotency_claims (
  key text PRIMARY KEY,
  owner text NOT NULL,
  expires_at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS pay_widget_idempotency_claims_expiry ON pay_widget_idempotency_claims (expires_at);
`;

/**
 * Creates the ledger's tables and indexes when missing (and the schema, when one is named), in one
 * transaction under an advisory lock, so instances starting together do not trip over each other.
 */
export async function migratePostgres(pool: PostgresPoolLike, options: PostgresTableOptions = {}): Promise<void> {
  const tables = tableNames(options);
  await inTransaction(pool, async (client) => {
    // One lock for every prefix and schema: CREATE SCHEMA IF NOT EXISTS races too.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('pay-widget:migrate'))");
    if (tables.schema !== undefined) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${tables.schema}"`);
      await client.query(`SET LOCAL search_path TO "${tables.schema}"`);
    }
    await client.query(POSTGRES_SCHEMA_SQL.replaceAll(DEFAULT_PREFIX, tables.prefix));
  });
}
