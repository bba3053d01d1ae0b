/**
 * Issue 36, the USSD bank list: the bank the customer sees is the bank they pay (a search that no
 * longer lists the chosen bank takes it back, and Pay asks for a bank instead of using it), and a
 * bank customers know that has no USSD here is named as such, in the widget's language, with a
 * transfer offered in its place.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { LOCALES } from '../strings.js';
import { format } from '../../src/element/messages/index.js';
import {
  bankSearch,
  button,
  chooseBank,
  chooseType,
  clickSubmit,
  control,
  CUSTOMER,
  fieldError,
  fillCustomer,
  focused,
  json,
  radio,
  restoreAll,
  root,
  route,
  SESSION_URL,
  stubFetch,
  text,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

/** The options of the bank list, without the "Choose your bank" placeholder. */
const bankOptions = (el: PayWidget) =>
  [...control<HTMLSelectElement>(el, 'bankCode').options].filter((option) => option.value).map((option) => option.text);
const chosenBank = (el: PayWidget) => control<HTMLSelectElement>(el, 'bankCode').value;

async function searchFor(el: PayWidget, query: string): Promise<void> {
  const search = bankSearch(el)!;
  search.value = query;
  search.dispatchEvent(new InputEvent('input', { bubbles: true }));
  await el.updateComplete;
}

/** A USSD form in `locale`, the customer's details typed, the session endpoint stubbed. */
async function ussdForm(locale = 'en') {
  const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
  const el = await widget({ 'session-url': SESSION_URL, locale });
  await waitUntil(
    () => root(el).querySelector('[lang]')?.getAttribute('lang') === locale,
    `the ${locale} strings arrive`,
  );
  await chooseType(el, 'USSD');
  await fillCustomer(el);
  return { el, sessions: () => calls.filter((call) => call.url.pathname === SESSION_URL) };
}

describe('<pay-widget> the bank the customer chooses (issue 36)', () => {
  before(async function () {
    this.timeout(30_000);
    // @ts-expect-error axe-core's browser build has no module types; it registers window.axe.
    await import('axe-core/axe.min.js');
  });
  afterEach(restoreAll);

  it('"Fidelity", then "UBA", then Pay: Fidelity is taken back, and no USSD payment starts for it', async () => {
    const { el, sessions } = await ussdForm();
    await searchFor(el, 'Fidelity');
    expect(chosenBank(el), 'one bank found: chosen').to.equal('070');

    await searchFor(el, 'UBA');
    expect(bankOptions(el), 'no bank listed').to.deep.equal([]);
    expect(chosenBank(el), 'none chosen').to.equal('');
    expect(text(el)).not.to.contain('Fidelity');

    clickSubmit(el);
    await el.updateComplete;
    expect(sessions(), 'no payment request').to.deep.equal([]);
    expect(fieldError(el, 'bankCode')).to.equal(LOCALES.en!.bankCodeRequired);
    expect(focused(el), 'the customer is taken to the bank list').to.equal(control(el, 'bankCode'));
    await expect(el).to.be.accessible();
  });

  it('takes back a bank chosen from the list once a search no longer lists it, and keeps one it still lists', async () => {
    const { el, sessions } = await ussdForm();
    await chooseBank(el, '057');
    await searchFor(el, 'zen');
    expect(bankOptions(el)).to.deep.equal(['Zenith Bank', 'Zenith Mobile']);
    expect(chosenBank(el), 'Zenith Bank is still listed').to.equal('057');

    await searchFor(el, 'gt');
    expect(bankOptions(el)).to.deep.equal(['GTBank']);
    expect(chosenBank(el), 'the one bank listed').to.equal('058');

    await searchFor(el, 'acc');
    expect(bankOptions(el)).to.deep.equal(['Access Bank', 'Access Bank (Diamond)']);
    expect(chosenBank(el), 'GTBank is hidden: taken back').to.equal('');
    clickSubmit(el);
    await el.updateComplete;
    expect(sessions()).to.deep.equal([]);

    await chooseBank(el, '063');
    clickSubmit(el);
    await waitUntil(() => sessions().length === 1, 'the payment starts');
    expect(JSON.parse(sessions()[0]!.body!).bankCode, 'the bank shown chosen').to.equal('063');
  });

  for (const [locale, m] of Object.entries(LOCALES)) {
    it(`in ${locale}: says UBA can't be paid by USSD here, not "no bank matches", and offers a transfer keeping what was typed`, async () => {
      const { el } = await ussdForm(locale);
      await searchFor(el, 'UBA');
      expect(text(el)).to.contain(format(m.bankWithoutUssd, { bank: 'UBA' }));
      expect(text(el)).not.to.contain(format(m.noBankMatches, { query: 'UBA' }));
      if (locale === 'en') await expect(el).to.be.accessible();

      button(el, m.payByTransfer)!.click();
      await el.updateComplete;
      expect(radio(el, 'TRANSFER').checked).to.equal(true);
      expect(root(el).querySelector('[name="bankCode"]'), 'no bank to choose').to.equal(null);
      for (const field of ['fullName', 'email', 'mobileNumber'] as const)
        expect(control(el, field).value).to.equal(CUSTOMER[field]);
    });
  }

  it('names each bank customers know that has no USSD here, by the names they use', async () => {
    const { el } = await ussdForm();
    const named: [query: string, bank: string][] = [
      ['UBA', 'UBA'],
      ['United Bank for Africa', 'United Bank for Africa'],
      ['Opay', 'OPay'],
      ['Kuda', 'Kuda'],
      ['Moniepoint', 'Moniepoint'],
      ['PalmPay', 'PalmPay'],
      ['Sterling Bank', 'Sterling'],
      ['Polaris', 'Polaris'],
    ];
    for (const [query, bank] of named) {
      await searchFor(el, query);
      expect(text(el), query).to.contain(`${bank} can’t be paid by USSD here`);
      expect(button(el, 'Pay by bank transfer instead'), query).to.exist;
    }
    await searchFor(el, 'xyz');
    expect(text(el), 'a name no one knows').to.contain('No bank matches “xyz”');
  });
});
