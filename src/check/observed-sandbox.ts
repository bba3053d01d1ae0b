// The check's gateway: the sandbox (src/sandbox/) behind a recorder that sees every request the
// merchant's back end makes to it (each initiation's reference and amount, each query, each token
// it bought) and two switches the checks throw: drop the answer to the next initiation after the
// sandbox created the payment (a gateway time-out whose payment exists), or answer it with a
// gateway error whose text must not reach the customer.
import {
  createSandboxGateway,
  SANDBOX_ACCESS_TOKEN,
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  type SandboxGateway,
} from '../sandbox/index.js';
import { INITIATE_PATH, QUERY_PATH_PATTERN, TOKEN_PATH } from '../contract/gateway-paths.js';
import { jsonOrUndefined, readBodyWithin } from '../contract/bounded-body.js';
import { MAX_BODY_BYTES } from '../sandbox/routes/route.js';

/** One initiation request as the sandbox received it. */
export type SeenInitiation = {
  paymentReference: string;
  amount: string;
  retry: boolean;
  httpStatus: number | 'dropped';
};

/** What the handler answers: a response, or `'drop'` to close the connection without one. */
export type ObservedAnswer = Response | 'drop';

/** A secret the merchant's answers must never carry, and what to call it in a failure. */
export type Secret = { label: string; value: string };

/** One webhook delivery attempt of the sandbox, with how long after `setStatus` it was answered. */
export type SeenDelivery = {
  paymentReference: string;
  httpStatus?: number;
  acknowledged: boolean;
  answerCut?: true;
  afterMs: number;
};

export type ObservedSandbox = {
  sandbox: SandboxGateway;
  handle(request: Request): Promise<ObservedAnswer>;
  /** Every initiation so far, in order of arrival. */
  initiations(): readonly SeenInitiation[];
  /** How many queries the sandbox answered for `paymentReference`. */
  queries(paymentReference: string): number;
  /** Requests of any kind so far (the runner waits for the first). */
  requestCount(): number;
  /** Which of the back end's settings the sandbox refused (its keys), the first time it did; undefined while none was. */
  refusedSetting(): string | undefined;
  /** The keys and every token the sandbox issued: none may appear in the merchant's answers. */
  secrets(): readonly Secret[];
  /** Marks the payment paid in the sandbox, which posts its notification to the webhook URL. */
  markPaid(paymentReference: string): boolean;
  /** The deliveries of notifications so far (one attempt each: the check allows no retry). */
  deliveries(): readonly SeenDelivery[];
  /** The next initiation creates its payment, then its connection is closed unanswered. */
  dropNextInitiation(): void;
  /** The next initiation is answered HTTP 500 with `message` (and creates nothing). */
  failNextInitiation(message: string): void;
  close(): void;
};

