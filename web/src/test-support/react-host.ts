// For view tests in jsdom: a fresh <div> in the document and a React root on it before each test,
// unmounted and removed after. Call at the top of a describe block; read `host` and call `render`
// inside tests (both are set in beforeEach).
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface ReactHost {
  host: HTMLDivElement;
  /** Renders into the host inside act(), so effects have run when it returns. */
  render(node: ReactNode): void;
}

export function useReactHost(): ReactHost {
  let root: Root;
  const context: ReactHost = {
    host: undefined as unknown as HTMLDivElement,
    render: (node) => act(() => root.render(node)),
  };
  beforeEach(() => {
    context.host = document.createElement('div');
    document.body.append(context.host);
    root = createRoot(context.host);
  });
  afterEach(() => {
    act(() => root.unmount());
    context.host.remove();
  });
  return context;
}
