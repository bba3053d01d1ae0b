/** Types for ensure-postgres.mjs, so the TypeScript tests and the bench import it checked. */
export type PostgresPrograms = { bin: string; initdb: string; pgCtl: string; postgres: string };
export function findPostgres(): PostgresPrograms | undefined;
export function missingPostgresMessage(): string;
export function ensurePostgres(options?: { log?: (line: string) => void }): PostgresPrograms | undefined;
