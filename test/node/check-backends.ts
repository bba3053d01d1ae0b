// Back ends for the check's own tests: ours (createPayments, in memory, pointed at the check's
// sandbox) served on 127.0.0.1, the same with one rule broken on purpose, one per check, and a cart
// shop whose order needs the cart's cookie and reference.
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import {
  createGateway,
  createMemoryIdempotencyStore,
  createMemoryPaymentStore,
  createPayments,
  OrderError,
  type Gateway,
  type IdempotencyStore,
  type PaymentsOrderResolver,
  type PaymentStore,
} from '../../src/server/internal.js';
import type { loopbackServers } from './loopback.js';

export const PAGE_ORIGIN = 'https://shop.example';
const STATUS_SECRET = 'check-test-status-secret-0123456789abcdef';

/** What each broken back end gets wrong. */
export type Breakage =
  | 'forgets-unfinished-attempts'
  | 'trusts-page-amount'
  | 'non-atomic-claims'
  | 'webhook-trusts-body'
  | 'status-without-token'
  | 'leaks-key-in-error'
  | 'no-cors'
  // Not a broken rule but a hostile answer: the check's sandbox must read no more of it than it needs.
  | 'answers-webhooks-endlessly'
  // Set-up mistakes that stop every check: the check names them before running any.
  | 'json-parser-first'
  | 'wrong-secret-key'
  | 'wrong-public-key'
  | 'throwing-resolver';

/**
 * A cart shop: its order refuses (OrderError, 422 order_refused) a request without the cart's
 * cookie, or whose page named another cart (`paymentReference`, or `cartId` in the body).
 */
export type CartShop = { cookie: string; reference?: string; cartId?: string; chargesReference?: true };

type Handler = (request: Request) => Promise<Response>;

/** A request the back end received, with the Cookie header it carried. */
export type SeenRequest = { method: string; path: string; cookie: string | null };

/** The package's handlers against `gatewayUrl`, with `breakage` if any; served, and their URLs. */
export async function startBackEnd(
  servers: ReturnType<typeof loopbackServers>,
  gatewayUrl: string,
  breakage?: Breakage,
  cart?: CartShop,
) {
  const gateway = createGateway({
    baseUrl: gatewayUrl,
    publicKey: breakage === 'wrong-public-key' ? 'pk_live_mistyped' : SANDBOX_PUBLIC_KEY,
    secretKey: breakage === 'wrong-secret-key' ? 'sk_live_0123456789' : SANDBOX_SECRET_KEY,
  });
  const ledger = createMemoryPaymentStore();
  const forgets = breakage === 'forgets-unfinished-attempts';
  const payments =
    breakage === 'non-atomic-claims' ? nonAtomicLedger(ledger) : forgets ? notFoundByKey(ledger) : ledger;
  const memory = createMemoryIdempotencyStore();
  const idempotency =
    breakage === 'non-atomic-claims' ? nonAtomicClaims(memory) : forgets ? keepingOnlyFinished(memory) : memory;
  const cartIds = new WeakMap<Request, unknown>();
  const order: PaymentsOrderResolver = async (request, context) => {
    if (breakage === 'throwing-resolver') throw new Error('cart service down');
    if (cart) refuseOtherCarts(cart, request.paymentReference, context.request, cartIds.get(context.request));
    return {
      // A random reference is safe only while the key's first order is remembered (our ledger then refuses the second).
      ...(forgets ? { paymentReference: `random-${crypto.randomUUID()}` } : {}),
      ...(cart?.chargesReference ? { paymentReference: cart.reference } : {}),
      amount: breakage === 'trusts-page-amount' && request.amount ? request.amount : '5000.00',
      currency: 'NGN',
      country: 'NG',
      callbackUrl: 'http://127.0.0.1/callback',
      redirectUrl: 'http://127.0.0.1/thanks',
    };
  };
  const shop = (shopGateway: Gateway = gateway) => {
    const instance = createPayments({
      gateway: shopGateway,
      stores: { payments, idempotency },
      order,
      onPaid: () => {},
      publicUrl: 'http://127.0.0.1/pay',
      statusSecret: STATUS_SECRET,
      reconcile: false,
      ...(breakage === 'no-cors' ? {} : { allowedOrigins: [PAGE_ORIGIN] }),
    });
    return (request: Request) => instance.handler(request);
  };
  const ours = shop();
  // Non-atomic stores fail only across instances (one handler joins its own duplicates): two, taking turns.
  let session: Handler = breakage === 'non-atomic-claims' ? takingTurns([ours, shop()]) : ours;
  if (breakage === 'leaks-key-in-error') session = leakingKey(session);
  if (cart?.cartId) session = readingCartId(session, cartIds);
  const status = breakage === 'status-without-token' ? statusWithoutToken(payments) : ours;
  let webhook = breakage === 'webhook-trusts-body' ? shop(believing(gateway, payments)) : ours;
  if (breakage === 'answers-webhooks-endlessly') webhook = endlessAnswer(webhook);
  const routes: Record<string, Handler> = { '/pay/session': session, '/pay/status': status, '/pay/webhook': webhook };
  const requests: SeenRequest[] = [];
  const listener = getRequestListener((request) => {
    const path = new URL(request.url).pathname;
    requests.push({ method: request.method, path, cookie: request.headers.get('cookie') });
    return routes[path]?.(request) ?? new Response('Not found', { status: 404 });
  });
  // The commonest Express mistake: express.json() for the whole app, before the package's handlers.
  const origin = await servers.listen(
    breakage === 'json-parser-first' ? express().use(express.json()).use(listener) : listener,
  );
  return {
    sessionUrl: `${origin}/pay/session`,
    statusUrl: `${origin}/pay/status`,
    webhookUrl: `${origin}/pay/webhook`,
    requests,
  };
}

