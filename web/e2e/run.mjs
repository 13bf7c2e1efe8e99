// Runs the browser tests (tests/*.test.mjs) in parallel workers. Each file is one `node --test` process with its
// own latchd dev (free ports, throw-away data dir) and its own Chromium, as lib/harness.mjs starts them, so files
// share nothing and any worker may run any file. Files start longest first, by the durations recorded in
// durations.json, which balances the workers; each file's output is printed in one piece when it ends.
//
//   node e2e/run.mjs [--workers N] [--runs K] [--record] [FILE...]
//     --workers N  files run at once (default LATCH_E2E_WORKERS, else 2, or 1 on a one-core machine)
//     --runs K     run every file K times and report the tests that failed in some runs only (make test-flaky)
//     --record     write the measured durations to durations.json (commit it when files were added or changed)
//     --results F  write every test's result to F as JSON ({file, run, name, ok, ms, message}; make test-flaky)
//     FILE         test files (names in tests/ or paths); default: every tests/*.test.mjs
// Exits non-zero when a test failed or a file did not finish within LATCH_E2E_FILE_TIMEOUT seconds (default 600).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const e2eDir = fileURLToPath(new URL('.', import.meta.url));
const testsDir = join(e2eDir, 'tests');
const durationsFile = join(e2eDir, 'durations.json');
const reporter = join(e2eDir, 'lib', 'results-reporter.mjs');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    workers: { type: 'string' },
    runs: { type: 'string', default: '1' },
    record: { type: 'boolean', default: false },
    results: { type: 'string' },
  },
});

