"""Prints the side-by-side tables from criterion's estimates and the peers' JSON objects."""
import json
import sys

criterion, inputs, py, node, py_version, npm_version = sys.argv[1:7]
rust_correct = json.load(open(f"{inputs}/rust_correct.json"))
python = json.load(open(py))
npm = json.load(open(node))

for doc, what in [
    ("messy_common", "without `#` comments and invalid escapes"),
    ("messy", "the full catalogue"),
]:
    size = len(open(f"{inputs}/{doc}.json", encoding="utf-8").read().encode("utf-8"))

    def rust(name):
        est = json.load(open(f"{criterion}/{doc}/{name}/new/estimates.json"))
        return size / (est["mean"]["point_estimate"] / 1e9) / 1e6

    correct = rust_correct[doc]
    rows = [
        ("llmout (to Value, with repair log)", rust("llmout"), True),
        ("jsonrepair 0.1.0 (Rust, to string)", rust("jsonrepair_to_string"), correct["jsonrepair"]),
        ("jsonrepair 0.1.0 (Rust, to Value)", rust("jsonrepair_to_value"), correct["jsonrepair"]),
        ("llm_json 1.0.3 (Rust, to Value)", rust("llm_json_to_value"), correct["llm_json"]),
        (f"json-repair {py_version} (Python, loads)", python[doc]["mbps"], python[doc]["correct"]),
        (f"jsonrepair {npm_version} (npm, + JSON.parse)", npm[doc]["mbps"], npm[doc]["correct"]),
    ]
    ours = rows[0][1]
    print(f"`{doc}`: {size} bytes, {what}.\n")
    print("| implementation | MB/s | llmout is x times faster | output correct |")
    print("|---|---:|---:|---|")
    for name, mbps, ok in rows:
        speed = "failed" if mbps is None else f"{mbps:.1f}"
        ratio = "-" if mbps is None else f"{ours / mbps:.1f}"
        print(f"| {name} | {speed} | {ratio} | {'yes' if ok else 'no'} |")
    print()