/** The cart shop's rule: the cart's cookie, and the page's reference or cart id when it has one. */
function refuseOtherCarts(cart: CartShop, reference: string | undefined, request: Request, cartId: unknown): void {
  const cookies = (request.headers.get('cookie') ?? '').split(';').map((pair) => pair.trim());
  if (!cookies.includes(cart.cookie)) throw new OrderError('Your cart is empty.');
  if (cart.reference !== undefined && reference !== cart.reference)
    throw new OrderError('This page shows another cart: reload it.');
  if (cart.cartId !== undefined && cartId !== cart.cartId)
    throw new OrderError('This page shows another cart: reload it.');
}

/** The shop's own middleware: reads `cartId` from the JSON body (a copy), for the order to compare. */
function readingCartId(session: Handler, cartIds: WeakMap<Request, unknown>): Handler {
  return async (request) => {
    const body = (await request
      .clone()
      .json()
      .catch(() => undefined)) as { cartId?: unknown } | undefined;
    cartIds.set(request, body?.cartId);
    return session(request);
  };
}

function takingTurns(handlers: Handler[]): Handler {
  let turn = 0;
  return (request) => handlers[turn++ % handlers.length]!(request);
}

// Long enough that two of the check's ten simultaneous requests meet inside it even on a loaded machine
// (at 20 ms the requests sometimes arrived one after the other, and the race the check looks for never ran).
const pause = () => new Promise((resolve) => setTimeout(resolve, 250));

/** A claim that checks, waits, then takes: two requests at once both get it. */
function nonAtomicClaims(store: IdempotencyStore): IdempotencyStore {
  const held = new Set<string>();
  return {
    get: (key) => store.get(key),
    set: (key, record, ttlMs) => store.set(key, record, ttlMs),
    async claim(key) {
      const free = !held.has(key);
      await pause();
      held.add(key);
      return free;
    },
    release: (key) => void held.delete(key),
  };
}

/** A ledger whose insert waits, then writes without asking whether the entry exists: both writers "win". */
function nonAtomicLedger(store: PaymentStore): PaymentStore {
  return Object.assign(Object.create(store) as PaymentStore, {
    async insert(payment: Parameters<PaymentStore['insert']>[0]) {
      await pause();
      await store.insert(payment);
      return true;
    },
  });
}

/** Keeps the answers of finished attempts only: a retry after a time-out resolves a new order. */
function keepingOnlyFinished(store: IdempotencyStore): IdempotencyStore {
  return Object.assign(Object.create(store) as IdempotencyStore, {
    set: (key: string, record: Parameters<IdempotencyStore['set']>[1], ttlMs: number) =>
      record.state === 'done' ? store.set(key, record, ttlMs) : undefined,
  });
}

/** A ledger that cannot find a payment by the key that started it. */
function notFoundByKey(store: PaymentStore): PaymentStore {
  return Object.assign(Object.create(store) as PaymentStore, { findByIdempotencyKey: () => undefined });
}

/** A webhook's gateway whose query believes whatever was posted: paid, for the ledger's amount. */
function believing(gateway: Gateway, payments: PaymentStore): Gateway {
  return {
    ...gateway,
    query: async (reference) => {
      const entry = await payments.get(reference);
      return {
        kind: 'answer',
        state: 'SUCCESS',
        code: '00',
        amount: Number(entry?.amount),
        currency: entry?.currency,
        message: undefined,
      };
    },
  };
}

/** A status endpoint that answers from the ledger to anyone who names a reference. */
function statusWithoutToken(payments: PaymentStore): Handler {
  return async (request) => {
    const entry = await payments.get(new URL(request.url).searchParams.get('paymentReference') ?? '');
    const headers = { 'access-control-allow-origin': PAGE_ORIGIN };
    if (!entry)
      return Response.json(
        { status: 'ERROR', error: { code: 'not_found', message: 'Not found.' } },
        { status: 404, headers },
      );
    return Response.json({ status: entry.state, amount: entry.amount, currency: entry.currency }, { headers });
  };
}

/** The handler's answer followed by 200 MB of spaces (still JSON), each 64 KB made as it is read. */
function endlessAnswer(handler: Handler): Handler {
  return async (request) => {
    const answer = await handler(request);
    const start = new Uint8Array(await answer.arrayBuffer());
    let left = 200 * 1024 * 1024;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(start),
      pull(controller) {
        if (left <= 0) return controller.close();
        left -= 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    return new Response(body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
}

/** A session endpoint that puts the secret key in its 5xx messages ("gateway refused key …"). */
function leakingKey(session: Handler): Handler {
  return async (request) => {
    const response = await session(request);
    if (response.status < 500) return response;
    return Response.json(
      { status: 'ERROR', error: { code: 'gateway_error', message: `The gateway refused key ${SANDBOX_SECRET_KEY}.` } },
      { status: response.status },
    );
  };
}
