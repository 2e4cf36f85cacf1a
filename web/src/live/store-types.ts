// Shapes the run store, the sweep store and the views share: the message line under the form and
// where the documents on screen came from. Types only, apart from both stores so that neither has to
// import the other.

export interface AppMessage {
  kind: 'error' | 'info';
  text: string;
}

/**
 * Where the traces (or the sweep) on screen came from: the live backend, a file, a ?trace= URL, this
 * browser's run history, or a link naming runs the backend keeps (stored=).
 */
export type TraceSource = 'live' | 'file' | 'url' | 'history' | 'stored';
