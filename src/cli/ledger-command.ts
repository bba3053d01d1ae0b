// `pay-widget ledger`: the ledger for a person at the shop, over the server's own store. `list`
// (what needs a person, a state, a time window, a search), `show` (an entry and its history),
// `recheck` (the gateway asked now), `retry` (an owed onPaid made due now, for the server to run), `resolve` (a review
// or a stale entry closed with a note), `export --csv`. Exit code 0 when done, 2 for bad input (an unknown reference, a
// malformed date, a database that is not a ledger: one line, nothing written), 1 when the store could not be reached.
import { parseArgs } from 'node:util';
import { resolveEntry, retryFulfilment, type ActionResult } from '../server/ledger/actions.js';
import { historyOf } from '../server/ledger/history.js';
import type { LedgerQuery } from '../server/ledger/queries.js';
import type { PaymentState } from '../server/stores/types.js';
import type { Io } from './check-command.js';
import { csvDocument } from '../server/ledger/csv.js';
import { parseLedgerDate, parseLedgerUntil } from '../server/ledger/dates.js';
import { entryLines, listRow, printable, table } from './ledger-output.js';
import { recheck, type GatewaySettings } from './ledger-recheck.js';
import { LedgerUsageError, openLedger, type OpenLedger } from './ledger-stores.js';

export const LEDGER_USAGE = `Usage: pay-widget ledger <command> (--sqlite FILE | --postgres URL | --redis URL) [options]

  list                    the newest payments as a table (reference, created, amount, type, state,
                          fulfilled, what needs a person)
    --needs-attention     only those a person must look at (a review, stale, onPaid failing)
    --state STATE         PENDING, SUCCESS or FAILED
    --since DATE          created at or after DATE (2026-11-28, or 2026-11-28T09:30Z)
    --until DATE          created before DATE (a bare date: up to the end of that day, UTC)
    --search TEXT         part of a reference, phone number, e-mail address or name
    --limit N             at most N rows (default 200)
    --json                the rows as JSON
  show REF [--json]       the payment and its history
  recheck REF             asks the gateway about it now (PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY
                          or PAY_ACCESS_TOKEN: the server's settings) and settles it as a webhook would
  retry REF               makes an owed onPaid due now: the server's next sweep runs it
  resolve REF --note TEXT closes a review or a stale payment (refunded, accepted, contacted…)
  export --csv            every payment as CSV on stdout, one row each (--since, --until)

Exit code 0 when done, 2 for bad input (nothing written), 1 when the store could not be reached.`;

const STATES: readonly PaymentState[] = ['PENDING', 'SUCCESS', 'FAILED'];

type Values = ReturnType<typeof readArgs>['values'];

function readArgs(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      sqlite: { type: 'string' },
      postgres: { type: 'string' },
      redis: { type: 'string' },
      'needs-attention': { type: 'boolean', default: false },
      state: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      search: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      csv: { type: 'boolean', default: false },
      note: { type: 'string' },
    },
  });
}

/** Runs `pay-widget ledger` with `args` (after `ledger`); resolves to the exit code. */
export async function ledgerCommand(
  args: readonly string[],
  io: Io,
  now: () => number = Date.now,
  gateway: GatewaySettings = { env: process.env },
): Promise<number> {
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
    (args.length === 0 ? io.err : io.out)(LEDGER_USAGE);
    return args.length === 0 ? 2 : 0;
  }
  let ledger: OpenLedger | undefined;
  try {
    const { values, positionals } = readArgs(args);
    const [command, reference, ...extra] = positionals;
    const run = commands[command ?? ''];
    if (!run)
      throw new LedgerUsageError(
        `unknown command ${JSON.stringify(command ?? '')}: list, show, recheck, retry, resolve or export`,
      );
    if (extra.length > 0) throw new LedgerUsageError(`unexpected ${JSON.stringify(extra[0])}`);
    const query = readQuery(values);
    ledger = await openLedger({ sqlite: values.sqlite, postgres: values.postgres, redis: values.redis });
    return await run({ ledger, values, query, reference, io, now: now(), clock: now, gateway });
  } catch (error) {
    const usage = error instanceof LedgerUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.err(`pay-widget ledger: ${printable(error instanceof Error ? error.message.split('\n')[0]! : String(error))}`);
    return usage ? 2 : 1;
  } finally {
    await ledger?.close().catch(() => {});
  }
}

