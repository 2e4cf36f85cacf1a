// One side of a gallery card's comparison: three figures (sequential, one pipeline, the ratio) under a
// heading that says where they come from — "Published" with the source's own text, or "Measured here"
// with each figure as median [min–max] over the repeats. Test hooks: data-figure=<name> with
// data-value (the median; ms for times, a plain number for the ratio), data-min and data-max.
import type { ReactNode } from 'react';
import type { Spread } from '../../../../trace/format/sweep-format.ts';

export interface Figure {
  name: 'sequential' | 'pipeline' | 'ratio';
  label: string;
  /** The median's text. */
  text: string;
  /** "[1.1–1.4 ms]", or null when there is no range to show. */
  range: string | null;
  /** For tests: the raw median and range (µs for times). */
  spread: Spread | null;
}

interface Props {
  heading: string;
  /** Under the heading: what the figures were measured on. */
  context: ReactNode;
  figures: Figure[];
  testId: string;
}

export function GalleryFiguresView({ heading, context, figures, testId }: Props) {
  return (
    <section className="gallery-side" data-testid={testId}>
      <h4>{heading}</h4>
      <dl className="gallery-figures">
        {figures.map((f) => (
          <div key={f.name} className={`gallery-figure gallery-figure-${f.name}`}>
            <dt>{f.label}</dt>
            <dd
              data-figure={f.name}
              data-value={f.spread?.median ?? ''}
              data-min={f.spread?.min ?? ''}
              data-max={f.spread?.max ?? ''}
            >
              <span className="gallery-value">{f.text}</span>
              {f.range && <span className="gallery-range"> {f.range}</span>}
            </dd>
          </div>
        ))}
      </dl>
      <div className="gallery-context">{context}</div>
    </section>
  );
}
