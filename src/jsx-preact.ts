// `<pay-widget>` in Preact TSX. Enable it once, anywhere in the app: `import type {} from 'pay-widget/jsx-preact';`
//
//   <pay-widget session-url="/pay/session" amount={5000} onpay-initiated={(e) => save(e.detail.paymentReference)} />
//
// Preact sets `amount`, `timeout` and `disabled` as properties, hyphenated names as attributes, and
// adds `onpay-…` handlers as listeners for the `pay-…` events, as React 19 does.
import type { HTMLAttributes } from 'preact';
import type { PayWidgetAttributes, PayWidgetEventProps } from './element/framework-types.js';
import type { PayWidget } from './element/pay-widget.js';

export type PayWidgetPreactProps = HTMLAttributes<PayWidget> & PayWidgetAttributes & PayWidgetEventProps;

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'pay-widget': PayWidgetPreactProps;
    }
  }
}
