// What the PostgreSQL modules share: the shape of a `pg` pool they use (structurally: nothing here
// imports `pg`), the tables' names, the clock, and checking a client out of the pool for a transaction.

type Rows = { rows: Record<string, unknown>[]; rowCount: number | null };

/** What is used of a `pg` client or pool: `query` with positional parameters. */
export type PostgresQueryable = { query(text: string, values?: unknown[]): Promise<Rows> };

/** A client checked out of a `pg` pool: given back with `release` (destroyed when passed an error). */
export type PostgresPoolClientLike = PostgresQueryable & {
  release(destroy?: boolean | Error): void;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: 'error', listener: (error: Error) => void): unknown;
};

/** What is used of a `pg` Pool: `query`, `connect` for a transaction, and its size (`options.max`) when it says. */
export type PostgresPoolLike = PostgresQueryable & {
  connect(): Promise<PostgresPoolClientLike>;
  readonly options?: { max?: number };
};

export type PostgresTableOptions = {
  /** Prepended to every table and index name; default `pay_widget_`. Letters, digits and `_`. */
  tablePrefix?: string;
  /** The schema holding the tables; default none (the connection's `search_path`). migratePostgres creates it. */
  schema?: string;
};

export const DEFAULT_PREFIX = 'pay_widget_';
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// The longest name the DDL derives from the prefix ends in this; PostgreSQL cuts names past 63 bytes.
const LONGEST_SUFFIX = 'idempotency_claims_expiry';

export type PostgresTables = { payments: string; idempotency: string; claims: string; prefix: string; schema?: string };

/** The quoted, schema-qualified table names; throws on a prefix or schema that is not a plain identifier. */
export function tableNames(options: PostgresTableOptions = {}): PostgresTables {
  const prefix = options.tablePrefix ?? DEFAULT_PREFIX;
  if (!IDENTIFIER.test(prefix) || prefix.length + LONGEST_SUFFIX.length > 63) {
    throw new TypeError(`tablePrefix must be letters, digits and _ (at most ${63 - LONGEST_SUFFIX.length} characters)`);
  }
  const { schema } = options;
  if (schema !== undefined && (!IDENTIFIER.test(schema) || schema.length > 63)) {
    throw new TypeError('schema must be letters, digits and _ (at most 63 characters)');
  }
  const qualify = (name: string) => (schema === undefined ? '' : `"${schema}".`) + `"${prefix}${name}"`;
  return {
    payments: qualify('payments'),
    idempotency: qualify('idempotency'),
    claims: qualify('idempotency_claims'),
    prefix,
    schema,
  };
}

/**
 * Milliseconds since the epoch, in SQL: the parameter `$n` when the store was given a clock (tests),
 * else (when it is null) the database's clock, one clock for every instance sharing the database.
 */
export function clockSql(parameter: number): string {
  return `coalesce($${parameter}::double precision, extract(epoch from clock_timestamp()) * 1000)`;
}

const ignore = () => {};

/**
 * Runs `work` on a client of its own inside BEGIN … COMMIT; on a throw, rolls back and rethrows. The
 * client always goes back to the pool, destroyed when its connection broke (the rollback failed),
 * or at once, without a ROLLBACK, when `closeOn` says so of the throw (a ROLLBACK would wait behind
 * a statement still running; closing the connection rolls the transaction back).
 * A checked-out `pg` client that loses its connection emits 'error', which would end the process
 * unheard: it is heard here while checked out.
 */
export async function inTransaction<T>(
  pool: PostgresPoolLike,
  work: (client: PostgresPoolClientLike) => Promise<T>,
  closeOn: (error: unknown) => boolean = () => false,
): Promise<T> {
  const client = await pool.connect();
  client.on?.('error', ignore);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (closeOn(error)) broken = error as Error;
    else {
      await client.query('ROLLBACK').catch((rollbackFailed: Error) => {
        broken = rollbackFailed;
      });
    }
    throw error;
  } finally {
    // A connection being closed may still report its end: it stays heard.
    if (!broken) client.off?.('error', ignore);
    client.release(broken);
  }
}
