// Times npm's jsonrepair (then JSON.parse, to get a value) on the generated documents;
// prints one JSON object. Run from a directory where `jsonrepair` is installed.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { jsonrepair } from "jsonrepair";

const dir = process.argv[2];
const expected = JSON.stringify(JSON.parse(readFileSync(`${dir}/expected.json`, "utf8")));
const results = {};
for (const doc of ["messy", "messy_common"]) {
  const text = readFileSync(`${dir}/${doc}.json`, "utf8");
  const size = Buffer.byteLength(text, "utf8");
  const run = () => JSON.parse(jsonrepair(text));
  let out;
  try {
    out = run(); // warm-up, and the output checked
  } catch (e) {
    results[doc] = { mbps: null, correct: false, error: String(e).slice(0, 80) };
    continue;
  }
  const times = [];
  const start = performance.now();
  while (times.length < 5 || (performance.now() - start < 20000 && times.length < 30)) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  const best = Math.min(...times) / 1000;
  results[doc] = { mbps: size / best / 1e6, correct: JSON.stringify(out) === expected };
}
console.log(JSON.stringify(results));
