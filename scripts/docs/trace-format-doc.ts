// docs/trace-format.md, written from the zod schemas themselves, so that the page cannot say one thing
// while the files say another. The schemas carry their words in .describe(); z.toJSONSchema turns them
// into plain JSON Schema (with io: 'input', what a reader accepts: a field with a default may be absent),
// and this module walks that: one section per object, one row per field — its type, unit, whether it
// must be there, and what it means. Pure: schemas in, markdown out (npm run docs:trace-format writes it;
// trace-format-doc.test.ts fails when the committed page differs).
import { z } from 'zod';
import { FORMAT_VERSION, TRACE_FORMAT, TraceDocumentSchema } from '../../trace/format/trace-format.ts';
import { SWEEP_FORMAT, SWEEP_FORMAT_VERSION, SweepDocumentSchema } from '../../trace/format/sweep-format.ts';
import { COMPACT_FORMAT, COMPACT_FORMAT_VERSION } from '../../trace/format/compact-trace.ts';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, TraceBundleSchema } from '../../trace/format/trace-bundle.ts';
import { githubAnchor } from './markdown-links.ts';

/** The command that rewrites the page; the check's failure message names it. */
export const REGENERATE_COMMAND = 'npm run docs:trace-format';
export const TRACE_FORMAT_DOC = 'docs/trace-format.md';

/** The subset of JSON Schema z.toJSONSchema writes for these schemas. */
interface JsonSchema {
  type?: string | string[];
  description?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  format?: string;
  default?: unknown;
}

/** One object schema to document, at a path such as `run.warmup` or `commands[]`. */
interface Section {
  path: string;
  schema: JsonSchema;
  /** The field's own words, from where the object is used (a nullable wrapper's description). */
  usedAs?: string;
}

function toJson(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
}

const variants = (s: JsonSchema): JsonSchema[] | undefined => s.anyOf ?? s.oneOf;
const isNull = (s: JsonSchema): boolean => s.type === 'null';

/** The schema without its `null` alternative, and whether there was one. */
function withoutNull(s: JsonSchema): { inner: JsonSchema; nullable: boolean } {
  const alternatives = variants(s);
  if (!alternatives || !alternatives.some(isNull)) return { inner: s, nullable: false };
  const rest = alternatives.filter((v) => !isNull(v));
  return { inner: rest.length === 1 ? rest[0]! : { ...s, anyOf: rest, oneOf: undefined }, nullable: true };
}

const isObject = (s: JsonSchema): boolean => s.type === 'object' && s.properties !== undefined;
/** A union whose every alternative is an object: documented as one section with its shapes. */
const isObjectUnion = (s: JsonSchema): boolean => (variants(s)?.every(isObject) ?? false) && (variants(s)?.length ?? 0) > 1;

const SAFE_MAX = Number.MAX_SAFE_INTEGER;

function numberText(s: JsonSchema): string {
  const kind = s.type === 'integer' ? 'integer' : 'number';
  const bounds: string[] = [];
  if (s.exclusiveMinimum !== undefined) bounds.push(`> ${s.exclusiveMinimum}`);
  else if (s.minimum !== undefined && s.minimum > -SAFE_MAX) bounds.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < SAFE_MAX) bounds.push(`≤ ${s.maximum}`);
  return bounds.length ? `${kind} ${bounds.join(', ')}` : kind;
}

function stringText(s: JsonSchema): string {
  if (s.format === 'date-time') return 'string (ISO 8601 date-time)';
  if (s.minLength !== undefined && s.maxLength !== undefined) return `string (${s.minLength}–${s.maxLength} characters)`;
  if (s.minLength !== undefined && s.minLength > 0) return `string (at least ${s.minLength} character${s.minLength > 1 ? 's' : ''})`;
  return 'string';
}

const literal = (value: unknown): string => `\`${JSON.stringify(value)}\``;

/** A field's type in words (an object's fields are in its own section). */
function typeText(s: JsonSchema): string {
  const { inner, nullable } = withoutNull(s);
  const text = nonNullTypeText(inner);
  return nullable ? `${text} or \`null\`` : text;
}

function nonNullTypeText(s: JsonSchema): string {
  if (s.const !== undefined) return literal(s.const);
  if (s.enum) return s.enum.map(literal).join(' | ');
  if (isObject(s) || isObjectUnion(s)) return 'object';
  const alternatives = variants(s);
  if (alternatives) return alternatives.map(nonNullTypeText).join(' or ');
  if (s.type === 'array') {
    const items = s.items ?? {};
    const of = isObject(items) || isObjectUnion(items) ? 'objects' : nonNullTypeText(items);
    return `array of ${of}${s.minItems ? ` (at least ${s.minItems})` : ''}`;
  }
  if (s.type === 'integer' || s.type === 'number') return numberText(s);
  if (s.type === 'string') return stringText(s);
  if (s.type === 'boolean') return 'boolean';
  if (Array.isArray(s.type)) return s.type.map((t) => (t === 'null' ? '`null`' : t)).join(' or ');
  if (s.type === undefined) return 'any JSON value';
  return String(s.type);
}

