import { isJsonContentType } from '../wire/json-content-type.js';
import { CUSTOMER_FIELD_PATTERNS } from '../rules.js';
import { gatewayRequestSchema, type GatewayRequest, type PaymentStatus, type StatusResponse } from '../schemas.js';
import { INITIATE_PATH, QUERY_PATH_PATTERN, TOKEN_PATH } from '../wire/gateway-paths.js';
import {
  failure,
  incompleteEnvelope,
  json,
  labelledError,
  queryAnswerBody,
  notificationBody,
  tokenAnswerBody,
  transferEnvelope,
  ussdEnvelope,
  type SandboxPaymentRecord,
  type SuccessEnvelope,
} from './answers.js';
import { magicAmountOf } from './magic-amounts.js';
import { createSandboxTokens } from './tokens.js';
import { ussdDialCode } from './ussd-short-codes.js';
import { createWebhookSender, DEFAULT_RETRY_DELAYS_MS, type WebhookAttempt } from './webhooks.js';

export const SANDBOX_ACCESS_TOKEN = 'sk_sandbox_3f9c2a7e5d1b4c8a';
export const SANDBOX_PUBLIC_KEY = 'pk_sandbox_7b1e4d9a2c6f8e05';
/** The dashboard's secret key of the sandbox's merchant: with the public key, it buys tokens at `encrypt/keys`. */
export const SANDBOX_SECRET_KEY = 'sk_sandbox_secret_5e8a1c4f9b2d7e63';

export type SandboxGatewayOptions = {
  /** The bearer token it accepts; default {@link SANDBOX_ACCESS_TOKEN}. */
  accessToken?: string;
  /** The `publicKey` it accepts; default {@link SANDBOX_PUBLIC_KEY}. */
  publicKey?: string;
  /** Used to build TRANSFER wallet names; default `Sandbox Merchant`. */
  merchantName?: string;
  /** The bank that holds TRANSFER accounts; default `Sandbox Bank`. */
  bankName?: string;
  /** Added to every answer, to feel a network; default 0. */
  latencyMs?: number;
  /** How long magic amount 504 waits before answering; default 35 000 ms. */
  slowMs?: number;
  /** Source of randomness for numbers and references, for reproducible tests; default `Math.random`. */
  random?: () => number;
  /** The secret key `encrypt/keys` accepts with `publicKey`; default {@link SANDBOX_SECRET_KEY}. */
  secretKey?: string;
  /** How long a token from `encrypt/keys` is accepted, then 401; default one hour. */
  tokenTtlMs?: number;
  /** Clock for token expiry and dates, for tests; default `Date.now`. */
  now?: () => number;
  /** Where to POST the gateway's notification when `setStatus` marks a payment paid or failed. */
  webhookUrl?: string;
  /** Used to deliver webhooks; default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Waits before each retry of an unacknowledged webhook; default the gateway's 30 s, 2 min, 10 min, 30 min, 1 h. */
  webhookRetryDelaysMs?: readonly number[];
  /** Sends every notification twice, at once, to rehearse de-duplication; default false. */
  duplicateWebhooks?: boolean;
  /** Told about every delivery attempt (the demo's event log). */
  onWebhook?: (attempt: WebhookAttempt) => void;
};

export type SandboxStatus = { status: PaymentStatus; message: string | undefined };

export type SandboxGateway = ((request: Request) => Promise<Response>) & {
  /** A `fetch` that reaches this sandbox in-process, for `createSessionHandler({ fetch })`. */
  fetch: typeof globalThis.fetch;
  /** Marks a payment paid or failed; false when the reference is unknown. */
  setStatus(paymentReference: string, status: 'SUCCESS' | 'FAILED', message?: string): boolean;
  /** `PENDING` after initiation until `setStatus`; undefined when the reference is unknown. */
  lookup(paymentReference: string): (StatusResponse & SandboxStatus) | undefined;
  /** Resolves once every webhook sent so far was acknowledged or given up (for tests). */
  webhooksSettled(): Promise<void>;
  /** Cancels waiting webhook retries; nothing more is sent. */
  close(): void;
};

type Payment = SandboxPaymentRecord & { envelope: SuccessEnvelope };

const DEFAULT_MESSAGES = { SUCCESS: 'Payment received.', FAILED: 'Payment failed.' } as const;
/** RFC 7235: the scheme is case-insensitive (`Bearer`, `bearer`), then one or more spaces, then the token. */
const BEARER = /^bearer +(.+)$/i;

