/**
 * Reads a scenario's YAML text into plain data, the one way for a file (`run`, `start --scenario`) and
 * for a body (POST /sandbox/v1/scenarios): YAML 1.2's core types only, no tags beyond them, no merge
 * keys, string keys, unique keys, and alias expansion bounded. Every syntax error comes back at once,
 * each at its line and column.
 */
import { parseDocument, type YAMLError } from "yaml";
import { ScenarioError, tooDeep, type ScenarioProblem } from "./scenario-error.js";

/** The media types a scenario's YAML text is posted as (with or without a charset). */
export const YAML_MEDIA_TYPES = ["application/yaml", "text/yaml"] as const;

/** Whether a Content-Type header names one of them. */
export const isYamlMediaType = (contentType: string | undefined): boolean =>
  (YAML_MEDIA_TYPES as readonly string[]).includes(contentType?.split(";")[0]?.trim().toLowerCase() ?? "");

/**
 * The most alias expansions a document may make, each weighted by the aliases inside what it names (the
 * yaml package's own count): room to reuse a few blocks, nowhere near an exponential "billion laughs".
 */
export const MAX_YAML_ALIASES = 100;

const PARSE_OPTIONS = {
  schema: "core",
  // Without this the core schema still reads YAML 1.1's !!binary, !!set, !!omap, !!pairs and !!timestamp.
  resolveKnownTags: false,
  merge: false,
  stringKeys: true,
  uniqueKeys: true,
  strict: true,
  prettyErrors: true,
  // Problems are returned, never printed by the library ("silent" would also drop a second document's error).
  logLevel: "error",
} as const;

export function readYaml(text: string, source: string): unknown {
  try {
    const doc = parseDocument(text, PARSE_OPTIONS);
    // The parser recurses: a document nested past about a thousand levels exhausts the stack. It is
    // valid YAML, just far deeper than any scenario may be; say so, as for JSON.
    if (doc.errors.some((e) => e.code === "RESOURCE_EXHAUSTION")) throw tooDeep(source);
    // An unknown tag is only a warning to the library (its value is read as a string): refuse it instead.
    const problems = [...doc.errors, ...doc.warnings].map(problemOf);
    if (problems.length > 0) throw new ScenarioError(source, problems, "syntax");
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    if (err instanceof ScenarioError) throw err;
    // The same exhaustion, met outside the composer (turning the document into data).
    if (err instanceof RangeError) throw tooDeep(source);
    if (err instanceof ReferenceError && /alias/i.test(err.message)) {
      throw new ScenarioError(source, [{ path: "", detail: `expands more aliases than the ${MAX_YAML_ALIASES} allowed (anchors with *references)` }]);
    }
    throw err;
  }
}

/** The library's message, without the position it appends (given once, as the path) or its code frame. */
function problemOf(e: YAMLError): ScenarioProblem {
  const start = e.linePos?.[0];
  const message = e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
  return { path: start ? `line ${start.line}, column ${start.col}` : "", detail: message };
}
