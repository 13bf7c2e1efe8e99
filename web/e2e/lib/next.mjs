// Starts the built Next.js example (web/apps/next, `next build` first) with `next start` on a free loopback
// port, pointed at a running latchd.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './latchd.mjs';

/** The example app's directory. */
export const nextAppDir = join(repoRoot, 'web', 'apps', 'next');

/** How long `next start` may take to print its address; it is ready in about a second. */
const readyTimeoutMs = 60_000;

/**
 * @typedef {object} NextServer
 * @property {string} url  http://127.0.0.1:<port>, no trailing slash
 * @property {() => string} output  what next printed so far, for failure messages
 * @property {() => Promise<void>} stop
 */

/**
 * @param {{apiUrl: string, projectId: string}} latchd  where the app's Latch finds latchd (LATCH_API_URL, LATCH_PROJECT_ID)
 * @returns {Promise<NextServer>}
 */
export async function startNext(latchd) {
  if (!existsSync(join(nextAppDir, '.next', 'BUILD_ID'))) {
    throw new Error(`the Next.js example is not built: run scripts/test-next.sh (or next build in ${nextAppDir})`);
  }
  const nextBin = join(repoRoot, 'web', 'node_modules', 'next', 'dist', 'bin', 'next');
  const child = spawn(process.execPath, [nextBin, 'start', '--port', '0', '--hostname', '127.0.0.1'], {
    cwd: nextAppDir,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      NODE_ENV: 'production',
      LATCH_API_URL: latchd.apiUrl,
      LATCH_PROJECT_ID: latchd.projectId,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { output += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk) => { output += chunk; });
  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    process.removeListener('exit', killOnExit);
  };

  try {
    const url = await new Promise((resolveReady, rejectReady) => {
      const timer = setTimeout(() => rejectReady(new Error(`next start printed no address in ${readyTimeoutMs} ms`)), readyTimeoutMs);
      const onData = () => {
        const match = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (!match || !/Ready in/.test(output)) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolveReady(match[1]);
      };
      child.stdout.on('data', onData);
      exited.then(({ code, signal }) => {
        clearTimeout(timer);
        rejectReady(new Error(`next start exited before it was ready (code ${code}, signal ${signal})`));
      });
    });
    return { url, output: () => output, stop };
  } catch (err) {
    await stop();
    throw new Error(`${err.message}\n--- next output ---\n${output}`);
  }
}
