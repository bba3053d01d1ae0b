// `<pay-widget>` in React 19 TSX without the `pay-widget/react` wrapper. Enable it once, anywhere
// in the app: `import type {} from 'pay-widget/jsx-react';`
//
//   <pay-widget session-url="/pay/session" amount={5000} onpay-initiated={(e) => save(e.detail.paymentReference)} />
//
// React 19 sets `amount`, `timeout` and `disabled` as properties, hyphenated names as attributes,
// and adds `onpay-…` handlers as listeners for the `pay-…` events. `class` and `className` both work.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { PayWidgetAttributes, PayWidgetEventProps } from './element/framework-types.js';
import type { PayWidget } from './element/pay-widget.js';

export type PayWidgetJsxProps = DetailedHTMLProps<HTMLAttributes<PayWidget>, PayWidget> &
  PayWidgetAttributes &
  PayWidgetEventProps & { class?: string };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'pay-widget': PayWidgetJsxProps;
    }
  }
}
