/**
 * The docs' shell blocks as a reader copies them: extracted in order, the blocks the runner itself
 * stands for (starting the sandbox, installing it) told apart, and the placeholders a reader would
 * have to edit found. test/docs/shell-blocks.test.ts runs what is left.
 */
import { STATUS_OF } from "../../src/http/errors.js";

export interface ShellBlock {
  /** The block's text, as it would be pasted. */
  code: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

/** Every ```sh block of a markdown page, in order. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trimEnd() !== "```sh") continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trimEnd() !== "```"; i++) body.push(lines[i]!);
    blocks.push({ code: body.join("\n"), line: start + 1 });
  }
  return blocks;
}

/**
 * Blocks the runner stands for, by their exact lines: it starts a fresh `npm start` (what these lines
 * give) before a page, and this checkout is installed. The test suite's own line is here too: the
 * suite is what runs this test.
 */
export const RUNNER_STANDS_FOR = {
  "starts the sandbox": ["npm start", "npx merchant-sandbox start", "npm ci && npm start"],
  installs: ["npm i -D merchant-sandbox", "npm ci"],
  "runs the test suite": ["npm test", "npm ci && npm test"],
} as const;

const standsFor = new Set<string>(Object.values(RUNNER_STANDS_FOR).flat());

/** The lines a block runs: blank lines and whole-line comments left out. */
const commandLines = (code: string) =>
  code
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));

/** "skip" when every line is one the runner stands for, "run" when none is, "mixed" otherwise. */
export function blockKind(block: ShellBlock): "skip" | "run" | "mixed" {
  const lines = commandLines(block.code);
  const covered = lines.filter((l) => standsFor.has(l)).length;
  if (covered === 0) return "run";
  return covered === lines.length ? "skip" : "mixed";
}

/** Upper-case words that are real values, not names to replace. */
const REAL_UPPER_CASE = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "EOF", "TERM", "INT", "KILL", "HUP", ...Object.keys(STATUS_OF)]);
/** Variables every shell has. */
const SHELL_VARIABLES = new Set(["HOME", "PATH", "PWD", "TMPDIR", "RANDOM", "USER", "SHELL"]);

type Segment = { quote: "none" | "single" | "double" | "heredoc"; text: string; expands: boolean };

/**
 * Splits shell text into unquoted, single-quoted, double-quoted and here-document runs (comments
 * dropped). `$(...)` inside double quotes is shell again, so its quotes count as quotes.
 */
