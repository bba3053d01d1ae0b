'use client';
// <pay-widget> in a client component: React 19 renders the element with its attributes, and the
// element is registered in the browser only (import('pay-widget') in an effect), where it upgrades.
// Listeners go on through a ref: React 19 adds `onpay-…` props as listeners when it creates the
// element, but not when it hydrates one the server rendered, as Next does with this page.
import { useEffect, useRef, useState } from 'react';

export function Checkout() {
  const widget = useRef(null);
  const [reference, setReference] = useState();
  useEffect(() => {
    import('pay-widget');
    // pay-resumed: after a reload the widget shows the payment it kept (with a status, one that had ended).
    const waiting = (event) => setReference(event.detail.status ? undefined : event.detail.paymentReference);
    const element = widget.current;
    for (const name of ['pay-initiated', 'pay-resumed']) element.addEventListener(name, waiting);
    return () => {
      for (const name of ['pay-initiated', 'pay-resumed']) element.removeEventListener(name, waiting);
    };
  }, []);

  // Sandbox only: "the customer paid" for the payment the widget shows.
  const paid = () =>
    fetch('/pay/simulate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentReference: reference }),
    });

  return (
    <>
      <pay-widget ref={widget} session-url="/pay/session" amount="5000" currency="NGN" />
      {reference && (
        <p>
          Sandbox:{' '}
          <button type="button" onClick={paid}>
            The customer paid
          </button>
        </p>
      )}
    </>
  );
}