export function createObservedSandbox(options: { webhookUrl?: string }): ObservedSandbox {
  const delivered: SeenDelivery[] = [];
  const paidAt = new Map<string, number>();
  const sandbox = createSandboxGateway({
    merchantName: 'Check Merchant',
    ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
    // One delivery per notification: the checks judge the first answer, and nothing lingers after them.
    webhookRetryDelaysMs: [],
    onWebhook: ({ paymentReference, httpStatus, acknowledged, answerCut }) => {
      const afterMs = Date.now() - (paidAt.get(paymentReference) ?? Date.now());
      delivered.push({
        paymentReference,
        ...(httpStatus === undefined ? {} : { httpStatus }),
        acknowledged,
        ...(answerCut ? { answerCut } : {}),
        afterMs,
      });
    },
  });
  const seen: SeenInitiation[] = [];
  const queryCounts = new Map<string, number>();
  const tokens = new Set<string>();
  let requests = 0;
  let nextInitiation: { drop: true } | { fail: string } | undefined;
  let refused: string | undefined;

  async function initiation(request: Request): Promise<ObservedAnswer> {
    const body = (await jsonWithin(request.clone())) as Record<string, unknown> | undefined;
    const record: SeenInitiation = {
      paymentReference: typeof body?.paymentReference === 'string' ? body.paymentReference : '',
      amount: typeof body?.amount === 'string' ? body.amount : String(body?.amount ?? ''),
      retry: body?.retry === true,
      httpStatus: 0,
    };
    seen.push(record);
    const planned = nextInitiation;
    nextInitiation = undefined;
    if (planned && 'fail' in planned) {
      record.httpStatus = 500;
      return Response.json({ message: planned.fail, error: 'PROCESSING' }, { status: 500 });
    }
    const response = await sandbox(request);
    if (response.status === 403)
      refused ??= `the sandbox refused the initiation's publicKey: set PAY_PUBLIC_KEY=${SANDBOX_PUBLIC_KEY}`;
    record.httpStatus = planned ? 'dropped' : response.status;
    return planned ? 'drop' : response;
  }

  async function tokenIssued(request: Request): Promise<Response> {
    const sent = (await jsonWithin(request.clone())) as { key?: unknown } | undefined;
    const response = await sandbox(request);
    if (response.status === 400) refused ??= refusedKeys(sent?.key);
    const body = (await jsonWithin(response.clone())) as
      { data?: { EncryptedSecKey?: { encryptedKey?: unknown } } } | undefined;
    const token = body?.data?.EncryptedSecKey?.encryptedKey;
    if (typeof token === 'string') tokens.add(token);
    return response;
  }

  return {
    sandbox,
    async handle(request) {
      requests += 1;
      const path = new URL(request.url).pathname;
      if (request.method === 'POST' && path.endsWith(INITIATE_PATH)) return initiation(request);
      if (path.endsWith(TOKEN_PATH)) return tokenIssued(request);
      const queried = QUERY_PATH_PATTERN.exec(path)?.[2];
      if (queried !== undefined) {
        const reference = safeDecode(queried);
        queryCounts.set(reference, (queryCounts.get(reference) ?? 0) + 1);
      }
      return sandbox(request);
    },
    initiations: () => seen,
    queries: (paymentReference) => queryCounts.get(paymentReference) ?? 0,
    requestCount: () => requests,
    refusedSetting: () => refused,
    secrets: () => [
      { label: 'the secret key', value: SANDBOX_SECRET_KEY },
      { label: 'the public key', value: SANDBOX_PUBLIC_KEY },
      { label: 'the access token', value: SANDBOX_ACCESS_TOKEN },
      ...[...tokens].map((value) => ({ label: 'a bearer token the gateway issued', value })),
    ],
    markPaid(paymentReference) {
      paidAt.set(paymentReference, Date.now());
      return sandbox.setStatus(paymentReference, 'SUCCESS');
    },
    deliveries: () => delivered,
    dropNextInitiation: () => void (nextInitiation = { drop: true }),
    failNextInitiation: (message) => void (nextInitiation = { fail: message }),
    close: () => sandbox.close(),
  };
}

/**
 * Which setting is wrong when the sandbox refused `{"key":"SECRET.PUBLIC"}`: the secret key, the
 * public key, both, or the two swapped. The keys sent are never repeated (they may be real ones).
 */
function refusedKeys(key: unknown): string {
  const [secret, publicKey] =
    typeof key === 'string' ? [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)] : [];
  const wrong =
    secret === SANDBOX_PUBLIC_KEY && publicKey === SANDBOX_SECRET_KEY
      ? 'PAY_SECRET_KEY and PAY_PUBLIC_KEY are swapped'
      : secret === SANDBOX_SECRET_KEY
        ? `PAY_PUBLIC_KEY is wrong (set PAY_PUBLIC_KEY=${SANDBOX_PUBLIC_KEY})`
        : publicKey === SANDBOX_PUBLIC_KEY
          ? `PAY_SECRET_KEY is wrong (set PAY_SECRET_KEY=${SANDBOX_SECRET_KEY})`
          : `PAY_SECRET_KEY and PAY_PUBLIC_KEY are both wrong (set them as printed above)`;
  return `the sandbox refused the back end's keys: ${wrong}`;
}

/**
 * A copy's JSON, read no further than the sandbox reads the original: the copy and the original
 * share one stream (`clone()` tees it), so reading the copy whole would pull, and keep for the
 * original, all of a body the sandbox refuses after its first MAX_BODY_BYTES.
 */
async function jsonWithin(copy: Request | Response): Promise<unknown> {
  const read = await readBodyWithin(copy, MAX_BODY_BYTES);
  return read.ok ? jsonOrUndefined(new TextDecoder().decode(read.bytes)) : undefined;
}

function safeDecode(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
