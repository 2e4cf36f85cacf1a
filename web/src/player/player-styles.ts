// The player's CSS, inlined into the script (Vite's ?inline) and adopted by each player's shadow root:
// the app's diagram rules and theme variables (paint/diagram.css, shared with app.css, so the diagram
// looks the same in both) and the player's own (player.css). A constructed stylesheet, not a <style>
// element: a page whose Content-Security-Policy forbids inline styles (the embed page's does) still
// applies it. One sheet for every player on the page.
import diagramCss from '../paint/diagram.css?inline';
import playerCss from './player.css?inline';

let shared: CSSStyleSheet | null = null;

export function adoptPlayerStyles(root: ShadowRoot): void {
  const css = `${diagramCss}\n${playerCss}`;
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    if (!shared) {
      shared = new CSSStyleSheet();
      shared.replaceSync(css);
    }
    root.adoptedStyleSheets = [shared];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  root.append(style);
}
