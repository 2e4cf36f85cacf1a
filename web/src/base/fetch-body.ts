// One GET for every web loader (?trace= traces, the recorded runs' index, the tour's manifest): the body,
// or an Error that gives the HTTP status. Each caller says what it was loading and from where.
import { textOfBody } from './gzip-text.ts';

/** The body's bytes; rejects with "HTTP 404 Not Found" (status and reason) when the response is not ok. */
export async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  return response.arrayBuffer();
}

/** The body as text, gunzipped first when it is gzip (textOfBody). */
export async function fetchText(url: string): Promise<string> {
  return textOfBody(await fetchBytes(url));
}
