// A run's verdict lines (format/run-verdict.ts) under its header: what went on the wire, round trips and
// the counts beside them, atomic or not, rolled back or not; every part names who measured it. Then the
// run's keys as Redis held them after the run (keysAfter), when the run read them back, and its error
// replies in full (the diagram shortens them).
import { useMemo } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { commandText, replyText } from '../../format/command-text.ts';
import { formatCount } from '../../format/number-format.ts';
import { runVerdict } from '../../format/run-verdict.ts';
import './run-verdict-view.css';
import { observedVerdicts } from '../../../../trace/derive/observed-verdicts.ts';

export function RunVerdictView({ doc }: { doc: TraceDocument }) {
  const lines = useMemo(() => (doc.run.observed ? [] : runVerdict(doc)), [doc]);
  if (doc.run.observed) return <ObservedVerdictView doc={doc} />;
  return (
    <ul className="verdict" data-testid="verdict" aria-label="Verdict, from this run's measurements">
      {lines.map((line) => (
        <li key={line.kind} className={`verdict-line ${line.kind} tone-${line.tone}`} data-testid={`verdict-${line.kind}`}>
          {line.parts.map((part, i) => (
            <span key={part.text} className="verdict-part">
              {i > 0 && ' · '}
              {part.text}
              {part.source && <span className="source"> {part.source}</span>}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** An observed connection's verdict lines (trace/derive/observed-verdicts.ts), each with who measured it. */
export function ObservedVerdictView({ doc }: { doc: TraceDocument }) {
  const lines = useMemo(() => observedVerdicts(doc), [doc]);
  return (
    <ul className="verdict observed" data-testid="verdict" aria-label="Verdict, measured from this connection's stream">
      {lines.map((line, i) => (
        <li key={`${line.kind}-${i}`} className={`verdict-line ${line.kind} tone-plain`} data-testid={`verdict-${line.kind}`}>
          <span className="verdict-part">
            {line.text}
            <span className="source"> {line.source}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Keys shown before the rest fold away. */
const SHOWN_KEYS = 12;

export function KeysAfterView({ doc }: { doc: TraceDocument }) {
  const after = doc.keysAfter;
  if (!after) return null;
  const row = (k: { key: string; value: string | null }) => (
    <tr key={k.key}>
      <td className="key">{k.key}</td>
      <td className={k.value === null ? 'value nil' : 'value'}>{k.value ?? '(nil)'}</td>
    </tr>
  );
  return (
    <details className="keys-after" data-testid="keys-after" open={after.keys.length <= SHOWN_KEYS}>
      <summary>
        Keys after the run: {after.keys.length}
        {after.truncated ? '+ (truncated)' : ''} <span className="source">read by Pipescope before deleting them</span>
      </summary>
      <table>
        <thead>
          <tr>
            <th>key</th>
            <th>value</th>
          </tr>
        </thead>
        <tbody>{after.keys.map(row)}</tbody>
      </table>
    </details>
  );
}

/** Error replies listed at most; the rest are counted. */
const SHOWN_ERRORS = 10;

export function ErrorRepliesView({ doc }: { doc: TraceDocument }) {
  const errors = useMemo(() => doc.commands.filter((c) => 'error' in c), [doc]);
  if (errors.length === 0) return null;
  return (
    <table className="error-replies" data-testid="error-replies">
      <caption>
        Error replies: {formatCount(errors.length)} <span className="source">client socket, as Redis sent them</span>
      </caption>
      <tbody>
        {errors.slice(0, SHOWN_ERRORS).map((c) => (
          <tr key={c.index} data-index={c.index}>
            <td className="index">command {formatCount(c.index + 1)}</td>
            <td className="command">{commandText(doc.run, c.index)}</td>
            <td className="error-text">✕ {replyText(c)}</td>
          </tr>
        ))}
        {errors.length > SHOWN_ERRORS && (
          <tr>
            <td colSpan={3}>… and {formatCount(errors.length - SHOWN_ERRORS)} more</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
