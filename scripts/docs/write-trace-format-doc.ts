// npm run docs:trace-format: writes docs/trace-format.md from the zod schemas (trace-format-doc.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../server/support/project-root.ts';
import { TRACE_FORMAT_DOC, traceFormatDoc } from './trace-format-doc.ts';

const path = join(projectRoot(), TRACE_FORMAT_DOC);
const text = traceFormatDoc();
let before = '';
try {
  before = readFileSync(path, 'utf8');
} catch {
  // a first write
}
writeFileSync(path, text);
console.log(before === text ? `${TRACE_FORMAT_DOC} was up to date.` : `Wrote ${TRACE_FORMAT_DOC} (${text.split('\n').length} lines).`);
