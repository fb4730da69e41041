"""Time per byte of the Python and npm repair packages as the `messy_common` document grows.

Usage: python3 scaling.py PY_DIR NODE_DIR  (scaling.sh installs the packages and calls this)

PY_DIR holds the `json_repair` package (pip --target), NODE_DIR a `node_modules` with
`jsonrepair`. Each size runs in a child process with a time limit, best of up to 3 runs (1
when a run takes over 20 s); sizes whose time, extrapolated linearly from the one before,
would exceed the limit are not run. Prints one markdown table; the per-byte column is
relative to the peer's 10 000-record row, as in BENCHMARKS.md's scaling table for llmout."""
import json
import os
import subprocess
import sys
import tempfile

LIMIT = 600  # seconds per child

PYTHON_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import json_repair
text = open(sys.argv[2], encoding="utf-8").read()
expected = json.load(open(sys.argv[3], encoding="utf-8"))
times, out = [], None
while len(times) < 3 and sum(times) < 20:
    t = time.perf_counter()
    out = json_repair.loads(text)
    times.append(time.perf_counter() - t)
print(json.dumps({"seconds": min(times), "runs": len(times), "correct": out == expected}))
"""

NODE_CHILD = """
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { jsonrepair } from "jsonrepair";
const text = readFileSync(process.argv[2], "utf8");
const expected = JSON.stringify(JSON.parse(readFileSync(process.argv[3], "utf8")));
const times = [];
let out;
while (times.length < 3 && times.reduce((a, b) => a + b, 0) < 20) {
  const t = performance.now();
  out = JSON.parse(jsonrepair(text));
  times.push((performance.now() - t) / 1000);
}
console.log(JSON.stringify({ seconds: Math.min(...times), runs: times.length,
  correct: JSON.stringify(out) === expected }));
"""


def messy_common(n):
    """The document and value of `messy_with(n, true)` in benches/common/mod.rs, byte for
    byte (`//` comments, valid `\\\\` escapes: the mistakes every peer can repair)."""
    parts = ["// generated records\n[\n"]
    values = []
    for i in range(n):
        parts.append(
            f"  {{id: {i}, 'name': 'Item {i}', \"desc\": \"She said \"hi\" to item {i}\", "
            f"tags: ['a', 'b',], active: True, score: .5, note: None, "
            f"\"path\": \"C:\\\\xyz\\\\{i}\", nested: {{\"x\": [1, 2, 3,],}}, // end\n  }},\n"
        )
        values.append({
            "id": i, "name": f"Item {i}", "desc": f'She said "hi" to item {i}',
            "tags": ["a", "b"], "active": True, "score": 0.5, "note": None,
            "path": f"C:\\xyz\\{i}", "nested": {"x": [1, 2, 3]},
        })
    parts.append("]")
    return "".join(parts), values


def run(cmd, cwd):
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        return {"error": f"over {LIMIT} s"}
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1][:80]}
    return json.loads(done.stdout)


def main():
    py_dir, node_dir = sys.argv[1:3]
    work = tempfile.mkdtemp()
    node_script = os.path.join(node_dir, "scaling_child.mjs")
    with open(node_script, "w", encoding="utf-8") as f:
        f.write(NODE_CHILD)
    peers = [
        ("json-repair (Python)", [1_000, 10_000, 100_000, 1_000_000],
         lambda doc, exp: run([sys.executable, "-c", PYTHON_CHILD, py_dir, doc, exp], work)),
        ("jsonrepair (npm)", [100, 1_000, 10_000, 100_000],
         lambda doc, exp: run(["node", node_script, doc, exp], node_dir)),
    ]
    print("| peer | records | bytes | seconds | MB/s | per byte, x the 10 000-record row | correct |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, sizes, time_it in peers:
        rows, before = [], None
        for n in sizes:
            text, value = messy_common(n)
            size = len(text.encode("utf-8"))
            if before and before[1] / before[0] * size > LIMIT:
                minutes = before[1] / before[0] * size / 60
                rows.append((n, size, None, f"not run: about {minutes:.0f} min if linear"))
                continue
            doc, exp = os.path.join(work, f"{n}.json"), os.path.join(work, f"{n}.expected.json")
            with open(doc, "w", encoding="utf-8") as f:
                f.write(text)
            with open(exp, "w", encoding="utf-8") as f:
                json.dump(value, f)
            r = time_it(doc, exp)
            if "error" in r:
                rows.append((n, size, None, r["error"]))
                break
            before = (size, r["seconds"])
            rows.append((n, size, r["seconds"], "yes" if r["correct"] else "no"))
        base = next((sec / size for n, size, sec, _ in rows if n == 10_000 and sec), None)
        for n, size, seconds, note in rows:
            if seconds is None:
                print(f"| {name} | {n:,} | {size:,} | - | - | - | {note} |")
                continue
            rel = f"{seconds / size / base:.2f}" if base else "-"
            print(f"| {name} | {n:,} | {size:,} | {seconds:.3f} | {size / seconds / 1e6:.2f} "
                  f"| {rel} | {note} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
