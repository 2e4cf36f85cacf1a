// What a markdown file links to, and which anchors its headings make, the way GitHub renders them: enough
// to check that every relative link in the docs lands on a file that exists and, with a #fragment, on a
// heading (or an explicit id) that exists in it. External links (http:, mailto:) are not followed: the
// check runs offline.

export interface MarkdownLink {
  /** As written: a path, a path#fragment, or #fragment alone. */
  target: string;
  /** 1-based line of the link in its file. */
  line: number;
}

/**
 * The anchor GitHub gives a heading: its rendered text in lower case, without punctuation or symbols
 * (hyphens and underscores stay), spaces turned into hyphens. `## Traces for the web: \`run.json.gz\``
 * becomes `traces-for-the-web-runjsongz`.
 */
export function githubAnchor(heading: string): string {
  // Code spans are text as written; outside them, links and images count by their text and HTML tags not at all.
  const text = heading
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part.slice(1, -1) : part.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '').replace(/\*/g, '')))
    .join('');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Each line of the file with fenced code blocks blanked (their text is not markdown). */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    return line;
  });
}

/** Inline code spans blanked, so that `[a](b)` inside backticks is not taken for a link. */
const withoutCodeSpans = (line: string): string => line.replace(/(`+)(?:(?!\1).)+?\1/g, (m) => ' '.repeat(m.length));

/** The anchors a file's headings make (numbered like GitHub when repeated), and its explicit ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = githubAnchor(heading);
      const n = counts.get(base) ?? 0;
      counts.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/**
 * Every link and image target in the file's prose: inline `[text](target)` (its text may run over several
 * lines, as long image descriptions do), reference definitions, and HTML src/href.
 */
export function linksOf(markdown: string): MarkdownLink[] {
  const lines = proseLines(markdown).map(withoutCodeSpans);
  const prose = lines.join('\n');
  const lineAt = (index: number) => prose.slice(0, index).split('\n').length;
  const links: MarkdownLink[] = [];
  const add = (target: string, index: number) => links.push({ target: target.trim().replace(/^<|>$/g, ''), line: lineAt(index) });
  // [text](target "title") — the text may hold nested brackets ([`a[]`](b)) one level deep.
  for (const match of prose.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) add(match[1]!, match.index);
  for (const match of prose.matchAll(/^ {0,3}\[[^\]\n]+\]:\s+(\S+)/gm)) add(match[1]!, match.index);
  for (const match of prose.matchAll(/<(?:a|img|source)\s[^>]*?(?:href|src)="([^"]+)"/g)) add(match[1]!, match.index);
  return links.sort((a, b) => a.line - b.line);
}

/** Links that leave the repository's files: another scheme, or a protocol-relative URL. */
export const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

export interface CodePath {
  /** As written inside the backticks: `server/app/live/`, `views/run/run-panel-view.tsx`, `mode-plan.ts`. */
  path: string;
  line: number;
}

/** A file name with an extension (a slash-free span must be a source file's name: `data.json` may be the user's). */
const FILE_NAME = /\.[a-z]{1,4}$/;
const SOURCE_FILE = /\.(?:ts|tsx|mjs|css|html|md|py|rb)$/;
/** Characters that make a code span a value, a URL, a glob or a command rather than a path. */
const NOT_A_PATH = /[\s:*?=<>{}#@$'"`,;()|\\]|^[-.]|\.\.|^\//;

/**
 * The repository paths the prose names in code spans: a folder (`web/src/url/`), a file in a folder
 * (`app/cli/serve-options.ts`) or a source file's name (`mode-plan.ts`), and nothing that makes it a
 * value, a URL, a glob, a MIME type or a command. Fenced code is not prose and is not read.
 */
export function codePathsOf(markdown: string): CodePath[] {
  const paths: CodePath[] = [];
  proseLines(markdown).forEach((line, i) => {
    for (const match of line.matchAll(/(`+)((?:(?!\1).)+?)\1/g)) {
      const span = match[2]!.trim();
      if (NOT_A_PATH.test(span)) continue;
      const inFolder = /^[\w.-]+(?:\/[\w.-]+)*\/?$/.test(span) && span.includes('/') && (span.endsWith('/') || FILE_NAME.test(span));
      if (inFolder || (!span.includes('/') && SOURCE_FILE.test(span))) paths.push({ path: span, line: i + 1 });
    }
  });
  return paths;
}