/**
 * An offline stand-in for the gateway's `POST {base_url}/api/v2/payments/initiates`, faithful to
 * spec/payment-initiation.md. Any path ending in that suffix is served, so it can be mounted under a
 * prefix. Magic amounts ({@link MAGIC_AMOUNTS}) produce failures and delays.
 */
export function createSandboxGateway(options: SandboxGatewayOptions = {}): SandboxGateway {
  assertWebhookOptions(options);
  const accessToken = options.accessToken ?? SANDBOX_ACCESS_TOKEN;
  const publicKey = options.publicKey ?? SANDBOX_PUBLIC_KEY;
  const merchantName = options.merchantName ?? 'Sandbox Merchant';
  const bankName = options.bankName ?? 'Sandbox Bank';
  const slowMs = options.slowMs ?? 35_000;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const tokens = createSandboxTokens({
    secretKey: options.secretKey ?? SANDBOX_SECRET_KEY,
    publicKey,
    accessToken,
    ttlMs: options.tokenTtlMs ?? 3_600_000,
    now,
  });
  const webhooks =
    options.webhookUrl === undefined
      ? undefined
      : createWebhookSender({
          url: options.webhookUrl,
          fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
          retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
          onAttempt: options.onWebhook,
        });
  const payments = new Map<string, Payment>();
  // A counter behind every number keeps them unique; the random offset keeps them from looking sequential from 1.
  const offset = Math.floor(random() * 8000);
  let sequence = 0;

  function nextNumbers() {
    sequence += 1;
    const n = offset + sequence;
    return {
      dialNumber: String(1000 + (n % 9_000_000)),
      accountNumber: `90${String(n % 1e8).padStart(8, '0')}`,
      wallet: `80${String((n * 7 + 13) % 1e8).padStart(8, '0')}`,
      reference: `${Date.now().toString(36).toUpperCase()}${String(n).padStart(8, '0')}`,
    };
  }

  function createPayment(body: GatewayRequest): Payment {
    const numbers = nextNumbers();
    const envelope =
      body.paymentType === 'USSD'
        ? ussdEnvelope({
            paymentReference: body.paymentReference,
            linkingReference: `LNK${numbers.reference}`,
            providerreference: `PRV${numbers.reference}`,
            ussdDailCode: ussdDialCode(body.bankCode!, numbers.dialNumber),
          })
        : transferEnvelope({
            paymentReference: body.paymentReference,
            walletName: `${merchantName} / ${body.fullName}`,
            wallet: numbers.wallet,
            bankName,
            accountNumber: numbers.accountNumber,
          });
    const time = now();
    const payment: Payment = {
      paymentReference: body.paymentReference,
      paymentType: body.paymentType,
      amount: body.amount,
      currency: body.currency,
      country: body.country,
      fullName: body.fullName,
      email: body.email,
      mobileNumber: body.mobileNumber,
      envelope,
      status: 'PENDING',
      message: undefined,
      createdAt: time,
      updatedAt: time,
    };
    payments.set(body.paymentReference, payment);
    return payment;
  }

  function authorised(request: Request): boolean {
    return tokens.accepts(BEARER.exec(request.headers.get('authorization') ?? '')?.[1]);
  }

  /** §1: `{"key":"SECRET.PUBLIC"}` → a token in the gateway's shape; no Authorization header needed. */
  async function issueToken(request: Request): Promise<Response> {
    if (request.method !== 'POST') return failure(405, 'Method not allowed.', { headers: { allow: 'POST' } });
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return labelledError(400, 'Bad Request', 'The body is not valid JSON.');
    }
    const token = tokens.issue((body as { key?: unknown } | null)?.key);
    return token ? json(200, tokenAnswerBody(token)) : labelledError(400, 'Bad Request', 'Invalid merchant keys.');
  }

  /** §2: the payment's state in the gateway's codes; an unknown reference is HTTP 500, as the gateway does. */
  function query(request: Request, encodedReference: string): Response {
    if (request.method !== 'GET') return failure(405, 'Method not allowed.', { headers: { allow: 'GET' } });
    if (!authorised(request)) return unauthorised();
    let reference: string;
    try {
      reference = decodeURIComponent(encodedReference);
    } catch {
      return failure(400, 'The reference is not valid URL encoding.');
    }
    const payment = payments.get(reference);
    return payment ? json(200, queryAnswerBody(payment)) : labelledError(500, 'No transaction found', 'PROCESSING');
  }

  async function initiate(request: Request): Promise<Response> {
    if (request.method !== 'POST') return failure(405, 'Method not allowed.', { headers: { allow: 'POST' } });
    if (!authorised(request)) return unauthorised();
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return failure(415, 'Content-Type must be application/json.');
    }
    let raw: unknown;
    try {
      raw = await request.json();
    } catch {
      return failure(400, 'The body is not valid JSON.');
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return failure(400, 'The body must be a JSON object.');
    if ((raw as { publicKey?: unknown }).publicKey !== publicKey) return failure(403, 'Invalid public key.');
    const parsed = gatewayRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'body')))];
      return failure(400, `Invalid field(s): ${fields.join(', ')}.`);
    }
    const body = parsed.data;
    const ruleBroken = checkTypeRules(body, raw as object);
    if (ruleBroken) return failure(400, ruleBroken);

    const existing = payments.get(body.paymentReference);
    if (existing) {
      return existing.paymentType === body.paymentType && existing.amount === body.amount
        ? json(200, existing.envelope)
        : failure(409, 'This paymentReference was already used for another payment.');
    }

    switch (magicAmountOf(body.amount)) {
      case 402:
        return failure(402, 'Insufficient funds', { status: 'FAILED', code: '51' });
      case 422:
        return json(200, incompleteEnvelope(body.paymentType, body.paymentReference));
      case 500:
        return failure(500, 'System malfunction, please try again', { code: '96' });
      case 502:
        return new Response('{"status":"SUCCESS","data":{"code":null,"payme', {
          headers: { 'content-type': 'application/json' },
        });
      case 503:
        return new Response(null, { status: 503 });
      case 504: {
        const payment = createPayment(body);
        await delay(slowMs, request.signal);
        return json(200, payment.envelope);
      }
      default:
        return json(200, createPayment(body).envelope);
    }
  }

  const gateway = async (request: Request): Promise<Response> => {
    if (options.latencyMs) await delay(options.latencyMs, request.signal);
    const path = new URL(request.url).pathname;
    if (path.endsWith(INITIATE_PATH)) return initiate(request);
    if (path.endsWith(TOKEN_PATH)) return issueToken(request);
    const queried = QUERY_PATH_PATTERN.exec(path);
    if (queried) return query(request, queried[2]!);
    return failure(404, 'Not found.');
  };

  return Object.assign(gateway, {
    fetch: ((input, init) => gateway(new Request(input, init))) as typeof globalThis.fetch,
    setStatus(paymentReference: string, status: 'SUCCESS' | 'FAILED', message?: string): boolean {
      const payment = payments.get(paymentReference);
      if (!payment) return false;
      payment.status = status;
      payment.message = message ?? DEFAULT_MESSAGES[status];
      payment.updatedAt = now();
      const notification = notificationBody(payment, publicKey, crypto.randomUUID());
      webhooks?.send(paymentReference, notification);
      if (options.duplicateWebhooks) webhooks?.send(paymentReference, notification);
      return true;
    },
    lookup(paymentReference: string) {
      const payment = payments.get(paymentReference);
      return payment && { status: payment.status, message: payment.message };
    },
    webhooksSettled: async () => webhooks?.settled(),
    close: () => webhooks?.close(),
  });
}

