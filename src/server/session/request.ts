// The session request read top to bottom before any payment step: method, content type,
// Idempotency-Key, body and the contract's validation, each refusal answered here.
import { readJsonBody, requireJson, requireMethod } from '../../contract/request-checks.js';
import type { SessionRequest } from '../../contract/schemas.js';
import type { Reply } from '../http/reply.js';
import { isValidIdempotencyKey } from '../stores/idempotency-types.js';
import { NOT_SET_UP, sessionError } from './outcomes.js';
import type { SessionReplies } from './replies.js';
import { validateSessionRequest } from './validate.js';

export type RequestLimits = {
  /** The methods allowed, for the `Allow` header of a 405. */
  methods: string;
  /** Whether a request without an Idempotency-Key is refused. */
  requireKey: boolean;
  maxBodyBytes: number;
  /** How long the body may take to arrive. */
  deadlineMs: number;
};

/** The request's Idempotency-Key (null: none sent) and its valid body, or the refusal to answer with. */
export type SessionRequestRead = { ok: true; key: string | null; body: SessionRequest } | { ok: false; reply: Reply };

export async function readSessionRequest(
  request: Request,
  limits: RequestLimits,
  replies: SessionReplies,
): Promise<SessionRequestRead> {
  const problem = requireMethod(request, limits.methods) ?? requireJson(request);
  if (problem) return refused(replies.reject(problem.code, problem.message, { headers: problem.headers }));
  const key = request.headers.get('idempotency-key');
  const badKey = checkIdempotencyKey(key, limits.requireKey, replies);
  if (badKey) return refused(badKey);
  if (request.bodyUsed)
    return refused(bodyAlreadyRead(replies, 'was already read before the session handler got the request'));
  const body = await readJsonBody(request, { maxBytes: limits.maxBodyBytes, timeoutMs: limits.deadlineMs });
  if (!body.ok && body.problem.empty && saysItHasBody(request)) {
    return refused(bodyAlreadyRead(replies, 'arrived empty although the request says it has one'));
  }
  if (!body.ok) return refused(replies.reject(body.problem.code, body.problem.message));
  const check = validateSessionRequest(body.json);
  if (!check.ok) {
    return refused(replies.reject('validation', 'Some fields are missing or invalid.', { fields: check.fields }));
  }
  return { ok: true, key, body: check.request };
}

function refused(reply: Reply): SessionRequestRead {
  return { ok: false, reply };
}

/**
 * A body something else read first, such as `express.json()` mounted before the handler: the
 * customer cannot fix it, so it is the merchant's setup error (500 `config`), named in `onEvent`.
 * An empty body is taken for one when the request's headers announce a body (a client that sent
 * none is answered 400 `invalid_json`).
 */
function bodyAlreadyRead(replies: SessionReplies, what: string): Reply {
  const problem = new Error(`the request body ${what}: mount the handler before body parsers (express.json())`);
  problem.name = 'BodyAlreadyRead';
  replies.report('config', problem);
  return sessionError('config', NOT_SET_UP);
}

function saysItHasBody(request: Request): boolean {
  return (
    Number(request.headers.get('content-length')) > 0 || /chunked/i.test(request.headers.get('transfer-encoding') ?? '')
  );
}

/** A missing key (when one is required) or a malformed one, answered before the body is read. */
function checkIdempotencyKey(key: string | null, required: boolean, replies: SessionReplies): Reply | undefined {
  if (key === null && required) {
    return replies.reject('missing_idempotency_key', 'Send an Idempotency-Key header with the request.', {
      fields: {
        'Idempotency-Key': 'Send a new random key per payment attempt, such as a UUID, and reuse it on retries.',
      },
    });
  }
  if (key !== null && !isValidIdempotencyKey(key)) {
    return replies.reject('invalid_idempotency_key', 'The Idempotency-Key header is malformed.', {
      fields: { 'Idempotency-Key': 'Use 8 to 255 visible ASCII characters, such as a UUID.' },
    });
  }
  return undefined;
}
