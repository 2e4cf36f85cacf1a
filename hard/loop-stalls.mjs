// Loaded into the backend by the hard suite (NODE_OPTIONS=--import=…): every time the event loop was
// held more than 50 ms, one line "<epoch ms> <stall ms>" is appended to $PIPESCOPE_STALL_LOG. A 5 ms
// timer that fires late by that much is the measure; it never keeps the process alive.
import { appendFileSync } from 'node:fs';

const file = process.env.PIPESCOPE_STALL_LOG;
if (file) {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 50) appendFileSync(file, `${Date.now()} ${Math.round(now - last)}\n`);
    last = now;
  }, 5).unref();
}
