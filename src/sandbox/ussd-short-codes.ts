/** CBN bank code → the bank's USSD short code (`*737#` is GTBank's, and so on). */
export const USSD_SHORT_CODES: Readonly<Record<string, string>> = {
  '044': '901',
  '050': '326',
  '070': '770',
  '011': '894',
  '214': '329',
  '058': '737',
  '301': '773',
  '082': '7111',
  '076': '833',
  '221': '909',
  '232': '822',
  '032': '826',
  '033': '919',
  '215': '7799',
  '035': '945',
  '057': '966',
};

/** `*737*000*4821#`: the bank's short code (or, for a bank it does not know, its code), then the payment's number. */
export function ussdDialCode(bankCode: string, paymentNumber: string): string {
  return `*${USSD_SHORT_CODES[bankCode] ?? bankCode}*000*${paymentNumber}#`;
}
