// The RTT slider's stops: a presenter drags through link speeds that matter (loopback, LAN, metro,
// cross-region, satellite-like), so the positions are a list of milliseconds, not a linear 0–1000.
export const RTT_STOPS_MS = [0, 0.5, 1, 2, 5, 10, 20, 50, 80, 100, 150, 250, 500, 1000] as const;

/** The slider position for a typed RTT: the nearest stop at or below it (0 for anything unreadable). */
export function stopIndexFor(rttMs: string): number {
  const value = Number(rttMs);
  if (!Number.isFinite(value) || value <= 0) return 0;
  let index = 0;
  for (let i = 0; i < RTT_STOPS_MS.length; i++) if (RTT_STOPS_MS[i]! <= value) index = i;
  return index;
}

export function rttAtStop(index: number): number {
  return RTT_STOPS_MS[Math.min(RTT_STOPS_MS.length - 1, Math.max(0, Math.round(index)))]!;
}
