// `<pay-widget>` as frameworks write it, for the type declarations a merchant enables with one
// import: `pay-widget/jsx-react` (React 19), `pay-widget/jsx-preact` and `pay-widget/vue` (GlobalComponents).
// Types only; nothing here runs.
import type { PayEventMap } from './events.js';
import type { PaymentType } from '../contract/schemas.js';

/**
 * What a framework may set, by property name. Frameworks set a property when the element has one
 * (`amount`, `timeout`, `disabled`, …), so those take numbers, booleans and arrays as the element does.
 */
export type PayWidgetProperties = {
  sessionUrl?: string;
  statusUrl?: string;
  amount?: string | number;
  currency?: string;
  country?: string;
  paymentTypes?: string | readonly PaymentType[];
  paymentType?: PaymentType | Lowercase<PaymentType>;
  fullName?: string;
  email?: string;
  mobileNumber?: string;
  paymentReference?: string;
  locale?: string;
  timeout?: number | string;
  disabled?: boolean;
  colorScheme?: 'light' | 'dark' | 'auto';
  /** `off`: a reload shows the form, not the attempt kept from before it. */
  resume?: 'on' | 'off';
};

type KebabCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${KebabCase<Tail>}`
  : S;

/**
 * The same, by attribute name (`session-url`, `amount`, …), as written in JSX markup. A hyphenated
 * name is no property of the element, so React sets it as an attribute: `payment-types` takes the
 * space-separated string only.
 */
export type PayWidgetAttributes = {
  [K in keyof PayWidgetProperties as KebabCase<K>]: K extends 'paymentTypes' ? string : PayWidgetProperties[K];
};

/**
 * `on` + the event's name (`onpay-initiated`): React 19 and Preact add a listener for the event of
 * that name to a custom element, so the handler gets the typed `CustomEvent`.
 */
export type PayWidgetEventProps = {
  [K in keyof PayEventMap as `on${K}`]?: (event: PayEventMap[K]) => void;
};
