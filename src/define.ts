import { PayWidget } from './element/pay-widget.js';

// Guarded so that two copies of the package on one page, or an import on a server, do no harm.
if (typeof customElements !== 'undefined' && !customElements.get('pay-widget')) {
  customElements.define('pay-widget', PayWidget);
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-widget': PayWidget;
  }
}