type Run = {
  ledger: OpenLedger;
  values: Values;
  query: LedgerQuery;
  reference: string | undefined;
  io: Io;
  now: number;
  clock: () => number;
  gateway: GatewaySettings;
};

const commands: Record<string, (run: Run) => Promise<number>> = {
  async list({ ledger, values, query, io }) {
    const entries = await listOf(ledger, query);
    if (values.json) io.out(JSON.stringify(entries.map(listRow), null, 2));
    else if (entries.length === 0) io.out('No payments match.');
    else table(entries).forEach((line) => io.out(line));
    return 0;
  },
  async show({ ledger, values, reference, io }) {
    const payment = await ledger.payments.get(required(reference));
    if (!payment) throw unknownReference(reference!);
    const history = await historyOf(ledger.payments, payment);
    if (values.json) io.out(JSON.stringify({ payment, history }, null, 2));
    else entryLines(payment, history).forEach((line) => io.out(line));
    return 0;
  },
  async recheck({ ledger, reference, io, clock, gateway }) {
    io.out(await recheck(ledger.payments, required(reference), gateway, clock));
    return 0;
  },
  async retry({ ledger, reference, io, now }) {
    const result = await retryFulfilment(ledger.payments, required(reference), now);
    return done(result, reference!, io, `onPaid for ${reference} is due now: the server's next sweep runs it.`);
  },
  async resolve({ ledger, values, reference, io, now }) {
    const note = values.note?.trim();
    if (!note) throw new LedgerUsageError('resolve needs --note "what was done" (refunded, accepted, contacted…)');
    const result = await resolveEntry(ledger.payments, required(reference), note, now);
    return done(result, reference!, io, `${reference} resolved: it no longer needs a person.`);
  },
  async export({ ledger, values, query, io }) {
    if (!values.csv) throw new LedgerUsageError('export needs --csv');
    const entries = await listOf(ledger, { ...query, limit: Number.MAX_SAFE_INTEGER });
    io.out(csvDocument(entries));
    return 0;
  },
};

async function listOf(ledger: OpenLedger, query: LedgerQuery) {
  if (!ledger.payments.list) throw new LedgerUsageError('this store cannot list its payments');
  return ledger.payments.list(query);
}

function done(result: ActionResult, reference: string, io: Io, message: string): number {
  if (result.kind === 'unknown') throw unknownReference(reference);
  if (result.kind === 'refused') throw new LedgerUsageError(result.reason);
  io.out(message);
  return 0;
}

function required(reference: string | undefined): string {
  if (!reference) throw new LedgerUsageError('name the payment: its reference after the command');
  return reference;
}

function unknownReference(reference: string): LedgerUsageError {
  return new LedgerUsageError(`no payment with reference ${JSON.stringify(reference)} in this ledger`);
}

function readQuery(values: Values): LedgerQuery {
  const query: LedgerQuery = {};
  if (values['needs-attention']) query.needsAttention = true;
  if (values.state !== undefined) {
    const state = values.state.toUpperCase() as PaymentState;
    if (!STATES.includes(state))
      throw new LedgerUsageError(`--state must be PENDING, SUCCESS or FAILED (got ${JSON.stringify(values.state)})`);
    query.state = state;
  }
  if (values.since !== undefined) query.since = date('--since', values.since, parseLedgerDate);
  if (values.until !== undefined) query.until = date('--until', values.until, parseLedgerUntil);
  if (values.search !== undefined) query.search = values.search;
  if (values.limit !== undefined) {
    if (!/^\d{1,7}$/.test(values.limit))
      throw new LedgerUsageError(`--limit must be a whole number (got ${JSON.stringify(values.limit)})`);
    query.limit = Number(values.limit);
  }
  return query;
}

function date(name: string, text: string, parse: (text: string) => number | undefined): number {
  const time = parse(text);
  if (time === undefined)
    throw new LedgerUsageError(
      `${name} must be a date like 2026-11-28 or 2026-11-28T09:30Z (got ${JSON.stringify(text)})`,
    );
  return time;
}
