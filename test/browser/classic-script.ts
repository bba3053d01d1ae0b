/** Loads `src` as a merchant's page does, with a classic `<script>` tag (for the script-tag build's tests). */
export function loadClassicScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${src} did not load: run \`npm run build\` first`));
    document.head.append(script);
  });
}
