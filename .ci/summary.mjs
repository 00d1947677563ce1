// Reads vitest's JSON report and prints the closing line CI understands: "N passed, N failed".
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
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0) - 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${report.numFailedTests ?? 0} failed${skipped ? `, ${skipped} skipped` : ""}`);
if ((report.numTotalTests ?? 0) === 0) {
  console.error("no test ran");
  process.exit(1);
}
if (failed > 0 || report.success === false) process.exit(1);
