import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { PayWidget as PayWidgetElement } from './index.js';
import type { PayEventMap } from './element/events.js';

const event = <K extends keyof PayEventMap>(name: K) => name as EventName<PayEventMap[K]>;

/** `<PayWidget sessionUrl="/pay/session" onPayInitiated={(e) => e.detail.paymentReference} />` */
export const PayWidget = createComponent({
  tagName: 'pay-widget',
  elementClass: PayWidgetElement,
  react: React,
  events: {
    onPayReady: event('pay-ready'),
    onPayTypeChange: event('pay-type-change'),
    onPaySubmit: event('pay-submit'),
    onPayInitiated: event('pay-initiated'),
    onPayCopy: event('pay-copy'),
    onPayComplete: event('pay-complete'),
    onPayError: event('pay-error'),
    onPayReset: event('pay-reset'),
    onPayResumed: event('pay-resumed'),
  },
  displayName: 'PayWidget',
});
