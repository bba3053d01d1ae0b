/**
 * Shared helpers for the <pay-widget> browser tests: the fixture, a recording `fetch` stub, the
 * spec's sample envelopes, form filling through real DOM events, and shadow-root look-ups.
 */
import { fixture, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { PayEventMap, PayEventName, PayWidget } from '../../src/index.js';
import type { CustomerField } from '../../src/contract/schemas.js';
import { useClock, type Clock } from '../../src/element/clock.js';
import { loadAfterSubmit, loadTransferScreen } from '../../src/element/loading/for-payment.js';

export type { PayWidget };

// The runner reuses its tabs, and a tab's sessionStorage outlives a test file: each file starts with
// no payment kept for a reload (issue 26) by the one before.
sessionStorage.clear();

// ─── Fixture ──────────────────────────────────────────────────────────────────────────────────────

export const SESSION_URL = '/pay/session';
export const STATUS_URL = '/pay/status';

export type Attributes = Record<string, string | true | undefined>;

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** A `<pay-widget>` with these attributes (`true` → a boolean attribute), rendered and updated. */
export function widget(attributes: Attributes = { 'session-url': SESSION_URL }): Promise<PayWidget> {
  const written = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => (value === true ? name : `${name}="${escapeAttribute(value as string)}"`))
    .join(' ');
  return fixture<PayWidget>(`<pay-widget ${written}></pay-widget>`);
}

// ─── Network stub ─────────────────────────────────────────────────────────────────────────────────

export type FetchCall = {
  url: URL;
  method: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal | undefined;
  credentials: RequestCredentials | undefined;
};
export type Responder = (call: FetchCall, index: number) => Response | Promise<Response>;

let realFetch: typeof fetch | undefined;

/** Replaces `window.fetch` with `responder`; returns the list the calls are recorded in. */
export function stubFetch(responder: Responder): FetchCall[] {
  const calls: FetchCall[] = [];
  realFetch ??= window.fetch;
  window.fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
    const call: FetchCall = {
      url,
      method: (init.method ?? 'GET').toUpperCase(),
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
      credentials: init.credentials,
    };
    calls.push(call);
    return responder(call, calls.length - 1);
  };
  return calls;
}

/** The `Idempotency-Key` of each recorded request, in order. */
export const idempotencyKeys = (calls: FetchCall[]) => calls.map((call) => call.headers.get('Idempotency-Key'));

export function restoreFetch(): void {
  if (realFetch) window.fetch = realFetch;
  realFetch = undefined;
}

/** Session requests go to `session`, status look-ups to `status`. */
export function route(handlers: { session?: Responder; status?: Responder }): Responder {
  let sessions = 0;
  let statuses = 0;
  return (call) => {
    if (call.url.pathname === SESSION_URL && handlers.session) return handlers.session(call, sessions++);
    if (call.url.pathname === STATUS_URL && handlers.status) return handlers.status(call, statuses++);
    throw new TypeError(`unexpected request to ${call.url}`);
  };
}

export const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fetch that never answers, and rejects with an AbortError once its signal aborts. */
export function hang(call: FetchCall): Promise<Response> {
  return new Promise((_, reject) => {
    const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (call.signal?.aborted) abort();
    call.signal?.addEventListener('abort', abort);
  });
}

export type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void };
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

export const wait = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * Holds every timer of at least `minMs` (the status-poll schedule, the "Copied" label) instead of
 * letting it run, so a test decides when they fire, or proves none is left, without sleeping.
 * `restoreAll()` puts the real timers back.
 */
export function holdTimers(minMs = 1_000) {
  const held = new Map<number, { ms: number; callback: () => void }>();
  let nextId = 1_000_000;
  realTimers ??= { setTimeout: window.setTimeout, clearTimeout: window.clearTimeout };
  const real = { setTimeout: realTimers.setTimeout.bind(window), clearTimeout: realTimers.clearTimeout.bind(window) };
  window.setTimeout = ((callback: () => void, ms = 0, ...args: unknown[]) => {
    if (ms < minMs) return real.setTimeout(callback, ms, ...args);
    held.set(++nextId, { ms, callback: () => callback(...(args as [])) });
    return nextId;
  }) as typeof setTimeout;
  window.clearTimeout = ((id: number) =>
    held.has(id) ? held.delete(id) : real.clearTimeout(id)) as typeof clearTimeout;
  return {
    /** How many held timers of `ms` (or of any delay) are still waiting to fire. */
    pending: (ms?: number) => [...held.values()].filter((timer) => ms === undefined || timer.ms === ms).length,
    /** Fires every timer held now (not the ones they set). */
    fire(): void {
      const due = [...held.values()];
      held.clear();
      for (const timer of due) timer.callback();
    },
  };
}

