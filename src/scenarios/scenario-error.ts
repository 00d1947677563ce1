/**
 * What is wrong with a scenario: every problem found, each at its path in the document (`steps.2.advanse`)
 * or, for YAML that does not parse, at its line and column. The CLI prints the message; the control API
 * puts each problem under its path in the envelope's `errors`.
 */
import { MAX_JSON_DEPTH } from "../domain/bounds.js";

export interface ScenarioProblem {
  /** Dotted, as the API's `errors` keys are (`merchants.shop.limits.payout_min`); "" for the whole document. */
  path: string;
  detail: string;
}

/** `syntax`: the text is not YAML; `depth`: it nests past the bound; `content`: it breaks the format or a rule. */
export type ScenarioErrorKind = "syntax" | "depth" | "content";

export class ScenarioError extends Error {
  readonly problems: readonly ScenarioProblem[];

  constructor(readonly source: string, problems: ScenarioProblem[], readonly kind: ScenarioErrorKind = "content") {
    super(describeProblems(source, problems, kind));
    this.name = "ScenarioError";
    this.problems = problems;
  }

  /** The first problem's path and detail (the only ones, when there is one). */
  get path(): string {
    return this.problems[0]?.path ?? "";
  }

  get detail(): string {
    return this.problems[0]?.detail ?? "";
  }
}

/** A document nested past the bound, found before or while it was parsed: the same answer either way. */
export const tooDeep = (source: string) => new ScenarioError(source, [{ path: "", detail: `nests deeper than ${MAX_JSON_DEPTH} levels` }], "depth");

/**
 * One problem on one line; several as a count, then one indented line each (indented past the two
 * spaces `run` puts before the message, so the list reads as one block under its file).
 */
function describeProblems(source: string, problems: ScenarioProblem[], kind: ScenarioErrorKind): string {
  const at = (p: ScenarioProblem) => `at ${p.path || "(root)"}: ${kind === "syntax" ? "not valid YAML: " : ""}${p.detail}`;
  if (problems.length === 1) return `${source}: ${at(problems[0]!)}`;
  return [`${source}: ${problems.length} problems:`, ...problems.map((p) => `    ${at(p)}`)].join("\n");
}
