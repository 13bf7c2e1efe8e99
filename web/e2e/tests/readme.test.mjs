// The README's "Try it": its shell commands run against a fresh `latchd dev` (with the demo, as `make dev`
// starts it), and each answer must have the shape the README shows after the command (fields and their types,
// not values); the start-up lines latchd prints must be the README's, values aside. Needs bash, curl and jq.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startLatchd } from '../lib/latchd.mjs';
import { lineShape, outputDifferences, parseTryIt, readTryIt, shapeDifferences } from '../lib/readme.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');

/** @type {import('../lib/latchd.mjs').Latchd} */
let latchd;
before(async () => {
  if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);
  latchd = await startLatchd({ extraArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });
});
after(async () => {
  await latchd?.stop();
});

/**
 * Runs the steps' commands in one bash (variables carry over, as in a terminal), with the README's
 * localhost:8080 pointed at this latchd, and returns each step's output.
 * @param {import('../lib/readme.mjs').TryItStep[]} steps
 * @param {string} apiHost  127.0.0.1:<port>
 * @returns {Promise<string[]>}
 */
async function runSteps(steps, apiHost) {
  const marker = (i) => `@@latch-readme-step-${i}@@`;
  const script = steps.map((step, i) => `echo '${marker(i)}'\n${step.command.replaceAll('localhost:8080', apiHost)}`).join('\n');
  const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise((resolveExit) => child.once('exit', resolveExit));
  clearTimeout(timer);
  assert.equal(code, 0, `the README's commands failed (exit ${code}):\n${stderr}\n--- output ---\n${stdout}`);
  return steps.map((_, i) => {
    const start = stdout.indexOf(`${marker(i)}\n`);
    assert.ok(start >= 0, `step ${i + 1} printed no marker:\n${stdout}`);
    const from = start + marker(i).length + 1;
    const next = stdout.indexOf(`${marker(i + 1)}\n`, from);
    return stdout.slice(from, next < 0 ? undefined : next);
  });
}

test("the README's Try it commands answer in the shapes it shows", async () => {
  const { steps } = await readTryIt();
  const outputs = await runSteps(steps, new URL(latchd.apiUrl).host);
  const failures = [];
  for (const [i, step] of steps.entries()) {
    const differences = outputDifferences(step, /** @type {string} */ (outputs[i]));
    if (differences.length > 0) {
      failures.push(`step ${i + 1}:\n${step.command}\n  ${differences.join('\n  ')}\n  printed: ${outputs[i]}`);
    }
  }
  assert.deepEqual(failures, [], `the README's Try it differs from latchd:\n${failures.join('\n\n')}`);
});

test('latchd dev prints the start-up lines the README shows', async () => {
  const { startup } = await readTryIt();
  const lines = latchd.output().split('\n');
  const first = lines.findIndex((line) => line.startsWith('latchd dev ready'));
  assert.ok(first >= 0, `latchd printed no "latchd dev ready" line:\n${latchd.output()}`);
  const printed = [lines[first], ...lines.slice(first + 1).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('  ')))];
  assert.deepEqual(printed.map(lineShape), startup.map(lineShape));
});

// The comparison itself, so a README that drifts cannot pass by a lenient check.
test('shapes: a missing or extra field, a changed type and an emptied list are differences; values are not', () => {
  // the faucet answer the API table documented before it was checked
  assert.deepEqual(shapeDifferences({ txHash: '0x1', amount: '1' }, { txHash: '0x2', amount: '2', caipNetworkId: 'eip155:1', token: 'USDC' }), [
    '$.caipNetworkId: in fact, missing in the README',
    '$.token: in fact, missing in the README',
  ]);
  assert.deepEqual(shapeDifferences({ amount: '1' }, { amount: 1 }), ['$.amount: string in the README, number in fact']);
  assert.deepEqual(shapeDifferences({ names: ['MetaMask'] }, { names: [] }), ['$.names: entries in the README, empty in fact']);
  assert.deepEqual(shapeDifferences({ list: [{ a: 1 }] }, { list: [{ a: 2 }, { b: 3 }] }).length, 2);
  assert.deepEqual(shapeDifferences({ count: 1, names: ['a'] }, { count: 7, names: ['b', 'c'] }), []);
  assert.equal(lineShape('  project id:  8a23a5ba0c4400fb394c49486bb18554   (created once, kept in .latch/latch.db)'), 'project id: <id> (created once, kept in .latch/latch.db)');
  assert.notEqual(lineShape('  project id:  8a23a5ba0c4400fb394c49486bb18554   (created once)'), lineShape('  project id:  0123456789abcdef0123456789abcdef'));
});

test('parsing: every command must show its output', () => {
  const readme = (tryIt) => `# x\n\n## Set-up\n\n\`\`\`\nlatchd dev ready in 1 ms\n\`\`\`\n\n${tryIt}\n## Next\n`;
  const ok = parseTryIt(readme('Try it:\n\n```sh\necho 1\n```\n\n```json\n1\n```\n'));
  assert.deepEqual(ok.steps, [{ command: 'echo 1\n', expected: '1\n', kind: 'json' }]);
  assert.deepEqual(ok.startup, ['latchd dev ready in 1 ms']);
  assert.throws(() => parseTryIt(readme('Try it:\n\n```sh\necho 1\n```\n\n```sh\necho 2\n```\n\n```\n2\n```\n')), /shows no output block/);
  assert.throws(() => parseTryIt(readme('Try it:\n\nnothing\n')), /shows no commands/);
});