let realTimers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } | undefined;

function restoreTimers(): void {
  if (realTimers) Object.assign(window, realTimers);
  realTimers = undefined;
}

// ─── Sample envelopes, in the shape of spec 2.2–2.4 ──────────────────────────────────────────────

export const USSD_PAYMENTS = {
  paymentReference: 'ORD-1001',
  linkingReference: 'LNK-77881',
  providerreference: 'PRV-55210',
  ussdDailCode: '*737*000*4412#',
};

export const TRANSFER_PAYMENTS = {
  paymentReference: 'ORD-1002',
  walletName: 'Acme Stores / Ada Obi',
  wallet: 'WAL-300921',
  bankName: 'Providus Bank',
  accountNumber: '9900112233',
};

/** What the server charges for a payment: the session body's `order` (DESIGN.md). */
export type Order = { paymentReference: string; amount: string; currency: string; statusToken?: string };

/** The server's order for these payments: ₦7,250, which the page's `amount="5000"` never says. */
export function orderFor(payments: { paymentReference?: unknown }, extra: Partial<Order> = {}): Order {
  return {
    paymentReference: String(payments.paymentReference),
    amount: '7250',
    currency: 'NGN',
    statusToken: 'st.signed-token',
    ...extra,
  };
}

/** A session success body: the spec's envelope plus the server's `order` (`null` for an endpoint that sends none). */
export function ussdEnvelope(payments: Record<string, unknown> = USSD_PAYMENTS, order: unknown = orderFor(payments)) {
  return { status: 'SUCCESS', data: { code: null, message: null, payments: { ...payments } }, ...withOrder(order) };
}

export function transferEnvelope(
  payments: Record<string, unknown> = TRANSFER_PAYMENTS,
  order: unknown = orderFor(payments),
) {
  return {
    status: 'SUCCESS',
    data: { code: '00', message: 'Account opened for this payment', payments: { ...payments } },
    ...withOrder(order),
  };
}

const withOrder = (order: unknown) => (order === null ? {} : { order });

/** The contract's failure body: `{ status: "ERROR", error: { code, message, fields? } }`. */
export function errorBody(code: string, message: string, fields?: Record<string, string>) {
  return { status: 'ERROR', error: { code, message, ...(fields ? { fields } : {}) } };
}

// ─── Shadow-root look-ups ─────────────────────────────────────────────────────────────────────────

export function root(el: PayWidget): ShadowRoot {
  return el.shadowRoot!;
}

export function part<T extends HTMLElement = HTMLElement>(el: PayWidget, name: string): T | null {
  return root(el).querySelector<T>(`[part~="${name}"]`);
}

export function parts(el: PayWidget, name: string): HTMLElement[] {
  return [...root(el).querySelectorAll<HTMLElement>(`[part~="${name}"]`)];
}

export function control<T extends HTMLInputElement | HTMLSelectElement = HTMLInputElement>(
  el: PayWidget,
  name: string,
): T {
  const found = root(el).querySelector<T>(`[name="${name}"]`);
  if (!found) throw new Error(`no control named ${name}`);
  return found;
}

export function radio(el: PayWidget, type: 'USSD' | 'TRANSFER'): HTMLInputElement {
  const found = root(el).querySelector<HTMLInputElement>(`input[name="paymentType"][value="${type}"]`);
  if (!found) throw new Error(`no ${type} radio`);
  return found;
}

export function bankSearch(el: PayWidget): HTMLInputElement | null {
  return root(el).querySelector<HTMLInputElement>('input[type="search"]');
}

/** The visible error text of a field, or `undefined` when none is shown. */
export function fieldError(el: PayWidget, field: CustomerField): string | undefined {
  return root(el).querySelector(`#${field}-error`)?.textContent?.trim();
}

