import { INITIATE_PATH } from '../http/initiate-path.js';
import type { GatewayRequest } from '../schemas.js';
import type { AbortFlag } from './deadline.js';
import { exchange, readInitiation, type GatewayOutcome } from './gateway.js';

export type { CheckedEnvelope, GatewayOutcome } from './gateway.js';

export type GatewayClientOptions = {
  baseUrl: string;
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
};

/** `signal` abandons the call early (the handler's deadline); it then ends as a `timeout`. */
export type GatewayCall = (body: GatewayRequest, accessToken: string, signal?: AbortFlag) => Promise<GatewayOutcome>;

/**
 * One POST to the gateway with a token the caller already has, every way it can end turned into a
 * {@link GatewayOutcome}; it never throws. The session handler's path until it takes a
 * `createGateway` (which adds the token's life cycle); both read answers with `readInitiation`.
 */
export function createGatewayClient(options: GatewayClientOptions): GatewayCall {
  const url = options.baseUrl.replace(/\/+$/, '') + INITIATE_PATH;

  return async (body, accessToken, signal) => {
    const answer = await exchange(
      options.fetch,
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${accessToken}` },
        body: JSON.stringify(body),
      },
      options.timeoutMs,
      signal && ((abort) => signal.onAbort(abort)),
    );
    return readInitiation(answer, body.paymentType);
  };
}
