// make test-flaky: reruns the suites under CPU load and names every test that failed in any run, so an
// intermittent failure is found here rather than in somebody's push. A test that failed in some runs and passed
// in others is "intermittent"; one that failed in every run is "failing". Exits 1 when any test failed.
//
//   FLAKY_VITEST_RUNS  whole vitest runs, each in shuffled order (default 20)
//   FLAKY_E2E_RUNS     runs of every browser-test file (default 3; web/e2e/run.mjs --runs)
//   FLAKY_GO_RUNS      go test -race -count (default 2)
//   FLAKY_LOAD         busy processes kept running beside the tests (default: the machine's cores)
//   FLAKY_SUITES       which suites, comma-separated: vitest,e2e,go (default all three)
// Expects what make test has built (npm packages, bin/latchd-dev, the web build); run make test first.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const web = join(root, 'web');

/** @param {string} name @param {number} fallback */
function count(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}=${JSON.stringify(raw)}: want a whole number`);
  return n;
}
const vitestRuns = count('FLAKY_VITEST_RUNS', 20);
const e2eRuns = count('FLAKY_E2E_RUNS', 3);
const goRuns = count('FLAKY_GO_RUNS', 2);
const load = count('FLAKY_LOAD', availableParallelism());
const suites = new Set((process.env.FLAKY_SUITES ?? 'vitest,e2e,go').split(',').map((s) => s.trim()).filter(Boolean));
for (const s of suites) if (!['vitest', 'e2e', 'go'].includes(s)) throw new Error(`FLAKY_SUITES: unknown suite ${JSON.stringify(s)} (vitest, e2e, go)`);

// The load: busy loops at the lowest priority, so they take what the tests leave and slow every wait in them.
const burners = Array.from({ length: load }, () => spawn('nice', ['-n', '19', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBurners = () => { for (const b of burners) b.kill('SIGKILL'); };
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
console.log(`test-flaky: ${load} busy processes beside the tests; suites: ${[...suites].join(', ')}`);

/** @type {Map<string, {suite: string, passes: number, fails: number, message: string}>} */
const results = new Map();
/** @param {string} suite @param {string} name @param {boolean} ok @param {string} [message] */
function record(suite, name, ok, message = '') {
  const key = `${suite}: ${name}`;
  const r = results.get(key) ?? { suite, passes: 0, fails: 0, message: '' };
  if (ok) r.passes++;
  else {
    r.fails++;
    r.message ||= message;
  }
  results.set(key, r);
}

const scratch = mkdtempSync(join(tmpdir(), 'latch-flaky-'));
try {
  if (suites.has('vitest')) {
    for (let run = 1; run <= vitestRuns; run++) {
      const out = join(scratch, `vitest-${run}.json`);
      const t0 = Date.now();
      spawnSync('npx', ['vitest', 'run', '--sequence.shuffle', '--reporter=dot', '--reporter=json', `--outputFile.json=${out}`],
        { cwd: web, stdio: 'ignore' });
      let report;
      try {
        report = JSON.parse(readFileSync(out, 'utf8'));
      } catch {
        record('vitest', `run ${run} wrote no report`, false);
        continue;
      }
      let failed = 0;
      for (const file of report.testResults) {
        const name = relative(web, file.name);
        if (file.status === 'failed' && file.assertionResults.every((/** @type {any} */ t) => t.status !== 'failed')) {
          record('vitest', `${name} (the file)`, false, file.message);
          failed++;
        }
        for (const t of file.assertionResults) {
          if (t.status !== 'passed' && t.status !== 'failed') continue;
          record('vitest', `${name} › ${t.fullName}`, t.status === 'passed', t.failureMessages?.[0]);
          if (t.status === 'failed') failed++;
        }
      }
      console.log(`vitest run ${run}/${vitestRuns}: ${report.numTotalTests} tests, ${failed} failed, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  }

  if (suites.has('e2e') && e2eRuns > 0) {
    // run.mjs reports its own intermittent tests; its results file gives them to this summary too.
    const out = join(scratch, 'e2e.json');
    spawnSync(process.execPath, ['e2e/run.mjs', '--runs', String(e2eRuns), '--results', out], { cwd: web, stdio: 'inherit' });
    try {
      for (const t of JSON.parse(readFileSync(out, 'utf8'))) record('browser', `${t.file} › ${t.name}`, t.ok, t.message);
    } catch {
      record('browser', 'the runner wrote no results', false);
    }
  }

  if (suites.has('go') && goRuns > 0) {
    const go = spawnSync('go', ['test', '-race', `-count=${goRuns}`, '-json', './...'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
    for (const line of go.stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      const e = JSON.parse(line);
      if (!e.Test || (e.Action !== 'pass' && e.Action !== 'fail')) continue;
      record('go', `${e.Package.replace('github.com/latchkit/latch/', '')} › ${e.Test}`, e.Action === 'pass');
    }
    if (go.status !== 0 && ![...results.values()].some((r) => r.suite === 'go' && r.fails > 0)) {
      record('go', 'go test failed outside a test (build or package)', false, go.stderr.slice(-2000));
    }
    console.log(`go test -race -count=${goRuns}: done`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  stopBurners();
}

const failed = [...results].filter(([, r]) => r.fails > 0);
console.log(`\ntest-flaky: ${results.size} tests, ${failed.length} failed at least once`);
for (const [name, r] of failed) {
  const kind = r.passes > 0 ? `intermittent: failed ${r.fails} of ${r.fails + r.passes} runs` : `failing: all ${r.fails} runs`;
  console.log(`  ✖ ${name} (${kind})`);
  if (r.message) console.log(`      ${r.message.split('\n').slice(0, 3).join('\n      ')}`);
}
process.exitCode = failed.length > 0 ? 1 : 0;