/** All text in the shadow root, whitespace collapsed. */
export function text(el: PayWidget): string {
  return (root(el).textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function heading(el: PayWidget): HTMLHeadingElement | null {
  return root(el).querySelector('h2');
}

export function button(el: PayWidget, label: string): HTMLButtonElement | undefined {
  return [...root(el).querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === label);
}

/** The element focused inside the widget's shadow root. */
export function focused(el: PayWidget): Element | null {
  return root(el).activeElement;
}

// ─── Filling the form through real events ─────────────────────────────────────────────────────────

export const CUSTOMER = { fullName: 'Ada Obi', email: 'ada@example.com', mobileNumber: '0801 234-5678' };
/** The mobile number as the widget sends it: separators removed. */
export const NORMALIZED_MOBILE = '08012345678';
/** GTBank (Guaranty Trust Bank), from the default list. */
export const BANK_CODE = '058';

/** Types `value` the way a browser reports it (`input`), then leaves the field (`blur`). */
export async function typeInto(
  el: PayWidget,
  field: 'fullName' | 'email' | 'mobileNumber',
  value: string,
): Promise<void> {
  const input = control(el, field);
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new FocusEvent('blur'));
  await el.updateComplete;
}

/** Picks a bank in the list (`change`), as a customer does. */
export async function chooseBank(el: PayWidget, code: string): Promise<void> {
  const select = control<HTMLSelectElement>(el, 'bankCode');
  select.value = code;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await el.updateComplete;
}

export async function chooseType(el: PayWidget, paymentType: 'USSD' | 'TRANSFER'): Promise<void> {
  radio(el, paymentType).click();
  await el.updateComplete;
}

export async function fillCustomer(el: PayWidget, customer: Partial<typeof CUSTOMER> = CUSTOMER): Promise<void> {
  for (const [field, value] of Object.entries(customer)) {
    await typeInto(el, field as keyof typeof CUSTOMER, value);
  }
}

/** A valid USSD form: the customer's details and a bank. */
export async function fillUssd(el: PayWidget, bankCode = BANK_CODE): Promise<void> {
  await chooseType(el, 'USSD');
  await fillCustomer(el);
  await chooseBank(el, bankCode);
}

/**
 * A valid transfer form: the customer's details, typed while the transfer screen's file loads (as a
 * customer's typing gives it time to), so that a short `timeout` bounds the request alone.
 */
export async function fillTransfer(el: PayWidget): Promise<void> {
  await chooseType(el, 'TRANSFER');
  await fillCustomer(el);
  await Promise.all([loadAfterSubmit(), loadTransferScreen()]);
}

/** Clicks the pay button, as a customer does. */
export function clickSubmit(el: PayWidget): void {
  part<HTMLButtonElement>(el, 'submit')!.click();
}

/**
 * Resolves once the form shows that it is busy. After a submit from the form that takes a moment
 * (BUSY_AFTER_MS in pay-widget.ts): a quick answer goes straight to its result.
 */
export async function busyShown(el: PayWidget): Promise<void> {
  await waitUntil(
    () => part(el, 'form')?.getAttribute('aria-busy') === 'true',
    'the form never showed that it was busy',
    { timeout: 2_000 },
  );
  await el.updateComplete;
}

/** A typed `oneEvent`: resolves with the next `name` event the widget fires. */
export function nextEvent<K extends PayEventName>(el: PayWidget, name: K): Promise<PayEventMap[K]> {
  return oneEvent<PayEventMap[K]>(el, name);
}

/** Clicks pay, waits for `name` (listening before the click), then for the render that follows. */
export async function submitUntil<K extends PayEventName>(el: PayWidget, name: K): Promise<PayEventMap[K]> {
  const fired = nextEvent(el, name);
  clickSubmit(el);
  const event = await fired;
  await el.updateComplete;
  return event;
}

// ─── Clipboard stub ───────────────────────────────────────────────────────────────────────────────

/** Replaces `navigator.clipboard` with a recorder; `fail` makes every write reject. */
export function stubClipboard(fail = false): string[] {
  const written: string[] = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: async (value: string) => {
        if (fail) throw new DOMException('Write permission denied.', 'NotAllowedError');
        written.push(value);
      },
    },
  });
  return written;
}

export function restoreClipboard(): void {
  delete (navigator as { clipboard?: unknown }).clipboard;
}

export function restoreAll(): void {
  restoreFetch();
  restoreClipboard();
  restoreTimers();
  restoreDevice();
  // The attempts widgets kept for a reload (issue 26): each test starts on a fresh page.
  sessionStorage.clear();
}

// ─── The customer's device (src/element/platform.ts) ─────────────────────────────────────────────

