'use client';
// <pay-widget> in a client component: React 19 renders the element with its attributes, and the
// element is registered in the browser only (import('pay-widget') in an effect), where it upgrades.
// React 19 adds `onpay-…` props as listeners for the widget's `pay-…` events.
import { useEffect, useState } from 'react';

export function Checkout() {
  const [reference, setReference] = useState();
  useEffect(() => {
    import('pay-widget');
  }, []);

  // Sandbox only: "the customer paid" for the last payment the widget started.
  const paid = () =>
    fetch('/pay/simulate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentReference: reference }),
    });

  return (
    <>
      <pay-widget
        session-url="/pay/session"
        status-url="/pay/status"
        amount="5000"
        currency="NGN"
        onpay-initiated={(event) => setReference(event.detail.paymentReference)}
      />
      {reference && (
        <p>
          Sandbox: <button type="button" onClick={paid}>The customer paid</button>
        </p>
      )}
    </>
  );
}
