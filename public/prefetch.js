// Traces named by ?trace= start downloading now, while the app itself loads; the app takes these
// requests over (web/src/state/trace-files.ts, prefetchedBody) as responses, reads their bodies within
// its size limit and gunzips a .json.gz itself (web/src/base/fetch-body.ts, gzip-text.ts). A plain script, loaded by index.html before the app's module: it
// must not wait for the module graph. It is a file, not inline, so that the Content-Security-Policy can
// forbid inline scripts (server/app/access/security-headers.ts).
// Same choice of URLs as traceUrlsFromSearch: trimmed, non-empty, the first MAX_TRACE_FILES (240).
window.pipescopePrefetch = new Map(
  new URLSearchParams(location.search).getAll('trace')
    .map(function (url) { return url.trim(); })
    .filter(function (url) { return url.length > 0; })
    .slice(0, 240)
    .map(function (url) {
      var response = fetch(url, { credentials: 'omit' });
      response.catch(function () {}); // reported when the app takes it over
      return [url, response];
    }),
);