/** The unit a field's name carries (the format's naming rule), or "". */
export function unitOf(name: string): string {
  if (/Us$/.test(name)) return 'µs';
  if (/Ms$/.test(name)) return 'ms';
  if (/PerSec$/.test(name)) return 'per second';
  if (/^bytes/i.test(name) || /Bytes$/.test(name)) return 'bytes';
  return '';
}

/** Table cells hold one line: pipes escaped, newlines as spaces. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** An object's shape, its own words left out: the same object used in two documents is documented once. */
const shapeKey = (s: JsonSchema): string => JSON.stringify({ ...s, description: undefined });

/**
 * Every object (and union of objects) reached from the root, depth first, each with its path; an object
 * already documented (in `known`, by shape) is not repeated, nor are the objects inside it.
 */
function collectSections(root: JsonSchema, rootPath: string, known: Map<string, string>): Section[] {
  const sections: Section[] = [];
  const visit = (s: JsonSchema, path: string, usedAs?: string) => {
    const { inner } = withoutNull(s);
    if (inner.type === 'array' && inner.items) {
      visit(inner.items, `${path}[]`);
      return;
    }
    if (!isObject(inner) && !isObjectUnion(inner)) return;
    if (path && known.has(shapeKey(inner))) return;
    sections.push({ path, schema: inner, usedAs });
    const shapes = isObject(inner) ? [inner] : variants(inner)!;
    const seen = new Set<string>();
    for (const shape of shapes) {
      for (const [name, field] of Object.entries(shape.properties ?? {})) {
        if (seen.has(name)) continue;
        seen.add(name);
        visit(field, path ? `${path}.${name}` : name, field.description);
      }
    }
  };
  visit(root, rootPath);
  return sections;
}

/** The heading of a section, and so its anchor; the document itself sits under its part's heading. */
const headingOf = (section: Section, title: string): string => (section.path ? `\`${section.path}\`` : title);

interface FieldRow {
  name: string;
  field: JsonSchema;
  presence: string;
}

/** Fields of an object, or of a union's shapes merged: present in every shape, or in which ones. */
function rowsOf(schema: JsonSchema): FieldRow[] {
  const shapes = isObject(schema) ? [schema] : variants(schema)!;
  const names: string[] = [];
  for (const shape of shapes) for (const name of Object.keys(shape.properties ?? {})) if (!names.includes(name)) names.push(name);
  return names.map((name) => {
    const holders = shapes.map((shape, i) => ({ i, shape })).filter(({ shape }) => shape.properties?.[name] !== undefined);
    const field = holders[0]!.shape.properties![name]!;
    const requiredEverywhere = holders.every(({ shape }) => shape.required?.includes(name));
    let presence = requiredEverywhere ? 'required' : 'optional';
    if (field.default !== undefined) presence = `optional (absent: \`${JSON.stringify(field.default)}\`)`;
    if (holders.length < shapes.length) presence = `shape ${holders.map(({ i }) => i + 1).join(', ')} only${requiredEverywhere ? '' : ', optional'}`;
    return { name, field, presence };
  });
}

/** Where an object of this shape is documented: a section of an earlier part (its heading's path and anchor). */
type Documented = Map<string, { path: string; anchor: string; part: string }>;

function sectionText(section: Section, title: string, anchors: Map<string, string>, earlier: Documented): string {
  const lines: string[] = section.path ? [`### ${headingOf(section, title)}`, ''] : [];
  const words = [section.schema.description, section.usedAs].filter((w): w is string => !!w && w.length > 0);
  const unique = words.filter((w, i) => words.indexOf(w) === i);
  if (unique.length) lines.push(unique.join(' '), '');
  const shapes = variants(section.schema);
  if (shapes && isObjectUnion(section.schema)) {
    lines.push(`One of ${shapes.length} shapes:`, '');
    shapes.forEach((shape, i) => lines.push(`${i + 1}. ${shape.description ?? Object.keys(shape.properties ?? {}).map((k) => `\`${k}\``).join(', ')}`));
    lines.push('');
  }
  lines.push('| field | type | unit | presence | meaning |', '|---|---|---|---|---|');
  for (const { name, field, presence } of rowsOf(section.schema)) {
    const path = section.path ? `${section.path}.${name}` : name;
    const { inner } = withoutNull(field);
    const same = earlier.get(shapeKey(inner));
    if (same) {
      const words = [field.description, `The same object as the ${same.part}'s [\`${same.path}\`](#${same.anchor}).`].filter(Boolean).join(' ');
      lines.push(`| \`${name}\` | ${cell(typeText(field))} | ${unitOf(name)} | ${presence} | ${cell(words)} |`);
      continue;
    }
    // An object field's words head its own section; an array of objects keeps its words here.
    const items = inner.type === 'array' && inner.items && (isObject(inner.items) || isObjectUnion(inner.items)) ? `${path}[]` : null;
    const meaning = isObject(inner) || isObjectUnion(inner)
      ? `See [\`${path}\`](#${anchors.get(path)}).`
      : items
        ? [field.description, `Each: see [\`${items}\`](#${anchors.get(items)}).`].filter(Boolean).join(' ')
        : (field.description ?? inner.description ?? '');
    lines.push(`| \`${name}\` | ${cell(typeText(field))} | ${unitOf(name)} | ${presence} | ${cell(meaning)} |`);
  }
  lines.push('');
  return lines.join('\n');
}

