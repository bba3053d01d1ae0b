// What the Redis ledger adds for a person (`pay-widget ledger`): each entry's history as a capped
// list beside its hash (its time to live copied from the entry's at every append, so it goes with
// it), and the list and search over the entries (a SCAN: fine for a person's look, not for a hot path).
import { HISTORY_LIMIT, type HistoryEvent } from '../../ledger/history.js';
import { selectEntries, type LedgerQuery } from '../../ledger/queries.js';
import type { Payment } from '../types.js';

type Send = (args: string[]) => Promise<unknown>;

// KEYS: the entry's hash, its history. ARGV: the event's JSON, the limit. Nothing for an unknown entry.
const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) else redis.call('PERSIST', KEYS[2]) end
return 1`;

export function redisLedgerViews(send: Send, prefix: string, fromFields: (fields: unknown[]) => Payment | undefined) {
  const paymentKey = (reference: string) => `${prefix}payment:${reference}`;
  const historyKey = (reference: string) => `${prefix}payment-history:${reference}`;
  return {
    async appendHistory(paymentReference: string, event: HistoryEvent): Promise<void> {
      await send([
        'EVAL',
        APPEND,
        '2',
        paymentKey(paymentReference),
        historyKey(paymentReference),
        JSON.stringify(event),
        String(HISTORY_LIMIT),
      ]);
    },
    async history(paymentReference: string): Promise<HistoryEvent[]> {
      const [exists, items] = await Promise.all([
        send(['EXISTS', paymentKey(paymentReference)]),
        send(['LRANGE', historyKey(paymentReference), '0', '-1']),
      ]);
      if (Number(exists) !== 1) return [];
      return (items as string[]).map((item) => JSON.parse(item) as HistoryEvent);
    },
    async list(query: LedgerQuery): Promise<Payment[]> {
      const entries: Payment[] = [];
      let cursor = '0';
      do {
        const [next, keys] = (await send([
          'SCAN',
          cursor,
          'MATCH',
          `${paymentKey('*')}`,
          'COUNT',
          '1000',
          'TYPE',
          'hash',
        ])) as [string, string[]];
        cursor = next;
        const rows = await Promise.all(keys.map((key) => send(['HMGET', key, 'json', 'version', 'dueAt', 'key'])));
        for (const row of rows) {
          const payment = fromFields(row as unknown[]);
          if (payment) entries.push(payment);
        }
      } while (cursor !== '0');
      return selectEntries(entries, query);
    },
  };
}
