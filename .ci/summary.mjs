// Reads vitest's JSON report and prints the closing line CI understands: "N passed, N failed".
// A suite that failed without a failing test (it did not load, or a hook threw) counts as one failure,
// and is named, so a broken import can never pass as "0 failed".
import { readFileSync } from "node:fs";

const file = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(file, "utf8"));
} catch (err) {
  console.log("0 passed, 0 failed");
  console.error(`no vitest report at ${file}: ${err.message}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failedTests = report.numFailedTests ?? 0;
const brokenSuites = (report.testResults ?? []).filter(
  (suite) => suite.status === "failed" && !(suite.assertionResults ?? []).some((t) => t.status === "failed"),
);
for (const suite of brokenSuites) console.error(`suite failed: ${suite.name}\n  ${(suite.message ?? "").split("\n")[0]}`);
const failed = failedTests + brokenSuites.length;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
if ((report.numTotalTests ?? 0) === 0) {
  console.error("no test ran");
  process.exit(1);
}
if (failed > 0 || report.success === false) process.exit(1);
