/** Durations as people write them in levers and scenarios: "15s", "30m", "2h", "1d" (decimals allowed). */
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export const DURATION_PATTERN = /^\d+(\.\d+)?(s|m|h|d)$/;

/** Milliseconds of a duration matching DURATION_PATTERN. */
export function durationMs(text: string): number {
  return Math.round(Number(text.slice(0, -1)) * UNIT_MS[text.slice(-1) as keyof typeof UNIT_MS]);
}
