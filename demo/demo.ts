/**
 * The demo page: wires the control panel to <pay-widget>, logs every pay-* event, drives the
 * sandbox's "the customer paid" switch through POST /pay/simulate and its "webhook lost" switch
 * through /demo/webhook-lost, and shows the server's side of the loop (session → sandbox → webhook
 * → ledger → status poll, and the reconciler's sweeps) from GET /demo/events. Nothing from the
 * widget or the network is rendered as HTML: every text goes through textContent.
 */
// The element itself comes from the script tag, as on a shop's page (added at the end); only its types here.
import type { PayEventName, PayWidget } from '../src/index.js';

/** Every event the widget fires; the Record type makes the compiler insist on all of them. */
const EVENTS: Record<PayEventName, true> = {
  'pay-ready': true,
  'pay-type-change': true,
  'pay-submit': true,
  'pay-initiated': true,
  'pay-copy': true,
  'pay-complete': true,
  'pay-error': true,
  'pay-reset': true,
  'pay-resumed': true,
};

const THEME_PROPERTIES = [
  '--pay-widget-color-accent',
  '--pay-widget-color-on-accent',
  '--pay-widget-radius',
  '--pay-widget-font',
  '--pay-widget-color-text',
  '--pay-widget-color-muted',
  '--pay-widget-color-background',
  '--pay-widget-color-subtle',
  '--pay-widget-color-border',
  '--pay-widget-color-error',
  '--pay-widget-color-success',
] as const;

/** The widget's own two palettes (pay-widget.styles.ts), forced regardless of the system setting. */
const PALETTES = {
  light: {
    '--pay-widget-color-text': '#1b1f24',
    '--pay-widget-color-muted': '#555d66',
    '--pay-widget-color-background': '#fff',
    '--pay-widget-color-subtle': '#f3f5f7',
    '--pay-widget-color-border': '#8a939d',
    '--pay-widget-color-error': '#b3261e',
    '--pay-widget-color-success': '#146c2e',
  },
  dark: {
    '--pay-widget-color-text': '#e8eaed',
    '--pay-widget-color-muted': '#b4bac2',
    '--pay-widget-color-background': '#16191d',
    '--pay-widget-color-subtle': '#23272d',
    '--pay-widget-color-border': '#6b737d',
    '--pay-widget-color-error': '#f2b8b5',
    '--pay-widget-color-success': '#7dd99a',
  },
} as const;
const DEFAULT_ACCENT = { light: '#0a5cc2', dark: '#8ab4f8' } as const;
type Scheme = 'auto' | keyof typeof PALETTES;

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`demo: #${id} is missing from index.html`);
  return element as T;
}

const widget = byId<PayWidget>('widget');
const stage = byId<HTMLDivElement>('stage');
const log = byId<HTMLOListElement>('event-log');
const serverLog = byId<HTMLOListElement>('server-log');
const simulateSuccess = byId<HTMLButtonElement>('simulate-success');
const simulateFailure = byId<HTMLButtonElement>('simulate-failure');
const simulateResult = byId<HTMLParagraphElement>('simulate-result');
const amountInput = byId<HTMLInputElement>('panel-amount');
const accentInput = byId<HTMLInputElement>('panel-accent');
const radiusInput = byId<HTMLInputElement>('panel-radius');
const radiusValue = byId<HTMLOutputElement>('panel-radius-value');
const fontSelect = byId<HTMLSelectElement>('panel-font');
const localeSelect = byId<HTMLSelectElement>('panel-locale');

const mode = document.querySelector<HTMLMetaElement>('meta[name="pay-demo-mode"]')?.content ?? 'sandbox';
const gatewayOrigin = document.querySelector<HTMLMetaElement>('meta[name="pay-demo-gateway"]')?.content;
const sandbox = mode !== 'gateway';

// ─── Mode ────────────────────────────────────────────────────────────────────────────────────────

if (!sandbox) {
  byId('mode-text').textContent = `the gateway is the real one at ${gatewayOrigin ?? 'PAY_BASE_URL'}`;
  byId('simulate-help').textContent =
    'This demo is talking to a real gateway: pay for real, and its webhook (or the status re-query) completes the payment.';
  byId('magic-help').textContent =
    'These amounts only misbehave in the offline sandbox (start without PAY_* variables).';
  const footer = widget.querySelector('[slot="footer"]');
  if (footer) footer.textContent = 'Connected to a real payment gateway.';
}

// ─── The event log ───────────────────────────────────────────────────────────────────────────────

let paymentReference: string | undefined;
let simulating = false;

function updateSimulateButtons(): void {
  const enabled = sandbox && !simulating && paymentReference !== undefined;
  simulateSuccess.disabled = !enabled;
  simulateFailure.disabled = !enabled;
}

function logEvent(event: Event): void {
  const detail = (event as CustomEvent<unknown>).detail;
  const item = document.createElement('li');
  item.className = 'event';
  item.dataset.event = event.type;
  const head = document.createElement('p');
  const name = document.createElement('code');
  name.className = 'event-name';
  name.textContent = event.type;
  const time = document.createElement('time');
  const now = new Date();
  time.dateTime = now.toISOString();
  time.textContent = now.toLocaleTimeString('en-GB', { hour12: false });
  head.append(name, ' ', time);
  const body = document.createElement('pre');
  body.textContent = JSON.stringify(detail, null, 2) ?? 'undefined';
  item.append(head, body);
  log.prepend(item);
}

