// Entry: the French strings; beside the script tag, dist/pay-widget.fr.js.
export { messages } from '../../messages/fr.js';
