// Compiles every contracts/src/*.sol and src/test/*.sol with solc-js (pinned in package.json) and
// writes contracts/artifacts/<Contract>.json as {abi, bytecode}. The artifacts
// are committed, so building latchd never needs Node; run this after editing a
// source:  cd contracts && npm install && node compile.mjs
// With --check it writes nothing and fails if an artifact differs from what the
// sources compile to (make test runs it, so a stale artifact cannot land).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

const here = dirname(fileURLToPath(import.meta.url));
const srcDir = join(here, "src");
const outDir = join(here, "artifacts");

// src/*.sol and the test-only contracts of src/test/*.sol (keyed
// "test/X.sol", so their relative imports of ../X.sol resolve).
const sources = {};
for (const dir of ["", "test"]) {
  let files = [];
  try { files = readdirSync(join(srcDir, dir)); } catch {}
  for (const file of files.filter((f) => f.endsWith(".sol")).sort()) {
    const key = dir ? `${dir}/${file}` : file;
    sources[key] = { content: readFileSync(join(srcDir, key), "utf8") };
  }
}

const input = {
  language: "Solidity",
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    // Pinned rather than left to the compiler default so the bytecode does not
    // change with a compiler bump; the dev chains run every fork from genesis.
    evmVersion: "cancun",
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
  },
};

const output = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const msg of output.errors ?? []) {
  console.error(msg.formattedMessage ?? msg.message);
  if (msg.severity === "error") failed = true;
}
if (failed) process.exit(1);

const check = process.argv.includes("--check");
const stale = [];
mkdirSync(outDir, { recursive: true });
for (const [file, contracts] of Object.entries(output.contracts)) {
  for (const [name, c] of Object.entries(contracts)) {
    const artifact = { contractName: name, sourceName: `src/${file}`, compiler: solc.version(), abi: c.abi, bytecode: "0x" + c.evm.bytecode.object };
    const path = join(outDir, `${name}.json`);
    const text = JSON.stringify(artifact, null, 2) + "\n";
    if (check) {
      let have = "";
      try { have = readFileSync(path, "utf8"); } catch {}
      if (have !== text) stale.push(name);
      continue;
    }
    writeFileSync(path, text);
    console.log(`${name}: ${c.evm.bytecode.object.length / 2} bytes`);
  }
}
if (check) {
  if (stale.length) {
    console.error(`stale artifacts (run: cd contracts && node compile.mjs): ${stale.join(", ")}`);
    process.exit(1);
  }
  console.log(`artifacts match the sources (${Object.keys(sources).length} files)`);
}
