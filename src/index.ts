import './define.js';

export { PayWidget } from './element/pay-widget.js';
export { DEFAULT_BANKS, type Bank } from './element/banks.js';
export type { Initiate, InitiateOptions } from './element/client.js';
export type * from './element/events.js';
export { PAY_ERROR_CODES } from './element/events.js';
export type { Messages } from './element/messages/index.js';
export { loadLocale } from './element/translations.js';
export type {
  Instructions,
  Order,
  PaymentStatus,
  PaymentType,
  SessionRequest,
  TransferInstructions,
  UssdInstructions,
} from './contract/schemas.js';
