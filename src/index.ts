import './define.js';

export { PayWidget } from './pay-widget.js';
export { DEFAULT_BANKS, type Bank } from './banks.js';
export type { Initiate, InitiateOptions } from './client.js';
export type * from './events.js';
export { PAY_ERROR_CODES } from './events.js';
export type { Messages } from './messages/index.js';
export { loadLocale } from './messages/load.js';
export type {
  Instructions,
  Order,
  PaymentStatus,
  PaymentType,
  SessionRequest,
  TransferInstructions,
  UssdInstructions,
} from './schemas.js';
