// The USSD bank list: the banks SeerBit's checkout apps offer (issue 18, "USSD banks as SeerBit lists them").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_BANKS } from '../../src/element/banks.js';

/** SeerBit's iOS checkout (`UssdBanksModel.swift`) and Android checkout (same list). */
const SEERBIT_USSD_CODES = [
  '044',
  '063',
  '050',
  '070',
  '011',
  '214',
  '058',
  '082',
  '090175',
  '221',
  '032',
  '215',
  '090110',
  '035',
  '057',
  '322',
];

describe('the default USSD bank list', () => {
  it("is exactly SeerBit's, each code once", () => {
    const codes = DEFAULT_BANKS.map((bank) => bank.code);
    assert.deepEqual([...codes].sort(), [...SEERBIT_USSD_CODES].sort());
    assert.equal(new Set(codes).size, codes.length);
  });

  it('names each bank the way customers do, in alphabetical order', () => {
    const names = DEFAULT_BANKS.map((bank) => bank.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b, 'en')),
    );
    assert.equal(DEFAULT_BANKS.find((bank) => bank.code === '058')!.name, 'GTBank');
    assert.equal(DEFAULT_BANKS.find((bank) => bank.code === '214')!.name, 'FCMB');
  });
});
