// The checkout page: the widget, drawn in the browser (app/checkout.js).
import { Checkout } from './checkout.js';

export default function Page() {
  return (
    <main style={{ maxWidth: 480, margin: '2rem auto', fontFamily: 'system-ui, sans-serif' }}>
      <h1>Checkout</h1>
      <Checkout />
    </main>
  );
}
