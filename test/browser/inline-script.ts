/** Pastes the text of the built script into a `<script>` with no `src`, as some site builders do. */
export async function pasteScriptInline(attributes: Record<string, string> = {}): Promise<void> {
  const text = await (await fetch('/dist/pay-widget.iife.js')).text();
  const script = document.createElement('script');
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  script.textContent = text;
  document.head.append(script); // runs at once
}

/** Uncaught errors and unhandled rejections on the page from now on. */
export function uncaughtErrors(): string[] {
  const seen: string[] = [];
  addEventListener('error', (event) => seen.push(String(event.message)));
  addEventListener('unhandledrejection', (event) => seen.push(String(event.reason)));
  return seen;
}
