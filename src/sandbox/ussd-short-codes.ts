// The banks' USSD short codes, and the sandbox's dial codes, which never use them: a customer who
// dials a sandbox code must reach no bank.

/**
 * CBN bank code → the bank's real USSD short code (`*737#` is GTBank's, and so on), for reference.
 * HighStreet MFB (090175) publishes none we could confirm, so it has no entry.
 */
export const USSD_SHORT_CODES: Readonly<Record<string, string>> = {
  '044': '901',
  '063': '426',
  '090110': '5037',
  '322': '966',
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

/**
 * The sandbox's service code. Nigerian short codes never start with 0 (0 is the national trunk
 * prefix; the banks' codes are *3xx#, *5xx#, *7xx#, *8xx#, *9xx#), and 000 is none of the MMI
 * supplementary-service codes of 3GPP TS 22.030 Annex B (002 and 004 are call forwarding), so a
 * phone sends `*000*…#` to the network as plain USSD that no bank's application answers.
 */
const SANDBOX_SERVICE_CODE = '000';

/** `*000*058*4821#`: the sandbox's service code, the bank's code, then the payment's number; the gateway's `*`, `#` and digit groups. */
export function ussdDialCode(bankCode: string, paymentNumber: string): string {
  return `*${SANDBOX_SERVICE_CODE}*${bankCode}*${paymentNumber}#`;
}