/** What platform.ts reads of a device: its user agent, platform and touch points. */
export const DEVICES = {
  android: [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
    'Linux armv81',
    5,
  ],
  iphone: [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    'iPhone',
    5,
  ],
  /** iPadOS's Safari presents itself as a Mac, with a touch screen. */
  ipad: [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
    'MacIntel',
    5,
  ],
  mac: [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
    'MacIntel',
    0,
  ],
  windows: [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    'Win32',
    0,
  ],
} as const;

const DEVICE_PROPERTIES = ['userAgent', 'platform', 'maxTouchPoints'] as const;

/** Makes `navigator` say it is `name` until `restoreDevice()` (or `restoreAll()`). */
export function emulateDevice(name: keyof typeof DEVICES): void {
  DEVICES[name].forEach((value, i) =>
    Object.defineProperty(navigator, DEVICE_PROPERTIES[i]!, { value, configurable: true }),
  );
}

export function restoreDevice(): void {
  for (const name of DEVICE_PROPERTIES) delete (navigator as unknown as Record<string, unknown>)[name];
}

// ─── A controlled clock (src/element/clock.ts) ──────────────────────────────────────────────────────────────

/** A clock that moves only when told, ticking every `every` callback once per move. */
export function controlledClock(start = Date.parse('2025-03-01T09:00:00.000Z')) {
  let now = start;
  const ticks = new Set<() => void>();
  const clock: Clock = {
    now: () => now,
    every(_ms, tick) {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
  };
  const restore = useClock(clock);
  return {
    restore,
    /** Moves the clock on by `ms` and ticks once. */
    advance(ms: number): void {
      now += ms;
      for (const tick of [...ticks]) tick();
    },
    now: () => now,
    ticking: () => ticks.size,
  };
}

// ─── Narrow screens ───────────────────────────────────────────────────────────────────────────────

/**
 * What spills out of the widget sideways: an element, or a line of text (a word that does not wrap
 * overflows its box without making the box wider), whose right edge is past the widget's. Empty
 * when everything fits.
 */
export function spilledOut(el: PayWidget): string[] {
  const right = el.getBoundingClientRect().right + 0.5;
  const spilled: string[] = [];
  for (const node of root(el).querySelectorAll<HTMLElement>('*')) {
    if (node.closest('.sr-only, style')) continue;
    const rect = node.getBoundingClientRect();
    if (rect.width > 0 && rect.right > right)
      spilled.push(`${node.tagName.toLowerCase()}.${node.className} "${node.textContent?.trim().slice(0, 40)}"`);
  }
  const walker = document.createTreeWalker(root(el), NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest('.sr-only, style')) continue;
    range.selectNodeContents(node);
    if ([...range.getClientRects()].some((line) => line.width > 0 && line.right > right))
      spilled.push(`text "${node.textContent!.trim().slice(0, 40)}"`);
  }
  return spilled;
}

/** Saves a screenshot of the widget to test-results/<name>.png, for a person to look at. */
export async function screenshotOf(el: PayWidget, name: string): Promise<void> {
  const { executeServerCommand } = await import('@web/test-runner-commands');
  const box = el.getBoundingClientRect();
  await executeServerCommand('screenshot', {
    name,
    clip: { x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height },
  });
}

/** The boxes of what a result screen shows, by a name that says which, to compare before and after. */
export function layoutOf(
  el: PayWidget,
  selectors = 'h2, .value:not(.note), [part~="copy-button"], a.button, svg.qr, dl, [part~="status"], .actions, .actions > *',
): Record<string, DOMRect> {
  const boxes: Record<string, DOMRect> = {};
  root(el)
    .querySelectorAll(selectors)
    .forEach(
      (node, i) =>
        (boxes[
          `${i} ${node.tagName.toLowerCase()}.${node.getAttribute('class') ?? ''}${node.getAttribute('part') ? `[${node.getAttribute('part')}]` : ''}`
        ] = node.getBoundingClientRect().toJSON()),
    );
  return boxes;
}

/** The index in `element`'s text of the first character of each line after the first. */
export function lineBreaks(element: Element): number[] {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const tops: number[] = [];
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.textContent!.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      tops.push(Math.round(range.getBoundingClientRect().top));
    }
  }
  return tops.flatMap((top, i) => (i > 0 && top > tops[i - 1]! ? [i] : []));
}
