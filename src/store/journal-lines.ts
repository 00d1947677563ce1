/**
 * The journal's line format: `<bytes> <crc32> <json>\n`, one line per grouped write. The length and
 * the checksum make each line self-delimiting and self-checking, so a line a crash cut short (or a
 * failed append left half written) is found and dropped: it was never acknowledged. JSON.stringify
 * never writes a raw newline, so a newline ends a line and nothing else.
 */
import { crc32 } from "node:zlib";

export function encodeLine(value: unknown): string {
  const json = JSON.stringify(value);
  return `${Buffer.byteLength(json)} ${crc32(json).toString(16)} ${json}\n`;
}

export type DecodedJournal =
  /** `goodBytes`: where the last intact line ends (a torn tail after it is cut off on load). */
  | { lines: unknown[]; goodBytes: number; torn: boolean }
  | { error: string };

/**
 * The lines of a journal, in order. Only the last line may be damaged (torn by a crash or a failed
 * append): it is left out. A damaged line before an intact one is an error: something other than a
 * crash changed the file, and replaying past it could apply changes out of order.
 */
export function decodeJournal(text: string): DecodedJournal {
  const lines: unknown[] = [];
  let at = 0;
  let goodBytes = 0;
  const parts = text.split("\n");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    if (last && part === "") break; // the file ends with a complete line
    const value = decodeLine(part);
    if (value === undefined || last) {
      // A line without its newline was cut short even if it happens to parse.
      const tailIsTorn = parts.slice(i + 1).every((p) => p === "") || last;
      if (tailIsTorn) return { lines, goodBytes, torn: true };
      return { error: `line ${i + 1} is damaged (its length or checksum does not match)` };
    }
    lines.push(value);
    at += Buffer.byteLength(part) + 1;
    goodBytes = at;
  }
  return { lines, goodBytes, torn: false };
}

function decodeLine(line: string): unknown {
  const m = /^(\d{1,10}) ([0-9a-f]{1,8}) /.exec(line);
  if (!m) return undefined;
  const json = line.slice(m[0].length);
  if (Buffer.byteLength(json) !== Number(m[1]) || crc32(json).toString(16) !== m[2]) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}
