// Amounts compared as exact decimals, wherever the ledger's amount meets another: the gateway's
// verdict (verified.ts) and an order resolved again for a reference the ledger holds (session/ledger.ts).

/** Compares as exact decimals, so `"5000.00"` equals `5000` and `10.15` equals `"10.150"`. */
export function sameAmount(ledger: string, other: number | string | undefined): boolean {
  if (other === undefined) return false;
  const a = canonicalDecimal(ledger);
  return a !== undefined && a === canonicalDecimal(String(other));
}

/** Compares currency codes as the gateway does: case and surrounding spaces aside. */
export function sameCurrency(ledger: string, other: string | undefined): boolean {
  return other !== undefined && other.trim().toUpperCase() === ledger.trim().toUpperCase();
}

function canonicalDecimal(text: string): string | undefined {
  const match = /^\s*0*(\d*?)(?:\.(\d*?)0*)?\s*$/.exec(text);
  if (!match || !/\d/.test(text)) return undefined;
  const whole = match[1] || '0';
  const fraction = match[2] ?? '';
  return fraction ? `${whole}.${fraction}` : whole;
}
