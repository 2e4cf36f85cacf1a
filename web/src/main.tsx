// Entry point: one session store for the page, rendered by AppView. The frame scheduler publishes
// data-render-pending on <html> from the first frame on.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SessionStore } from './live/session-store.ts';
import { frameScheduler } from './paint/frame-scheduler.ts';
import { AppView } from './views/app-view.tsx';
import './app.css';

document.documentElement.dataset['renderPending'] = String(frameScheduler.pending);
const store = new SessionStore();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppView store={store} />
  </StrictMode>,
);
