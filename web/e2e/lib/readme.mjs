// The README's "Try it" section as data: its shell commands, the output it shows for each, and the start-up lines
// it says `latchd dev` prints; plus the comparison of what really came out with what the README shows, by shape
// (fields and their types), not by value.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from './latchd.mjs';

/**
 * @typedef {object} TryItStep
 * @property {string} command   the shell block, as written (addresses are localhost:8080)
 * @property {string} expected  the block shown after it: what the command prints
 * @property {'json' | 'text'} kind  json when the README marks the output block as json
 *
 * @typedef {object} ReadmeTryIt
 * @property {string[]} startup  the lines the README says `latchd dev` prints
 * @property {TryItStep[]} steps
 */

/** @param {string} markdown */
function fencedBlocks(markdown) {
  /** @type {{lang: string, body: string}[]} */
  const blocks = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(markdown); m; m = fence.exec(markdown)) blocks.push({ lang: m[1] ?? '', body: m[2] ?? '' });
  return blocks;
}

/**
 * Parses the README's set-up section: the start-up block (the one starting "latchd dev ready") and, from the
 * paragraph starting "Try it" to the next heading, each sh block with the output block that follows it.
 * @param {string} markdown
 * @returns {ReadmeTryIt}
 */
export function parseTryIt(markdown) {
  const setupStart = markdown.indexOf('\n## Set-up');
  if (setupStart < 0) throw new Error('README has no "## Set-up" section');
  const setupEnd = markdown.indexOf('\n## ', setupStart + 1);
  const setup = markdown.slice(setupStart, setupEnd < 0 ? undefined : setupEnd);

  const startupBlock = fencedBlocks(setup).find((b) => b.body.startsWith('latchd dev ready'));
  if (!startupBlock) throw new Error('README set-up shows no start-up block ("latchd dev ready …")');
  const startup = startupBlock.body.split('\n').filter((line) => line.trim() !== '');

  const tryItStart = setup.search(/^Try it/m);
  if (tryItStart < 0) throw new Error('README set-up has no paragraph starting "Try it"');
  const blocks = fencedBlocks(setup.slice(tryItStart));
  /** @type {TryItStep[]} */
  const steps = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = /** @type {{lang: string, body: string}} */ (blocks[i]);
    if (block.lang !== 'sh') throw new Error(`README Try it: a ${block.lang || 'plain'} block follows no sh block:\n${block.body}`);
    const output = blocks[i + 1];
    if (!output || output.lang === 'sh') throw new Error(`README Try it: this command shows no output block after it:\n${block.body}`);
    steps.push({ command: block.body, expected: output.body, kind: output.lang === 'json' ? 'json' : 'text' });
    i++;
  }
  if (steps.length === 0) throw new Error('README Try it shows no commands');
  return { startup, steps };
}

/** @returns {Promise<ReadmeTryIt>} */
export async function readTryIt() {
  return parseTryIt(await readFile(join(repoRoot, 'README.md'), 'utf8'));
}

/**
 * A line with its values blanked: 32-hex ids, 0x-hex, numbers; spaces collapsed. Two lines of the same shape
 * (a start-up line, a printed id) normalise alike.
 * @param {string} line
 */
export function lineShape(line) {
  return line
    .replace(/\b[0-9a-f]{32}\b/g, '<id>')
    .replace(/0x[0-9a-fA-F]+/g, '<hex>')
    .replace(/\d+/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}

/** @param {unknown} value */
function typeName(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Where `actual` differs in shape from `expected`: a field missing or extra, a type changed, an array the README
 * shows with entries coming back empty. Every entry of an actual array must have the shape of some entry the
 * README shows. Values are not compared. Returns one line per difference ([] when alike).
 * @param {unknown} expected
 * @param {unknown} actual
 * @param {string} [path]
 * @returns {string[]}
 */
export function shapeDifferences(expected, actual, path = '$') {
  const want = typeName(expected);
  const got = typeName(actual);
  if (want !== got) return [`${path}: ${want} in the README, ${got} in fact`];
  if (want === 'array') {
    const wantItems = /** @type {unknown[]} */ (expected);
    const gotItems = /** @type {unknown[]} */ (actual);
    if (wantItems.length > 0 && gotItems.length === 0) return [`${path}: entries in the README, empty in fact`];
    const out = [];
    for (const [i, item] of gotItems.entries()) {
      if (wantItems.length === 0) break;
      const tries = wantItems.map((w) => shapeDifferences(w, item, `${path}[${i}]`));
      if (tries.some((t) => t.length === 0)) continue;
      out.push(...tries.reduce((a, b) => (b.length < a.length ? b : a)));
    }
    return out;
  }
  if (want === 'object') {
    const wantObj = /** @type {Record<string, unknown>} */ (expected);
    const gotObj = /** @type {Record<string, unknown>} */ (actual);
    const out = [];
    for (const key of Object.keys(wantObj)) {
      if (!(key in gotObj)) out.push(`${path}.${key}: in the README, missing in fact`);
      else out.push(...shapeDifferences(wantObj[key], gotObj[key], `${path}.${key}`));
    }
    for (const key of Object.keys(gotObj)) {
      if (!(key in wantObj)) out.push(`${path}.${key}: in fact, missing in the README`);
    }
    return out;
  }
  return [];
}

/**
 * Compares one command's real output with the README's: JSON by shape, text line by line by lineShape.
 * @param {TryItStep} step
 * @param {string} actual
 * @returns {string[]}  differences, [] when alike
 */
export function outputDifferences(step, actual) {
  if (step.kind === 'json') {
    let want;
    try {
      want = JSON.parse(step.expected);
    } catch (err) {
      return [`the README's output is not JSON: ${err.message}`];
    }
    let got;
    try {
      got = JSON.parse(actual);
    } catch {
      return [`the command printed no JSON: ${JSON.stringify(actual.slice(0, 300))}`];
    }
    return shapeDifferences(want, got);
  }
  const want = step.expected.split('\n').filter((l) => l.trim() !== '').map(lineShape);
  const got = actual.split('\n').filter((l) => l.trim() !== '').map(lineShape);
  if (want.join('\n') === got.join('\n')) return [];
  return [`printed lines differ in shape:\n  README: ${want.join(' | ')}\n  fact:   ${got.join(' | ')}`];
}