for (const name of Object.keys(EVENTS) as PayEventName[]) widget.addEventListener(name, logEvent);

function waitingFor(reference: string): void {
  paymentReference = reference;
  simulateResult.textContent = sandbox
    ? `Payment ${reference} is waiting for the customer.`
    : `Payment ${reference} started on the real gateway.`;
  updateSimulateButtons();
}

widget.addEventListener('pay-initiated', (event) => waitingFor(event.detail.paymentReference));
// After a reload the widget shows the payment it kept: the customer's phone can still pay it.
widget.addEventListener('pay-resumed', (event) => {
  if (!event.detail.status) waitingFor(event.detail.paymentReference);
});
widget.addEventListener('pay-complete', (event) => {
  paymentReference = undefined;
  simulateResult.textContent = `The widget saw ${event.detail.status}.`;
  updateSimulateButtons();
});
widget.addEventListener('pay-reset', () => {
  paymentReference = undefined;
  simulateResult.textContent = '';
  updateSimulateButtons();
});

byId('log-clear').addEventListener('click', () => log.replaceChildren());

// ─── The server's side of the loop ───────────────────────────────────────────────────────────────

type LoopStep = { id: number; at: string; source: string; kind: string; paymentReference?: string; text: string };

let lastStep = 0;

function showStep(step: LoopStep): void {
  const item = document.createElement('li');
  item.className = 'step';
  item.dataset.source = step.source;
  item.dataset.kind = step.kind;
  const source = document.createElement('span');
  source.className = 'step-source';
  source.textContent = step.source;
  const time = document.createElement('time');
  time.dateTime = step.at;
  time.textContent = new Date(step.at).toLocaleTimeString('en-GB', { hour12: false });
  const text = document.createElement('span');
  text.className = 'step-text';
  text.textContent = step.text;
  item.append(source, ' ', time, ' ', text);
  serverLog.prepend(item);
}

/** Asks for the steps since the last one shown, every 700 ms while the page is open. */
async function pollSteps(): Promise<void> {
  try {
    const response = await fetch(`/demo/events?after=${lastStep}`, { headers: { Accept: 'application/json' } });
    const body = (await response.json()) as { steps?: LoopStep[] };
    for (const step of body.steps ?? []) {
      if (typeof step.id !== 'number' || step.id <= lastStep) continue;
      lastStep = step.id;
      showStep(step);
    }
  } catch {
    // the dev server restarting; the next round asks again
  }
  setTimeout(() => void pollSteps(), 700);
}
void pollSteps();

byId('server-log-clear').addEventListener('click', () => serverLog.replaceChildren());

// ─── Simulate the customer's phone ───────────────────────────────────────────────────────────────

async function simulate(status: 'SUCCESS' | 'FAILED'): Promise<void> {
  const reference = paymentReference;
  if (!reference) return;
  simulating = true;
  updateSimulateButtons();
  try {
    const response = await fetch('/pay/simulate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ paymentReference: reference, status }),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok) {
      simulateResult.textContent = lostReferences.has(reference)
        ? `The sandbox marked the payment ${status === 'SUCCESS' ? 'paid' : 'failed'}, and its webhook is lost: the reconciler's next sweep of this payment settles it (a minute after it started, then on a back-off).`
        : status === 'SUCCESS'
          ? 'The sandbox marked the payment paid and posts its webhook; the widget sees it at its next status check (about 2 s).'
          : 'The sandbox marked the payment failed and posts its webhook; the widget sees it at its next status check (about 2 s).';
      if (paymentReference === reference) paymentReference = undefined; // settled: nothing more to simulate
    } else {
      const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
      simulateResult.textContent = `Could not simulate: ${typeof message === 'string' ? message : `HTTP ${response.status}`}`;
    }
  } catch {
    simulateResult.textContent = 'Could not reach the demo server.';
  } finally {
    simulating = false;
    updateSimulateButtons();
  }
}

simulateSuccess.addEventListener('click', () => void simulate('SUCCESS'));
simulateFailure.addEventListener('click', () => void simulate('FAILED'));

// ─── The "webhook lost" switch ───────────────────────────────────────────────────────────────────

const webhookLost = byId<HTMLInputElement>('webhook-lost');
webhookLost.disabled = !sandbox;
/** Payments started while the switch was on: their webhook never comes. */
const lostReferences = new Set<string>();
widget.addEventListener('pay-initiated', (event) => {
  if (webhookLost.checked) lostReferences.add(event.detail.paymentReference);
});

/** Tells the server (for payments started from now on); the box shows what the server holds. */
async function setWebhookLost(lost?: boolean): Promise<void> {
  try {
    const response = await fetch(
      '/demo/webhook-lost',
      lost === undefined
        ? { headers: { Accept: 'application/json' } }
        : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ lost }) },
    );
    const body = (await response.json()) as { lost?: unknown };
    if (typeof body.lost === 'boolean') webhookLost.checked = body.lost;
  } catch {
    simulateResult.textContent = 'Could not reach the demo server.';
  }
}

