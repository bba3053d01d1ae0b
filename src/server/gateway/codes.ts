// The gateway's query codes (docs/architecture.md, "The query") in the ledger's terms.
import type { QueryAnswer } from './types.js';

const PENDING_CODES = new Set(['S20', 'SM_P', 'S0', 'SM_09', 'INP', 'INP2', 'SM_D']);
const FAILED_CODES = new Set(['S12', 'S12-15', 'X23', 'SM_X23']);
const REPORTED_PENDING: Record<string, QueryAnswer['report']> = {
  S404: 'no-data',
  S7: 'generic-error',
  SM_10: 'partial-amount',
};

/**
 * §2's table: `00` is paid; the pending and in-progress codes wait; `S12`, its `SM_…` details and the
 * expiry codes failed. `SM_10` (approved for part of the amount) is never paid. Anything else waits
 * and is reported, as the gateway's docs say to treat an unrecognised code as unpaid.
 */
export function paymentStateOf(code: string): Pick<QueryAnswer, 'state' | 'report'> {
  if (code === '00') return { state: 'SUCCESS' };
  if (PENDING_CODES.has(code)) return { state: 'PENDING' };
  const report = REPORTED_PENDING[code];
  if (report) return { state: 'PENDING', report };
  if (FAILED_CODES.has(code) || code.startsWith('SM_')) return { state: 'FAILED' };
  return { state: 'PENDING', report: 'unknown-code' };
}