/** The anchor GitHub gives each section heading, in document order (duplicates numbered as GitHub does). */
function anchorsFor(groups: { title: string; sections: Section[] }[], taken: Map<string, number>): Map<string, string>[] {
  return groups.map(({ title, sections }) => {
    const anchors = new Map<string, string>();
    anchors.set('', githubAnchor(title));
    for (const section of sections) {
      if (!section.path) continue;
      const base = githubAnchor(headingOf(section, title));
      const n = taken.get(base) ?? 0;
      taken.set(base, n + 1);
      anchors.set(section.path, n === 0 ? base : `${base}-${n}`);
    }
    return anchors;
  });
}

const INTRO = `<!-- Generated from the zod schemas in trace/format/ by ${REGENERATE_COMMAND}; do not edit by hand. -->
# The trace format

Every run Pipescope measures — live in the browser, recorded by the CLI, opened from a file, replayed in an
embed — is one JSON document: a **trace** (\`"format": "${TRACE_FORMAT}"\`, version ${FORMAT_VERSION}). A depth sweep is a
document of its own, a **sweep** (\`"format": "${SWEEP_FORMAT}"\`, version ${SWEEP_FORMAT_VERSION}); several runs shown together (a compare)
are saved as one **bundle** (\`"format": "${BUNDLE_FORMAT}"\`, version ${BUNDLE_FORMAT_VERSION}) that holds their trace documents. This page is
written from the schemas that every reader validates against (\`trace/format/trace-format.ts\`,
\`trace/format/sweep-format.ts\`, \`trace/format/trace-bundle.ts\`), so it says what the files hold.

How to read it:

- **Times** are microseconds (\`…Us\`) since **t0**, the instant the run called the client for its first
  command, on the client's monotonic clock. Pipescope's own set-up (connection, warm-up, probes, the first
  \`INFO\`) happens before t0; a few readings taken before it (the memory baseline, a neighbour's first
  commands) are negative. \`…Ms\` fields are milliseconds, \`bytes\` and \`…Bytes\` are octets; the unit column
  follows from the name.
- **Sources.** A figure that could come from more than one place names its source in a \`source\` field
  (\`client-socket\`, \`redis-info\`, \`kernel (ss)\`, \`strace\`, …).
- **Presence.** *required* fields are always there, though many may be \`null\` (a probe that was off);
  *optional* fields are absent when the run did not record them.
- **Versions.** A field added later is optional and keeps the version; only a breaking change bumps it, with a
  migration, so every older file still opens (version 1 to ${FORMAT_VERSION}: \`trace/format/trace-migration.ts\`). "Since
  version N" in a field's meaning says when it came.
- **Compact form.** A trace (or a bundle) may also be stored as \`{"format": "${COMPACT_FORMAT}", "version": ${COMPACT_FORMAT_VERSION}, …}\`: the
  same document with arrays of records stored as columns (\`trace/format/compact-trace.ts\`), usually gzipped
  as \`.json.gz\`. It decodes to the plain document byte for byte, which is then checked like any file (see
  [Embedding: traces for the web](embedding.md#traces-for-the-web-runjsongz)).
- **Checks beyond the types.** Importing a file replays its writes, reads and hops through the same builder
  a live run uses, so a file must also be consistent: no reply before its request, no execution outside its
  request and reply beyond the clock uncertainty. Export, import and export again gives the same bytes.
`;

/** The whole page. */
export function traceFormatDoc(): string {
  const documents = [
    { title: 'The trace document', part: 'trace', schema: toJson(TraceDocumentSchema) },
    { title: 'The sweep document', part: 'sweep', schema: toJson(SweepDocumentSchema) },
    { title: 'The bundle of traces', part: 'bundle', schema: toJson(TraceBundleSchema) },
  ];
  // The intro's and the part headings' anchors come first in the page.
  const taken = new Map<string, number>([[githubAnchor('The trace format'), 1]]);
  for (const { title } of documents) taken.set(githubAnchor(title), 1);
  const earlier: Documented = new Map();
  const parts = documents.map(({ title, part, schema }) => {
    const known = new Map([...earlier].map(([key, { anchor }]) => [key, anchor]));
    const group = { title, sections: collectSections(schema, '', known) };
    const anchors = anchorsFor([group], taken)[0]!;
    const body = group.sections.map((section) => sectionText(section, title, anchors, earlier)).join('\n');
    for (const section of group.sections) {
      if (section.path && !earlier.has(shapeKey(section.schema))) earlier.set(shapeKey(section.schema), { path: section.path, anchor: anchors.get(section.path)!, part });
    }
    return `## ${title}\n\n${body}`;
  });
  return `${INTRO}\n${parts.join('\n')}`.replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}
