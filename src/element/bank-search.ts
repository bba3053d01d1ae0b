// Finding a bank in the USSD list by whatever the customer calls it: "GTB", "gt bank", "Stanbic",
// "ALAT", "First Bank of Nigeria PLC", or its code; and a bank customers know that has no USSD here.
import { BANK_ALIASES, BANKS_WITHOUT_USSD, type Bank } from './banks.js';

/** Lower case, letters and digits only, without "PLC": "G.T. Bank PLC" → "gtbank". */
const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]|plc/g, '');
const withoutBank = (squashed: string) => squashed.replaceAll('bank', '');

/**
 * Whether `query` names `bank`: a prefix of its name, code or one of its other names, or of any
 * word in them on, ignoring case, spaces, punctuation and the words "Bank" and "PLC" (also half
 * typed at the end: "Stanbic Ba"). An empty query names every bank.
 */
export function bankMatches(bank: Bank, query: string): boolean {
  const typed = squash(query.trimEnd().replace(/\s(b|ba|ban|p|pl)$/i, ''));
  const bare = withoutBank(typed);
  return [bank.name, bank.code, ...(BANK_ALIASES[bank.code]?.split(',') ?? [])].some((term) => {
    const words = term.split(/[\s()]+/);
    return words.some((_, start) => {
      const rest = squash(words.slice(start).join(''));
      return rest.startsWith(typed) || withoutBank(rest).startsWith(bare);
    });
  });
}

/**
 * The bank customers know that `query` names among those these USSD payments do not offer (BANKS_WITHOUT_USSD), if any.
 */
export const bankWithoutUssd = (query: string): string | undefined =>
  BANKS_WITHOUT_USSD.split(',').find((name) => bankMatches({ code: '', name }, query));
