// Props for a region whose content may be wider than it (the compare table, a chart on a phone): while it
// scrolls sideways it is a named region a keyboard can focus and scroll (tabindex=0); while all of it
// fits it is a plain block, no extra Tab stop or landmark. Kept current with a ResizeObserver on the region
// and its content (rows arrive, the page narrows). The look (overflow, edge shadows) is .scroll-x's in
// controls.css; this only says whether there is anything to scroll to.
import { useCallback, useEffect, useState } from 'react';

export interface SidewaysScrollProps {
  role?: 'region';
  'aria-label'?: string;
  tabIndex?: number;
  'data-scrolls'?: 'sideways';
}

/**
 * Returns the ref to put on the region (a callback: the region may appear after the first render) and the
 * props to spread on it; `label` names the region for assistive technology while it scrolls.
 */
export function useSidewaysScroll(label: string): [(element: HTMLElement | null) => void, SidewaysScrollProps] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    if (!element || typeof ResizeObserver !== 'function') return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    measure();
    return () => observer.disconnect();
  }, [element]);
  const ref = useCallback((next: HTMLElement | null) => setElement(next), []);
  return [ref, scrolls ? { role: 'region', 'aria-label': label, tabIndex: 0, 'data-scrolls': 'sideways' } : {}];
}
