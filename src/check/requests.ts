// What the check sends: the widget's session requests (README, "The session-endpoint contract"),
// keys, and the gateway's notification (docs/architecture.md, "The notification") for a reference.

export type SessionBody = Record<string, unknown>;

export function ussdRequest(extra: SessionBody = {}): SessionBody {
  return {
    paymentType: 'USSD',
    fullName: 'Ada Obi',
    email: 'ada@example.com',
    mobileNumber: '08031234567',
    bankCode: '058',
    currency: 'NGN',
    country: 'NG',
    ...extra,
  };
}

export function transferRequest(extra: SessionBody = {}): SessionBody {
  const { bankCode: _ussdOnly, ...body } = ussdRequest({ paymentType: 'TRANSFER', ...extra });
  return body;
}

/** A fresh `Idempotency-Key`, as the widget makes one per payment attempt. */
export function newKey(): string {
  return `check-${crypto.randomUUID()}`;
}

/** Requests whose fields are wrong, each with the field a 4xx `fields` should name. */
export const INVALID_REQUESTS: readonly { what: string; body: SessionBody }[] = [
  { what: 'an e-mail that is not an address', body: ussdRequest({ email: 'not-an-address' }) },
  { what: 'no fullName', body: ussdRequest({ fullName: undefined }) },
  { what: 'USSD without bankCode', body: ussdRequest({ bankCode: undefined }) },
  { what: 'a paymentType that is neither USSD nor TRANSFER', body: ussdRequest({ paymentType: 'CARD' }) },
];

/** The gateway's `transaction` notification for a reference, as anyone could post it (it is not signed). */
export function notification(reference: string, amount: string, currency: string, code = '00'): string {
  return JSON.stringify({
    notificationItems: [
      {
        notificationRequestItem: {
          eventType: 'transaction',
          eventDate: new Date().toISOString().replace('T', ' ').slice(0, 19),
          eventId: crypto.randomUUID(),
          data: {
            reference,
            amount: Number(amount),
            currency,
            code,
            gatewayCode: code,
            gatewayMessage: code === '00' ? 'Successful' : 'Pending',
            paymentType: 'USSD',
          },
        },
      },
    ],
  });
}