function segments(code: string): Segment[] {
  const out: Segment[] = [];
  // A context: unquoted (when opened by "$(" inside double quotes, it ends at its unmatched ")"), double or single.
  const stack: { quote: "none" | "single" | "double"; depth: number; substitution: boolean }[] = [{ quote: "none", depth: 0, substitution: false }];
  let text = "";
  const flush = () => {
    const quote = stack.at(-1)!.quote;
    if (text) out.push({ quote, text, expands: quote !== "single" });
    text = "";
  };
  const open = (quote: "none" | "single" | "double", substitution = false) => {
    flush();
    stack.push({ quote, depth: substitution ? 1 : 0, substitution });
  };
  const close = () => {
    flush();
    stack.pop();
  };
  const pendingHeredocs: { tag: string; expands: boolean }[] = [];
  let i = 0;
  while (i < code.length) {
    const frame = stack.at(-1)!;
    const c = code[i]!;
    if (frame.quote === "single") {
      if (c === "'") close();
      else text += c;
      i++;
    } else if (c === "\\") {
      text += code.slice(i, i + 2);
      i += 2;
    } else if (frame.quote === "double") {
      if (code.startsWith("$(", i)) {
        open("none", true);
        i += 2;
      } else {
        if (c === '"') close();
        else text += c;
        i++;
      }
    } else if (c === "\n" && pendingHeredocs.length) {
      text += c;
      flush();
      i = readHeredocs(code, i + 1, pendingHeredocs.splice(0), out);
    } else {
      const heredoc = /^<<-?\s*(['"]?)(\w+)\1/.exec(code.slice(i));
      if (heredoc) {
        pendingHeredocs.push({ tag: heredoc[2]!, expands: heredoc[1] === "" });
        text += " ";
        i += heredoc[0].length;
      } else if (c === "#" && (i === 0 || /\s/.test(code[i - 1]!))) {
        while (i < code.length && code[i] !== "\n") i++;
      } else if (c === "'" || c === '"') {
        open(c === "'" ? "single" : "double");
        i++;
      } else {
        if (c === "(") frame.depth++;
        if (c === ")") frame.depth--;
        if (c === ")" && frame.substitution && frame.depth === 0) close();
        else text += c;
        i++;
      }
    }
  }
  flush();
  return out;
}

/** Reads here-document bodies from `i` (the line after their command) into `out`; returns where the shell resumes. */
function readHeredocs(code: string, i: number, docs: { tag: string; expands: boolean }[], out: Segment[]): number {
  for (const doc of docs) {
    let body = "";
    while (i < code.length) {
      const end = code.indexOf("\n", i);
      const line = code.slice(i, end < 0 ? code.length : end);
      i = end < 0 ? code.length : end + 1;
      if (line.trim() === doc.tag) break;
      body += line + "\n";
    }
    out.push({ quote: "heredoc", text: body, expands: doc.expands });
  }
  return i;
}

/**
 * What a reader would have to edit before a page's blocks run: `<...>`, `pk_test_...`, an upper-case
 * word that is neither a variable assigned earlier on the page nor a real value, and a variable used
 * before any block assigns it. Each problem names its block's line.
 */
export function placeholders(blocks: ShellBlock[]): string[] {
  const assigned = new Set<string>();
  const problems: string[] = [];
  for (const block of blocks) {
    if (blockKind(block) === "skip") continue;
    const segs = segments(block.code);
    for (const seg of segs) {
      if (seg.quote === "none") {
        for (const m of seg.text.matchAll(/(?:^|[\s;&|(])(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=/g)) assigned.add(m[1]!);
        for (const m of seg.text.matchAll(/\b(?:export|read|for)\s+((?:[A-Za-z_]\w*\s*)+)/g)) for (const name of m[1]!.split(/\s+/)) if (name) assigned.add(name);
        for (const m of seg.text.matchAll(/\bexport\s+[^;\n]*/g)) for (const a of m[0].matchAll(/([A-Za-z_]\w*)=/g)) assigned.add(a[1]!);
      }
    }
    const at = `block at line ${block.line}`;
    for (const seg of segs) {
      for (const m of seg.text.matchAll(/<[A-Za-z][\w .-]*>/g)) problems.push(`${at}: ${m[0]} is a placeholder`);
      for (const m of seg.text.matchAll(/[\w=:-]+\.\.\.(?!\.)/g)) problems.push(`${at}: "${m[0]}" is a value left out`);
      if (seg.expands) {
        for (const m of seg.text.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
          const name = m[1]!;
          if (!assigned.has(name) && !SHELL_VARIABLES.has(name)) problems.push(`${at}: $${name} is used but no block before assigns it`);
        }
      }
      if (seg.quote === "none" || seg.quote === "double") {
        for (const m of seg.text.matchAll(/(?<![\w$.{-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)(?![\w=-])/g)) {
          const word = m[1]!;
          if (word.replace(/[^A-Z]/g, "").length < 2 || REAL_UPPER_CASE.has(word) || assigned.has(word)) continue;
          problems.push(`${at}: ${word} looks like a placeholder to edit (capture the value into a variable instead)`);
        }
      }
      if (seg.quote === "single" || seg.quote === "heredoc") {
        for (const m of seg.text.matchAll(/(?<![\w$.{-])([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])(?![\w-])/g)) {
          if (!REAL_UPPER_CASE.has(m[1]!)) problems.push(`${at}: ${m[1]} looks like a placeholder to edit`);
        }
      }
    }
  }
  return problems;
}

/**
 * One bash script for a page: its blocks in order under `set -euo pipefail`, each announced on stderr
 * so a failure names the block it happened in.
 */
export function pageScript(page: string, blocks: ShellBlock[]): string {
  const parts = ["set -euo pipefail"];
  blocks.forEach((block, n) => {
    if (blockKind(block) === "skip") return;
    parts.push(`printf '\\n--- %s, block %d (line %d)\\n' ${JSON.stringify(page)} ${n + 1} ${block.line} >&2`, block.code);
  });
  return parts.join("\n") + "\n";
}