/** @param {string} name @param {string | undefined} raw @param {number} fallback */
function positiveInt(name, raw, fallback) {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: ${JSON.stringify(raw)} is not a whole number of at least 1`);
  return n;
}

const workers = positiveInt('--workers', values.workers ?? process.env.LATCH_E2E_WORKERS, availableParallelism() > 1 ? 2 : 1);
const runs = positiveInt('--runs', values.runs, 1);
const fileTimeoutMs = positiveInt('LATCH_E2E_FILE_TIMEOUT', process.env.LATCH_E2E_FILE_TIMEOUT, 600) * 1000;

const files = positionals.length > 0
  ? positionals.map((f) => (existsSync(f) ? resolve(f) : join(testsDir, f)))
  : readdirSync(testsDir).filter((f) => f.endsWith('.test.mjs')).map((f) => join(testsDir, f));
for (const f of files) if (!existsSync(f)) throw new Error(`no test file ${f}`);

/** @type {Record<string, number>} seconds per file, as last recorded */
const recorded = existsSync(durationsFile) ? JSON.parse(readFileSync(durationsFile, 'utf8')) : {};
const known = Object.values(recorded);
const typical = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 30;
/** @param {string} file */
const expected = (file) => recorded[basename(file)] ?? typical;

// Longest first: the greedy schedule that keeps the workers' totals close. With --runs, each round is queued
// in full before the next, so a file's runs are spread over the workers and over time.
const byLength = [...files].sort((a, b) => expected(b) - expected(a));
const queue = Array.from({ length: runs }, (_, run) => byLength.map((file) => ({ file, run: run + 1 }))).flat();

/**
 * @typedef {{name: string, nesting: number, ok: boolean, skipped: boolean, ms: number, message?: string}} TestResult
 * @typedef {{file: string, run: number, ok: boolean, seconds: number, results: TestResult[], timedOut: boolean}} FileResult
 */

const started = Date.now();
const rel = (/** @type {string} */ f) => relative(process.cwd(), f);
console.log(`browser tests: ${files.length} files${runs > 1 ? ` × ${runs} runs` : ''}, ${workers} at a time`);

/** @param {{file: string, run: number}} job @returns {Promise<FileResult>} */
function runFile({ file, run }) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(
      process.execPath,
      ['--test', '--test-concurrency=1', '--test-reporter=spec', '--test-reporter-destination=stdout',
        `--test-reporter=${reporter}`, '--test-reporter-destination=stderr', file],
      // Its own process group, so a timeout stops the file's latchd and Chromium too.
      { cwd: join(e2eDir, '..'), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    let out = '';
    let results = '';
    child.stdout.setEncoding('utf8').on('data', (c) => { out += c; });
    child.stderr.setEncoding('utf8').on('data', (c) => { results += c; });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-(child.pid ?? 0), 'SIGKILL'); } catch { /* already gone */ }
    }, fileTimeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      /** @type {TestResult[]} */
      const parsed = [];
      for (const line of results.split('\n')) {
        if (!line.startsWith('{')) {
          if (line.trim()) out += `${line}\n`; // a stderr line that is not ours: show it
          continue;
        }
        try { parsed.push(JSON.parse(line)); } catch { out += `${line}\n`; }
      }
      const seconds = (Date.now() - t0) / 1000;
      const ok = code === 0 && !timedOut;
      const title = `${rel(file)}${runs > 1 ? ` (run ${run})` : ''}`;
      const status = timedOut ? `TIMED OUT after ${fileTimeoutMs / 1000} s` : ok ? 'ok' : 'FAILED';
      process.stdout.write(`\n── ${title}: ${status} in ${seconds.toFixed(1)} s\n${out}`);
      done({ file, run, ok, seconds, results: parsed, timedOut });
    });
  });
}

/** @type {FileResult[]} */
const finished = [];
await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, async () => {
  for (let job = queue.shift(); job; job = queue.shift()) finished.push(await runFile(job));
}));

// Summary: counts, the slowest files, and what failed.
const tests = finished.flatMap((f) => f.results.filter((r) => !r.skipped).map((r) => ({ ...r, file: f.file, run: f.run })));
const passed = tests.filter((t) => t.ok).length;
const failedFiles = finished.filter((f) => !f.ok);
console.log(`\nbrowser tests: ${tests.length} tests, ${passed} passed, ${tests.length - passed} failed; ${finished.length} file runs, ${failedFiles.length} failed; ${((Date.now() - started) / 1000).toFixed(1)} s with ${workers} workers`);

/** @type {Map<string, {passes: number, fails: number}>} */
const byTest = new Map();
for (const t of tests) {
  const key = `${rel(t.file)} › ${t.name}`;
  const entry = byTest.get(key) ?? { passes: 0, fails: 0 };
  if (t.ok) entry.passes++;
  else entry.fails++;
  byTest.set(key, entry);
}
const failing = [...byTest].filter(([, e]) => e.fails > 0);
for (const [key, e] of failing) {
  const kind = runs > 1 ? (e.passes > 0 ? `intermittent: failed ${e.fails} of ${e.passes + e.fails} runs` : `failed all ${e.fails} runs`) : 'failed';
  console.log(`  ✖ ${key} (${kind})`);
}
for (const f of failedFiles) {
  if (f.timedOut || !f.results.some((r) => !r.ok)) console.log(`  ✖ ${rel(f.file)}${runs > 1 ? ` (run ${f.run})` : ''}: ${f.timedOut ? 'timed out' : 'the file failed outside its tests (a hook or the process)'}`);
}

if (values.results) {
  const all = tests.map((t) => ({ file: rel(t.file), run: t.run, name: t.name, ok: t.ok, ms: t.ms, message: t.message }));
  for (const f of failedFiles) {
    if (f.timedOut || !f.results.some((r) => !r.ok)) all.push({ file: rel(f.file), run: f.run, name: '(the file)', ok: false, ms: f.seconds * 1000, message: f.timedOut ? 'timed out' : 'failed outside its tests' });
  }
  writeFileSync(values.results, JSON.stringify(all));
}

if (values.record) {
  /** @type {Record<string, number>} */
  const next = { ...recorded };
  for (const file of files) {
    const times = finished.filter((f) => f.file === file).map((f) => f.seconds);
    if (times.length > 0) next[basename(file)] = Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 10) / 10;
  }
  const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(durationsFile, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`durations recorded in ${rel(durationsFile)}`);
}

process.exitCode = failedFiles.length > 0 ? 1 : 0;
