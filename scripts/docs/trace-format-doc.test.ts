// docs/trace-format.md must be what the schemas say today: regenerated in memory and compared, so that a
// field added, removed or re-described without running the generator fails here, with the command to run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/support/project-root.ts';
import { anchorsOf, linksOf } from './markdown-links.ts';
import { REGENERATE_COMMAND, TRACE_FORMAT_DOC, traceFormatDoc, unitOf } from './trace-format-doc.ts';

const generated = traceFormatDoc();

describe('docs/trace-format.md', () => {
  it(`is up to date with the zod schemas (else: ${REGENERATE_COMMAND})`, () => {
    const committed = readFileSync(join(projectRoot(), TRACE_FORMAT_DOC), 'utf8');
    if (committed !== generated) {
      const a = committed.split('\n');
      const b = generated.split('\n');
      const line = a.findIndex((text, i) => text !== b[i]);
      expect.fail(
        `${TRACE_FORMAT_DOC} differs from the schemas from line ${line + 1} on ` +
          `(committed: ${JSON.stringify(a[line] ?? '')}, generated: ${JSON.stringify(b[line] ?? '')}): run ${REGENERATE_COMMAND}`,
      );
    }
  });

  it('says in its first line that it is generated, and how', () => {
    expect(generated.split('\n')[0]).toMatch(new RegExp(`^<!-- Generated .* by ${REGENERATE_COMMAND}; do not edit by hand\\. -->$`));
  });

  it('documents every field of the trace, each with words', () => {
    for (const field of ['run', 'commands', 'writes', 'reads', 'serverTrace', 'counts', 'totals', 'memory', 'kernelTcp', 'keysAfter', 'neighbor', 'heldConnection', 'incomplete']) {
      expect(generated).toMatch(new RegExp(`^\\| \`${field}\` \\|`, 'm'));
    }
    // Every row of every field table has a meaning, except the constant `source` markers.
    const rows = generated.split('\n').filter((l) => /^\| `[^`]+` \|/.test(l));
    const wordless = rows.filter((l) => l.trimEnd().endsWith('|  |') && !/^\| `(source|tool)` \| `"/.test(l));
    expect(wordless).toEqual([]);
  });

  it('links only to its own sections, and each exists', () => {
    const anchors = anchorsOf(generated);
    const local = linksOf(generated).filter((l) => l.target.startsWith('#'));
    expect(local.length).toBeGreaterThan(20);
    expect(local.filter((l) => !anchors.has(l.target.slice(1)))).toEqual([]);
  });

  it('names units by the format’s naming rule', () => {
    expect([unitOf('sentUs'), unitOf('addedMs'), unitOf('valueBytes'), unitOf('bytes'), unitOf('opsPerSec'), unitOf('n')]).toEqual(['µs', 'ms', 'bytes', 'bytes', 'per second', '']);
  });
});
