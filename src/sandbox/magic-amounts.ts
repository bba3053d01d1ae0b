/**
 * Amounts that make the sandbox misbehave on purpose, so merchants can rehearse their error
 * handling. Compared as numbers: `"402"`, `"402.00"` and `"0402"` are all 402. Every other amount
 * gets a normal answer. Mnemonic: the amount is the HTTP status the failure is about.
 *
 * The table of what each one does, sandbox side and session-handler side, is in `./index.ts`.
 */
export const MAGIC_AMOUNTS = {
  402: 'declined: HTTP 402 with a FAILED envelope, message "Insufficient funds"',
  422: 'HTTP 200 SUCCESS envelope whose data.payments lacks the fields of the payment type',
  500: 'HTTP 500 with a JSON error body',
  502: 'HTTP 200 with a truncated, unreadable JSON body',
  503: 'HTTP 503 with an empty body',
  504: 'the payment is created but the answer comes after slowMs (default 35000 ms)',
} as const;

export type MagicAmount = keyof typeof MAGIC_AMOUNTS;

export function magicAmountOf(amount: string): MagicAmount | undefined {
  const value = Number(amount);
  return Object.hasOwn(MAGIC_AMOUNTS, value) ? (value as MagicAmount) : undefined;
}
