// pipescope-player.js: defines <pipescope-player> (player-element.ts). Built on its own into one classic
// script (vite.player.config.ts, npm run build:web) for pages that prefer a tag to an iframe; the embed
// page imports it too. Defining twice (two copies of the script on a page) keeps the first.
import '../base/zod-without-eval.ts';
import { PipescopePlayerElement, PLAYER_TAG } from './player-element.ts';

if (typeof customElements !== 'undefined' && !customElements.get(PLAYER_TAG)) customElements.define(PLAYER_TAG, PipescopePlayerElement);

export { PipescopePlayerElement, PLAYER_TAG };

declare global {
  interface HTMLElementTagNameMap {
    'pipescope-player': PipescopePlayerElement;
  }
}
