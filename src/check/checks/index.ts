// Every check, in the order they run: secrets last, as it reads every answer the others got.
import { amountCheck } from './amount.js';
import { badInputCheck } from './bad-input.js';
import { corsCheck } from './cors.js';
import { secretsCheck } from './secrets.js';
import { sessionInvalidFields, sessionKeyRequired, sessionOtherBody, sessionReplay, sessionValid } from './session.js';
import { sessionConcurrent, sessionTimeoutRetry } from './session-retries.js';
import { statusNoToken, statusWithToken } from './status.js';
import { webhookDuplicates, webhookForged, webhookReal } from './webhooks.js';
import type { Check } from '../types.js';

export const CHECKS: readonly Check[] = [
  sessionValid,
  sessionInvalidFields,
  sessionKeyRequired,
  sessionReplay,
  sessionOtherBody,
  sessionConcurrent,
  sessionTimeoutRetry,
  amountCheck,
  statusNoToken,
  statusWithToken,
  webhookForged,
  webhookReal,
  webhookDuplicates,
  corsCheck,
  badInputCheck,
  secretsCheck,
];
