import type { GatewayRequest } from '../../src/contract/schemas.js';

export const SECRET_KEY = 'SBTESTSECK_q8Vw2n5Lr3Xy7Tz1';
export const PUBLIC_KEY = 'SBTESTPUBK_h4Jk6Pm9Qs2Wd8Fg';
export const BASE_URL = 'https://gateway.test';

export type Seen = { method: string; path: string; authorization: string | null; body: string };

/** A stand-in for the gateway's HTTP side: `answer` decides each response; every request is kept. */
export function fakeGateway(answer: (request: Seen, count: number) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const entry: Seen = {
      method: request.method,
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
      body: request.method === 'GET' ? '' : await request.text(),
    };
    seen.push(entry);
    return answer(entry, seen.filter((other) => other.path === entry.path).length);
  }) as typeof globalThis.fetch;
  return { fetch, seen, tokenRequests: () => seen.filter((request) => request.path === '/api/v2/encrypt/keys') };
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export function tokenAnswer(token: string, wrapper = 'EncryptedSecKey'): Response {
  return json(200, {
    status: 'SUCCESS',
    data: { code: '00', message: 'Successful', [wrapper]: { encryptedKey: token } },
  });
}

export function queryAnswer(code: string, payments: Record<string, unknown> = {}, reference = 'ORDER-1042'): Response {
  return json(200, {
    status: 'SUCCESS',
    data: {
      code,
      message: code === '00' ? 'Successful' : 'Transaction is pending',
      payments: {
        paymentReference: reference,
        amount: 5000,
        currency: 'NGN',
        paymentType: 'TRANSFER',
        gatewayCode: code,
        ...payments,
      },
      customers: { customerEmail: 'ada@example.ng' },
    },
  });
}

export const TRANSFER_ENVELOPE = {
  status: 'SUCCESS',
  data: {
    code: '00',
    message: 'ACCOUNT OPENED SUCCESSFULLY',
    payments: {
      paymentReference: 'ORDER-1042',
      walletName: 'Ada Books / Ada Obi',
      wallet: '8012345678',
      bankName: 'Sandbox Bank',
      accountNumber: '9012345678',
    },
  },
};

export function initiationBody(paymentReference = 'ORDER-1042'): GatewayRequest {
  return {
    publicKey: PUBLIC_KEY,
    amount: '5000.00',
    fullName: 'Ada Obi',
    mobileNumber: '08030000000',
    email: 'ada@example.ng',
    currency: 'NGN',
    country: 'NG',
    paymentReference,
    callbackUrl: 'https://shop.test/cb',
    redirectUrl: 'https://shop.test/done',
    paymentType: 'TRANSFER',
  };
}
