// Entry: the Yoruba strings; beside the script tag, dist/pay-widget.yo.js.
export { messages } from '../../messages/yo.js';
