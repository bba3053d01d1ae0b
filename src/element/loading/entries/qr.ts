// Entry: the QR code of a dial code, which only a computer shows (lean-qr inside); the QR controller
// asks for it through ../load.ts. Beside the script tag it is dist/pay-widget.qr.js.
export { qrCode } from '../../qr-code.js';
