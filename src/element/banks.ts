// The USSD bank list: the banks SeerBit's own checkout apps offer, by CBN code (microfinance banks
// have six digits), and the names customers call them by.

export type Bank = { code: string; name: string };

/**
 * The banks SeerBit's iOS and Android checkouts offer for USSD, under the names customers use. The
 * `banks` property replaces this list; to extend it, spread it: `[...DEFAULT_BANKS, { code, name }]`.
 * The USSD short code itself comes back from the gateway in `ussdDailCode`.
 */
export const DEFAULT_BANKS: readonly Bank[] = [
  { code: '044', name: 'Access Bank' },
  { code: '063', name: 'Access Bank (Diamond)' },
  { code: '050', name: 'Ecobank' },
  { code: '214', name: 'FCMB' },
  { code: '070', name: 'Fidelity Bank' },
  { code: '011', name: 'First Bank' },
  { code: '058', name: 'GTBank' },
  { code: '090175', name: 'HighStreet MFB' },
  { code: '082', name: 'Keystone Bank' },
  { code: '221', name: 'Stanbic IBTC' },
  { code: '032', name: 'Union Bank' },
  { code: '215', name: 'Unity Bank' },
  { code: '090110', name: 'VFD MFB' },
  { code: '035', name: 'Wema Bank (ALAT)' },
  { code: '057', name: 'Zenith Bank' },
  { code: '322', name: 'Zenith Mobile' },
];

/**
 * Banks customers know that these USSD payments do not offer (issue 36), comma-separated: never
 * listed, but a search that names one says so, instead of "No bank matches", and offers a transfer.
 */
export const BANKS_WITHOUT_USSD = 'UBA,United Bank for Africa,Sterling,Polaris,OPay,Kuda,Moniepoint,PalmPay';

/**
 * Other names customers search by, comma-separated, by CBN code: legal names, abbreviations, apps.
 * By code rather than on the list, so a bank a merchant adds under its legal name (033, United Bank
 * for Africa) is found by its abbreviation too. Words already in the name need no entry here.
 */
export const BANK_ALIASES: Readonly<Record<string, string>> = {
  '011': 'FBN,First Bank of Nigeria',
  '032': 'UBN,Union Bank of Nigeria',
  '033': 'UBA,United Bank for Africa',
  '058': 'GTB,GTCO,Guaranty Trust,Guarantee Trust',
  '090110': 'VFD Microfinance,VBank',
  '090175': 'HighStreet Microfinance',
  '214': 'First City Monument Bank',
};
