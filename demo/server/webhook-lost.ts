// The demo's "webhook lost" switch: while it is on, each payment started is marked, and the
// in-process sandbox's webhook deliveries for it (every retry too) are dropped on the way, as a
// gateway's notification lost to a network fault would be. The status poll of a marked payment
// reads the ledger only (as a closed tab would never ask the gateway), so the reconciler is what
// closes its loop: the customer paid → no webhook → the next sweep pays it → onPaid → SUCCESS.

export type WebhookLost = {
  /** Whether payments started now are marked. */
  readonly on: boolean;
  set(on: boolean): void;
  /** Marks a payment the gateway just started, when the switch is on. */
  started(paymentReference: string): void;
  /** Whether the payment was started while the switch was on. */
  has(paymentReference: string): boolean;
  /** The sandbox's webhook `fetch`: deliveries for marked payments fail as a lost connection would. */
  dropping(deliver: typeof globalThis.fetch): typeof globalThis.fetch;
};

/** Enough for a demo session; the oldest marks are forgotten first. */
const KEPT = 1_000;

export function createWebhookLost(): WebhookLost {
  const marked = new Set<string>();
  let on = false;
  return {
    get on() {
      return on;
    },
    set(value) {
      on = value;
    },
    started(paymentReference) {
      if (!on) return;
      marked.add(paymentReference);
      if (marked.size > KEPT) marked.delete(marked.values().next().value!);
    },
    has: (paymentReference) => marked.has(paymentReference),
    dropping: (deliver) => (input, init) => {
      const reference = notifiedReference(init?.body);
      if (reference !== undefined && marked.has(reference))
        return Promise.reject(new Error('pay-widget demo: webhook lost (the demo’s switch)'));
      return deliver(input, init);
    },
  };
}

/** The reference a sandbox notification names (its `notificationItems[0]…data.reference`), if any. */
function notifiedReference(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const parsed = JSON.parse(body) as {
      notificationItems?: { notificationRequestItem?: { data?: { reference?: unknown } } }[];
    };
    const reference = parsed.notificationItems?.[0]?.notificationRequestItem?.data?.reference;
    return typeof reference === 'string' ? reference : undefined;
  } catch {
    return undefined;
  }
}
