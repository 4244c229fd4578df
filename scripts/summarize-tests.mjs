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
  const counted = (r.numFailedTests ?? 0) + countFilesFailedOutsideTests(r);
  // vitest fails a run with no failed test on an unhandled error: that is one failure too.
  if (counted === 0 && r.success === false)
    console.error(`${file}: the run failed outside any test (an unhandled error)`);
  failed += counted === 0 && r.success === false ? 1 : counted;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);

function countFilesFailedOutsideTests(r) {
  // A test file that failed with no failed test in it (it crashed on import, a hook threw) is one
  // failure; a file that failed through its tests is counted through them. (`numFailedTestSuites`
  // also counts every describe block a failed test sits in, so it would count one failure twice.)
  return (r.testResults ?? []).filter(
    (s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
}
