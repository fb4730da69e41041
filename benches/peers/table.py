"""Prints the side-by-side table from criterion's estimates and the peers' JSON lines."""
import json
import sys

criterion, inputs, py, node, py_version, npm_version = sys.argv[1:7]
text = open(f"{inputs}/messy.json", encoding="utf-8").read()
size = len(text.encode("utf-8"))


def rust(name):
    est = json.load(open(f"{criterion}/messy/{name}/new/estimates.json"))
    return size / (est["mean"]["point_estimate"] / 1e9) / 1e6


# The bench checks the Rust peers' output and asserts llmout's own.
correct = json.load(open(f"{inputs}/rust_correct.json"))
rows = [
    ("llmout (to Value, with repair log)", rust("llmout"), True),
    ("jsonrepair 0.1.0 (Rust, to string)", rust("jsonrepair_to_string"), correct["jsonrepair"]),
    ("jsonrepair 0.1.0 (Rust, to Value)", rust("jsonrepair_to_value"), correct["jsonrepair"]),
    ("llm_json 1.0.3 (Rust, to Value)", rust("llm_json_to_value"), correct["llm_json"]),
]
p = json.load(open(py))
n = json.load(open(node))
rows.append((f"json-repair {py_version} (Python, loads)", p["mbps"], p["correct"]))
rows.append((f"jsonrepair {npm_version} (npm, + JSON.parse)", n["mbps"], n["correct"]))

ours = rows[0][1]
print(f"Messy document: {size} bytes (benches/repair.rs `messy`).\n")
print("| implementation | MB/s | llmout is x times faster | output correct |")
print("|---|---:|---:|---|")
for name, mbps, ok in rows:
    ok_text = "yes" if ok else "no"
    print(f"| {name} | {mbps:.1f} | {ours / mbps:.1f} | {ok_text} |")
