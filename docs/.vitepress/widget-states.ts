// The states page's widgets: the package's own build (dist/, `npm run build` first), each driven
// into one state by a canned `initiate` answer and, for the final states, a canned status. Nothing
// leaves the page: `initiate` replaces the request to session-url, and the status URLs below are
// answered here, before any network.
import type { PayWidget } from '../../dist/types/index.js';

const USSD = {
  paymentReference: 'ORD-1001',
  linkingReference: 'LNK-77881',
  providerreference: 'PRV-55210',
  ussdDailCode: '*737*000*4412#',
};
const TRANSFER = {
  paymentReference: 'ORD-1002',
  walletName: 'Acme Stores / Ada Obi',
  wallet: 'WAL-300921',
  bankName: 'Providus Bank',
  accountNumber: '9900112233',
};
const ORDER = { amount: '5050.00', currency: 'NGN', fee: '50.00' };

const success = (payments: { paymentReference: string }, order: object = {}) => ({
  status: 'SUCCESS',
  data: { code: '00', message: 'Successful', payments },
  order: { paymentReference: payments.paymentReference, ...ORDER, ...order },
});

/** What each state's `initiate` answers. */
const ANSWERS: Record<string, () => Promise<unknown>> = {
  busy: () => new Promise(() => undefined), // never answers: the form stays busy
  ussd: async () => success(USSD),
  transfer: async () => success(TRANSFER, { expiresAt: new Date(Date.now() + 30 * 60_000).toISOString() }),
  declined: async () => ({ status: 'FAILED', data: { code: 'S12', message: 'The payment was declined by the bank.' } }),
  unreachable: async () => Promise.reject(new TypeError('Failed to fetch')),
  received: async () => success(USSD),
  failed: async () => success(TRANSFER),
};

/** status-url answers, by the URL's path: the widget polls them as it would your status endpoint. */
const STATUS: Record<string, object> = {
  '/canned-status/success': { status: 'SUCCESS', amount: '5050.00', currency: 'NGN' },
  '/canned-status/failed': {
    status: 'FAILED',
    amount: '5050.00',
    currency: 'NGN',
    message: 'The transfer did not arrive.',
  },
};

function answerStatusHere(): void {
  const pageFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const answer = url.origin === location.origin ? STATUS[url.pathname] : undefined;
    if (answer)
      return Promise.resolve(new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } }));
    return pageFetch(input, init);
  };
}

async function fill(el: PayWidget, paymentType: 'USSD' | 'TRANSFER'): Promise<void> {
  Object.assign(el, { paymentType, fullName: 'Ada Obi', email: 'ada@example.com', mobileNumber: '08031234567' });
  await el.updateComplete;
  const bank = el.shadowRoot?.querySelector<HTMLSelectElement>('[name="bankCode"]');
  if (bank) {
    bank.value = '058';
    bank.dispatchEvent(new Event('change', { bubbles: true }));
    await el.updateComplete;
  }
}

/** Puts every `<pay-widget data-state>` on the page into its state; the page does not scroll. */
export async function showStates(): Promise<void> {
  await import('../../dist/define.js');
  answerStatusHere();
  const { scrollX, scrollY } = window;
  for (const el of document.querySelectorAll<PayWidget>('pay-widget[data-state]')) {
    const state = el.dataset.state!;
    await el.updateComplete;
    if (state === 'form') continue;
    if (state === 'invalid') {
      el.submit(); // empty fields: each says what it needs
      continue;
    }
    el.initiate = ANSWERS[state];
    await fill(el, state === 'transfer' || state === 'failed' ? 'TRANSFER' : 'USSD');
    el.submit();
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  (document.activeElement as HTMLElement | null)?.blur();
  window.scrollTo(scrollX, scrollY);
}
