// Starts a real `latchd dev` for browser tests: free ports, a throw-away data dir, and the /dev/info it serves.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (web/e2e/lib → ../../..). */
export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** The latchd binary to run: the dev build (`make build-dev`), whose `latchd dev` has the dev chains. */
export const latchdBinary = join(repoRoot, 'bin', 'latchd-dev');

/** How long latchd may take to print its API line; a cold start is ~100 ms, CI machines are slower. */
const readyTimeoutMs = 30_000;
/** latchd's own shutdown timeout is 15 s; after this we stop waiting and kill it. */
const stopTimeoutMs = 20_000;

/**
 * @typedef {object} DevNetwork
 * @property {string} caipNetworkId  e.g. "eip155:31337"
 * @property {number} chainId
 * @property {string} name
 * @property {string} rpcUrl         http://127.0.0.1:<port>
 * @property {string} multicall3
 * @property {string} ensRegistry           the dev ENS registry (the names zone resolves under it)
 * @property {string} ensUniversalResolver  viem's contracts.ensUniversalResolver
 * @property {string} swapRouter            the dev AMM's router (Uniswap V2 functions)
 *
 * @typedef {object} DevInfo  The JSON of GET /dev/info.
 * @property {string} projectId
 * @property {string} apiUrl
 * @property {DevNetwork[]} networks
 * @property {Record<string, Record<string, {address: string, name: string, decimals: number}>>} tokens
 * @property {string} frameOrigin
 * @property {string} [adminUrl]  the admin listener (/metrics), when latchd has one (--admin-addr)
 * @property {string} [demoUrl]  the demo dapp, when latchd serves one (--demo-dir)
 * @property {string[]} accounts   the first 10 accounts of the mnemonic, funded on every dev network
 * @property {string} mnemonic
 *
 * @typedef {object} Latchd
 * @property {string} apiUrl
 * @property {DevInfo} info
 * @property {() => string} output   what latchd printed so far (stdout and stderr), for failure messages
 * @property {() => Promise<void>} stop  SIGINT, wait for exit, remove the data dir
 */

/** Builds latchdBinary when it is missing (scripts/test-e2e.sh normally builds it first). */
export function ensureLatchdBuilt() {
  if (existsSync(latchdBinary)) return;
  execFileSync('bash', ['scripts/build-latchd.sh', 'dev'], { cwd: repoRoot, stdio: 'inherit' });
}

/**
 * Starts `latchd dev` on free loopback ports with a fresh data dir and returns once /dev/info answers.
 * @param {{extraArgs?: string[]}} [options]
 * @returns {Promise<Latchd>}
 */
export async function startLatchd(options = {}) {
  ensureLatchdBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), 'latch-e2e-data-'));
  const args = [
    'dev',
    '--addr', '127.0.0.1:0',
    '--frame-addr', '127.0.0.1:0',
    '--admin-addr', '127.0.0.1:0',
    '--data-dir', dataDir,
    '--log-format', 'text',
    '--log-level', 'warn',
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(latchdBinary, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  // A test process that dies must not leave latchd (and its chains) running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { output += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk) => { output += chunk; });
  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));

  const cleanup = async () => {
    process.removeListener('exit', killOnExit);
    await rm(dataDir, { recursive: true, force: true });
  };

  let apiUrl;
  try {
    apiUrl = await new Promise((resolveReady, rejectReady) => {
      const timer = setTimeout(() => rejectReady(new Error(`latchd printed no API line in ${readyTimeoutMs} ms`)), readyTimeoutMs);
      const onData = () => {
        const match = /^\s*API:\s+(http:\/\/\S+)/m.exec(output);
        if (!match) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolveReady(match[1]);
      };
      child.stdout.on('data', onData);
      exited.then(({ code, signal }) => {
        clearTimeout(timer);
        rejectReady(new Error(`latchd exited before it was ready (code ${code}, signal ${signal})`));
      });
    });
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    await cleanup();
    throw new Error(`${err.message}\n--- latchd output ---\n${output}`);
  }

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
      await exited;
      clearTimeout(timer);
    }
    await cleanup();
  };

  try {
    const res = await fetch(`${apiUrl}/dev/info`);
    if (!res.ok) throw new Error(`GET /dev/info answered ${res.status}: ${await res.text()}`);
    /** @type {DevInfo} */
    const info = await res.json();
    return { apiUrl, info, output: () => output, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
