"""Issue 19's Python speed targets, in one process (results in BENCHMARKS.md, "Python").

1. `llmout.repair_json` against `json_repair.repair_json` on a 1.7 MB messy reply: a line of
   prose, then a ```json fence around 6 000 pretty-printed records with Python literals,
   single-quoted keys, `//` comment lines and trailing commas (target: at least 100x).
2. `llmout.repair_json_many` over 10 000 replies of about 1 KB on 2 threads against 1
   (target: at least 1.7x).

Both outputs are checked against the intended value first. The contenders run in
alternating rounds, so that load from outside (the machine's cores are shared) slows them
alike; the fastest and the median round are reported.

Run: `pip install ./python json-repair==0.64.6 && python benches/python_speed.py`
(`--quick` for fewer rounds).
"""

from __future__ import annotations

import json
import statistics
import sys
import time

import json_repair

import llmout


def record(i: int) -> "tuple[str, dict]":
    """One pretty-printed record with every mistake of the issue's reply, and its value."""
    text = (
        f"  // record {i}\n"
        "  {\n"
        f"    'id': {i},\n"
        f"    'name': 'Item {i}',\n"
        f"    'active': {'True' if i % 2 else 'False'},\n"
        "    'owner': None,\n"
        f"    'score': {i % 100}.5,\n"
        "    'tags': ['alpha', 'beta',],\n"
        f"    'summary': 'Record {i} was read, checked twice and stored by the nightly import job.',\n"
        "    'dims': {'w': 3, 'h': 4,},\n"
        "  },\n"
    )
    value = {
        "id": i,
        "name": f"Item {i}",
        "active": bool(i % 2),
        "owner": None,
        "score": i % 100 + 0.5,
        "tags": ["alpha", "beta"],
        "summary": f"Record {i} was read, checked twice and stored by the nightly import job.",
        "dims": {"w": 3, "h": 4},
    }
    return text, value


def messy_reply(records: int, prose: str) -> "tuple[str, list]":
    parts, values = [], []
    for i in range(records):
        text, value = record(i)
        parts.append(text)
        values.append(value)
    return f"{prose}\n```json\n[\n{''.join(parts)}]\n```\n", values


def rounds(contenders: dict, n: int, cpu: "dict | None" = None) -> dict:
    """Each contender once a round, `n` rounds; seconds per call for each, every round (and
    in `cpu`, when given, the CPU seconds the process spent on each call, all threads)."""
    times: dict = {name: [] for name in contenders}
    for _ in range(n):
        for name, call in contenders.items():
            c, t = time.process_time(), time.perf_counter()
            call()
            times[name].append(time.perf_counter() - t)
            if cpu is not None:
                cpu.setdefault(name, []).append(time.process_time() - c)
    return times


def summary(seconds: list) -> str:
    return f"fastest {min(seconds) * 1e3:.1f} ms, median {statistics.median(seconds) * 1e3:.1f} ms"


def main() -> None:
    quick = "--quick" in sys.argv
    big, expected = messy_reply(6000, "Here are the 6 000 records you asked for, as JSON.")
    print(f"1.7 MB reply: {len(big.encode()):,} bytes")
    assert llmout.loads(big) == expected
    assert json_repair.loads(big) == expected
    assert llmout.repair_json(big) == json_repair.repair_json(big)

    t = rounds(
        {
            "llmout": lambda: llmout.repair_json(big),
            "json_repair": lambda: json_repair.repair_json(big),
        },
        3 if quick else 7,
    )
    fast = min(t["json_repair"]) / min(t["llmout"])
    median = statistics.median(t["json_repair"]) / statistics.median(t["llmout"])
    print(f"  llmout.repair_json      {summary(t['llmout'])}")
    print(f"  json_repair.repair_json {summary(t['json_repair'])}")
    print(f"  ratio: {fast:.0f}x (fastest), {median:.0f}x (median)")

    small = [
        messy_reply(3, f"Batch reply {k}: here is what you asked for, three records read from the store and checked against the schema you gave.")[0] for k in range(10_000)
    ]
    sizes = [len(s.encode()) for s in small]
    print(f"10 000 replies: {sum(sizes) / len(sizes):.0f} bytes on average")
    one = llmout.repair_json_many(small, threads=1)
    assert one == llmout.repair_json_many(small, threads=2)
    assert [json.loads(s) for s in one[:3]] == [messy_reply(3, "")[1]] * 3
    cpu: dict = {}
    t = rounds(
        {
            "1 thread": lambda: llmout.repair_json_many(small, threads=1),
            "2 threads": lambda: llmout.repair_json_many(small, threads=2),
        },
        5 if quick else 15,
        cpu,
    )
    for name in t:
        # Cores used: CPU time over wall time, summed over the rounds. Below the thread count
        # when other processes hold the cores.
        cores = sum(cpu[name]) / sum(t[name])
        print(
            f"  {name:9} {summary(t[name])}; CPU {statistics.median(cpu[name]) * 1e3:.1f} ms "
            f"(median), {cores:.2f} cores used"
        )
    fast = min(t["1 thread"]) / min(t["2 threads"])
    median = statistics.median(t["1 thread"]) / statistics.median(t["2 threads"])
    print(f"  speed-up: {fast:.2f}x (fastest), {median:.2f}x (median)")


if __name__ == "__main__":
    main()