webhookLost.addEventListener('change', () => {
  void setWebhookLost(webhookLost.checked);
  simulateResult.textContent = webhookLost.checked
    ? 'Payments started from now on lose their webhook: the reconciler will pay them.'
    : 'Payments started from now on get their webhook again.';
});
if (sandbox) void setWebhookLost();

// ─── The control panel ───────────────────────────────────────────────────────────────────────────

for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="panel-types"]')) {
  radio.addEventListener('change', () => {
    if (radio.checked) widget.paymentTypes = radio.value;
  });
}

localeSelect.addEventListener('change', () => {
  widget.locale = localeSelect.value;
});

function setAmount(value: string): void {
  amountInput.value = value;
  if (amountInput.checkValidity() && value !== '') widget.amount = value;
}
amountInput.addEventListener('input', () => setAmount(amountInput.value));

let accentChosen = false;
let scheme: Scheme = 'auto';

function isDark(): boolean {
  return scheme === 'dark' || (scheme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
}

/** Dark text on a light accent, white on a dark one (WCAG relative luminance). */
function onAccent(hex: string): string {
  const channels = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * channels[0]! + 0.7152 * channels[1]! + 0.0722 * channels[2]!;
  return luminance > 0.18 ? '#0b1f3a' : '#ffffff';
}

/** Custom properties set through the CSSOM (style.setProperty), which a strict CSP allows. */
function applyTheme(): void {
  const style = widget.style;
  for (const property of THEME_PROPERTIES) style.removeProperty(property);
  if (accentChosen) {
    style.setProperty('--pay-widget-color-accent', accentInput.value);
    style.setProperty('--pay-widget-color-on-accent', onAccent(accentInput.value));
  }
  style.setProperty('--pay-widget-radius', `${radiusInput.value}px`);
  radiusValue.textContent = `${radiusInput.value}px`;
  if (fontSelect.value) style.setProperty('--pay-widget-font', fontSelect.value);
  if (scheme !== 'auto') {
    for (const [property, value] of Object.entries(PALETTES[scheme])) style.setProperty(property, value);
    style.colorScheme = scheme; // native controls inside the widget follow
  } else {
    style.removeProperty('color-scheme');
  }
  stage.dataset.scheme = isDark() ? 'dark' : 'light';
  if (!accentChosen) accentInput.value = DEFAULT_ACCENT[isDark() ? 'dark' : 'light'];
}

accentInput.addEventListener('input', () => {
  accentChosen = true;
  applyTheme();
});
radiusInput.addEventListener('input', applyTheme);
fontSelect.addEventListener('change', applyTheme);
for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="panel-scheme"]')) {
  radio.addEventListener('change', () => {
    if (!radio.checked) return;
    scheme = radio.value as Scheme;
    applyTheme();
  });
}
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);

byId('panel-reset-theme').addEventListener('click', () => {
  accentChosen = false;
  radiusInput.value = '10';
  fontSelect.value = '';
  scheme = 'auto';
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="panel-scheme"]')) {
    radio.checked = radio.value === 'auto';
  }
  applyTheme();
});
byId('panel-reset-widget').addEventListener('click', () => widget.reset());
byId<HTMLFormElement>('controls').addEventListener('submit', (event) => event.preventDefault());

applyTheme();

// ─── The sandbox's magic amounts ─────────────────────────────────────────────────────────────────

const magicList = byId<HTMLUListElement>('magic-list');
/** The sandbox's table, put in the page by the dev server (demo/server.ts). */
const MAGIC_AMOUNTS = JSON.parse(document.getElementById('pay-demo-magic-amounts')?.textContent ?? '{}') as Record<
  string,
  string
>;
const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', maximumFractionDigits: 0 });

function magicItem(amount: string, text: string): HTMLLIElement {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = `Use ${naira.format(Number(amount))}`;
  button.disabled = !sandbox;
  button.addEventListener('click', () => {
    setAmount(amount);
    widget.reset();
    simulateResult.textContent = `Amount set to ${naira.format(Number(amount))}. Fill in the form and pay.`;
  });
  const description = document.createElement('span');
  description.textContent = text;
  item.append(button, ' ', description);
  return item;
}

magicList.append(
  magicItem('5000', 'a normal payment (the default price)'),
  ...Object.entries(MAGIC_AMOUNTS).map(([amount, text]) =>
    // createGateway gives up on the gateway's answer after 15 s (its timeoutMs), before the sandbox's 20 s.
    magicItem(amount, amount === '504' ? `${text}; here the gateway client gives up after 15 s` : text),
  ),
);

// The widget as a shop ships it: the script tag, which loads its other files from beside itself.
// Added last, once every listener above is on, so that pay-ready is heard too.
const widgetScript = document.createElement('script');
widgetScript.src = '/pay-widget/pay-widget.iife.js';
document.head.append(widgetScript);
