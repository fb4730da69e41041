// Times npm's jsonrepair (then JSON.parse, to get a value) on the generated messy document;
// prints one JSON line. Run from a directory where `jsonrepair` is installed.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { jsonrepair } from "jsonrepair";

const dir = process.argv[2];
const text = readFileSync(`${dir}/messy.json`, "utf8");
const expected = JSON.parse(readFileSync(`${dir}/expected.json`, "utf8"));
const size = Buffer.byteLength(text, "utf8");

const run = () => JSON.parse(jsonrepair(text));
const out = run(); // warm-up, and the output checked
const times = [];
const start = performance.now();
while (times.length < 5 || (performance.now() - start < 20000 && times.length < 30)) {
  const t = performance.now();
  run();
  times.push(performance.now() - t);
}
const best = Math.min(...times) / 1000;
const correct = JSON.stringify(out) === JSON.stringify(expected);
console.log(JSON.stringify({ mbps: size / best / 1e6, correct, runs: times.length }));
