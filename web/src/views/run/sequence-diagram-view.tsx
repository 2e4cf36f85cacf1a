// The React host of one sequence diagram. React renders the empty host once; the DiagramController
// draws into it and repaints through the frame scheduler, so zoom, pan and hover never re-render React.
// The wire selection goes in (a ring on its mark) and clicks on marks come out (onWireClick).
import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import type { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import type { PlaybackClock } from '../../interaction/playback-clock.ts';
import { DIAGRAM_HEIGHT } from '../../layout/diagram-geometry.ts';
import type { WireRef } from '../../model/wire-rows.ts';
import { DiagramController } from '../../paint/diagram-controller.ts';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import './sequence-diagram-view.css';

interface Props {
  doc: TraceDocument;
  /** µs at the bottom of the unzoomed plot: the longest run shown (shared scale) or this run's end. */
  domainEndUs: number;
  zoomSync: TimeZoomSync;
  /** The run panel, which carries data-render and data-commands-drawn for tests. */
  panelRef: RefObject<HTMLElement | null>;
  label: string;
  /** The wire event selected in this run, if any; reveal pans the diagram to it (a pick in the wire view). */
  selected?: WireRef | null;
  reveal?: boolean;
  onWireClick?: (ref: WireRef) => void;
  /** The playhead shared by the diagrams on screen; the diagram draws what had happened by then. */
  playback?: PlaybackClock | null;
}

export function SequenceDiagramView({ doc, domainEndUs, zoomSync, panelRef, label, selected = null, reveal = false, onWireClick, playback = null }: Props) {
  const hostRef = useRef<HTMLDivElement>(null);
  const controllerRef = useRef<DiagramController | null>(null);
  const onWireClickRef = useRef(onWireClick);

  useLayoutEffect(() => {
    onWireClickRef.current = onWireClick;
  });

  useLayoutEffect(() => {
    const controller = new DiagramController(hostRef.current!, panelRef, zoomSync, frameScheduler, label);
    controller.onWireClick = (ref) => onWireClickRef.current?.(ref);
    controllerRef.current = controller;
    return () => {
      controller.destroy();
      controllerRef.current = null;
    };
    // The label only names the diagram for screen readers; a new one is not worth a new controller.
  }, [zoomSync, panelRef]);

  useLayoutEffect(() => {
    controllerRef.current?.setData(doc, domainEndUs);
  }, [doc, domainEndUs]);

  useLayoutEffect(() => {
    controllerRef.current?.setPlayback(playback);
  }, [playback, zoomSync, panelRef]);

  useLayoutEffect(() => {
    controllerRef.current?.setSelection(selected, reveal);
  }, [selected, reveal, doc]);

  return <div className="diagram-host" ref={hostRef} style={{ height: DIAGRAM_HEIGHT }} />;
}
