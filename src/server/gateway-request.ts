import type { GatewayRequest, SessionRequest } from '../schemas.js';
import type { ResolvedOrder } from './order.js';

/**
 * The spec's request (2.1): customer fields from the widget, money and references from the server's
 * order, `bankCode` for USSD only.
 */
export function buildGatewayRequest(request: SessionRequest, order: ResolvedOrder, publicKey: string): GatewayRequest {
  const body: GatewayRequest = {
    publicKey,
    amount: order.amount,
    fullName: request.fullName,
    mobileNumber: request.mobileNumber,
    email: request.email,
    currency: order.currency,
    country: order.country,
    paymentReference: order.paymentReference,
    callbackUrl: order.callbackUrl,
    redirectUrl: order.redirectUrl,
    paymentType: request.paymentType,
  };
  if (request.paymentType === 'USSD') body.bankCode = request.bankCode;
  return body;
}