/** The token and webhook options, refused when created rather than failing on the first delivery. */
function assertWebhookOptions(options: SandboxGatewayOptions): void {
  const fail = (problem: string) => {
    throw new TypeError(`createSandboxGateway: ${problem}`);
  };
  if (options.webhookUrl !== undefined && !(typeof options.webhookUrl === 'string' && URL.canParse(options.webhookUrl))) {
    fail('webhookUrl must be an absolute URL');
  }
  const ttl = options.tokenTtlMs;
  if (ttl !== undefined && !(typeof ttl === 'number' && ttl > 0)) fail('tokenTtlMs must be a positive number');
  const delays = options.webhookRetryDelaysMs;
  if (delays !== undefined && !(Array.isArray(delays) && delays.every((ms) => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0))) {
    fail('webhookRetryDelaysMs must be a list of finite, non-negative numbers');
  }
}

function unauthorised(): Response {
  return failure(401, 'Missing or invalid access token.', { headers: { 'www-authenticate': 'Bearer' } });
}

/** Spec 4.1 rules 1 and 2. */
function checkTypeRules(body: GatewayRequest, raw: object): string | undefined {
  if (body.paymentType === 'USSD') {
    if (body.bankCode === undefined) return 'bankCode is required for USSD.';
    if (!CUSTOMER_FIELD_PATTERNS.bankCode.test(body.bankCode)) return 'bankCode must be a short digit string.';
  } else if ('bankCode' in raw) {
    return 'bankCode must not be sent for TRANSFER.';
  }
  return undefined;
}

/** Waits like a slow network; rejects as `fetch` does when the caller aborts, so nothing hangs. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
