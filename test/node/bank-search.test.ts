// Finding a bank in the USSD list by the names customers say (issue 18, "Bank search by the names
// people say"): abbreviations, apps, legal names, with or without "Bank" and "PLC".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bankMatches, bankWithoutUssd } from '../../src/element/bank-search.js';
import { DEFAULT_BANKS, type Bank } from '../../src/element/banks.js';

/** Banks a merchant may add to the list under their legal names. */
const MERCHANT_ADDED: Bank[] = [
  { code: '033', name: 'United Bank for Africa PLC' },
  { code: '232', name: 'Sterling Bank PLC' },
  { code: '076', name: 'Polaris Bank Limited' },
];
const banks = [...DEFAULT_BANKS, ...MERCHANT_ADDED];
const found = (query: string) => banks.filter((bank) => bankMatches(bank, query)).map((bank) => bank.code);

describe('bank search', () => {
  const everydayNames: [query: string, code: string][] = [
    ['GTB', '058'],
    ['GTBank', '058'],
    ['Guaranty Trust', '058'],
    ['Guarantee Trust Bank PLC', '058'],
    ['FCMB', '214'],
    ['First City Monument', '214'],
    ['FBN', '011'],
    ['First Bank', '011'],
    ['Firstbank', '011'],
    ['First Bank of Nigeria PLC', '011'],
    ['Stanbic', '221'],
    ['Stanbic IBTC', '221'],
    ['IBTC', '221'],
    ['ALAT', '035'],
    ['Wema', '035'],
    ['VFD', '090110'],
    ['VBank', '090110'],
    ['HighStreet', '090175'],
    ['High Street Microfinance Bank', '090175'],
    ['Zenith', '057'],
    ['Zenith Mobile', '322'],
    ['UBA', '033'],
    ['United Bank for Africa', '033'],
    ['Access', '044'],
    ['Diamond', '063'],
    ['Access Diamond', '063'],
    ['Fidelity', '070'],
    ['Ecobank', '050'],
    ['Eco Bank', '050'],
    ['Sterling', '232'],
    ['Union', '032'],
    ['UBN', '032'],
    ['Unity', '215'],
    ['Keystone', '082'],
    ['Polaris', '076'],
  ];
  for (const [query, code] of everydayNames) {
    it(`finds ${code} by "${query}"`, () => {
      assert.ok(found(query).includes(code), `"${query}" found ${found(query).join(', ') || 'nothing'}`);
    });
  }

  it('finds exactly the bank for an abbreviation', () => {
    assert.deepEqual(found('GTB'), ['058']);
    assert.deepEqual(found('FBN'), ['011']);
    assert.deepEqual(found('UBA'), ['033']);
    assert.deepEqual(found('ALAT'), ['035']);
    assert.deepEqual(found('FCMB'), ['214']);
  });

  it('ignores case, dots, spaces and the words "Bank" and "PLC"', () => {
    for (const query of ['gtb', 'G.T.B.', 'G T B', 'gt bank', 'GT Bank PLC', 'gtbank plc', 'g.t.bank']) {
      assert.deepEqual(found(query), ['058'], query);
    }
    assert.deepEqual(found('zenith bank plc'), found('Zenith'), '"Bank" ignored: Zenith Bank and Zenith Mobile');
    assert.deepEqual(found('Stanbic Bank'), ['221']);
    assert.deepEqual(found('Wema Bank PLC'), ['035']);
  });

  it('keeps a bank listed while its name is half typed, "Bank" included', () => {
    for (const query of ['Stanbic B', 'Stanbic Ba', 'Stanbic Ban', 'Stanbic Bank P', 'Stanbic Bank Pl']) {
      assert.deepEqual(found(query), ['221'], query);
    }
    for (const query of ['Firstb', 'Firstba', 'Firstban']) {
      assert.deepEqual(found(query), ['011'], query);
    }
  });

  it('matches a word inside a name and the CBN code, but not the middle of a word', () => {
    assert.deepEqual(found('trust'), ['058']);
    assert.deepEqual(found('058'), ['058']);
    assert.deepEqual(found('0901').sort(), ['090110', '090175']);
    assert.deepEqual(found('enith'), []);
    assert.deepEqual(found('xyz'), []);
  });

  it('lists every bank for an empty query, or one that is only "Bank"', () => {
    assert.equal(found('').length, banks.length);
    assert.equal(found('  ').length, banks.length);
    assert.equal(found('Bank').length, banks.length);
  });
});

// Issue 36, "Banks the customer knows but USSD does not offer": named, not "No bank matches".
describe('a bank without USSD here', () => {
  const offered = (query: string) => DEFAULT_BANKS.filter((bank) => bankMatches(bank, query)).map((bank) => bank.code);
  const known: [query: string, named: string][] = [
    ['UBA', 'UBA'],
    ['uba', 'UBA'],
    ['United Bank for Africa PLC', 'United Bank for Africa'],
    ['Opay', 'OPay'],
    ['Kuda', 'Kuda'],
    ['Kuda Bank', 'Kuda'],
    ['Moniepoint', 'Moniepoint'],
    ['Palm Pay', 'PalmPay'],
    ['Sterling Bank', 'Sterling'],
    ['Polaris', 'Polaris'],
  ];
  for (const [query, named] of known) {
    it(`is named for "${query}", which finds no bank of the USSD list`, () => {
      assert.deepEqual(offered(query), []);
      assert.equal(bankWithoutUssd(query), named);
    });
  }

  it('is not named for a bank of the list or for what names no bank', () => {
    for (const query of ['xyz', 'Zenith', 'GTB']) assert.equal(bankWithoutUssd(query), undefined, query);
  });
});
