// Sets data-theme="light|dark" on <html> before the first paint, so a dark page never flashes light. A
// plain script loaded by index.html in <head> (a file, not inline: the Content-Security-Policy forbids
// inline scripts). Same rule as web/src/state/theme-choice.ts, which takes over once the app loads:
// the URL hash's `theme` key wins over localStorage 'pipescope.theme'; 'auto' (or nothing) follows
// the system's prefers-color-scheme.
(function () {
  var choice = null;
  try {
    choice = new URLSearchParams(location.hash.replace(/^#/, '')).get('theme');
  } catch {
    choice = null;
  }
  if (choice !== 'light' && choice !== 'dark' && choice !== 'auto') {
    try {
      choice = localStorage.getItem('pipescope.theme');
    } catch {
      choice = null;
    }
  }
  if (choice !== 'light' && choice !== 'dark') {
    choice = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  document.documentElement.setAttribute('data-theme', choice);
})();
