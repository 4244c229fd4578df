// Sums vitest JSON reports into the closing line CI reads: "N passed, N failed".
// A missing report (a suite that crashed before reporting) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`missing test report ${file}`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numFailedTestSuites ?? 0) - countFailedSuitesWithFailedTests(r);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);

function countFailedSuitesWithFailedTests(r) {
  // A suite that failed only because its tests failed is already counted through its tests.
  return (r.testResults ?? []).filter(
    (s) => s.status === 'failed' && (s.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
}
