"""`--jsonl` on every core (issue 19, "The CLI in batch"): 100 MB of replies of about 1 KB,
one per line, answered by `repair`, `parse --schema` and `tools` with 1 and with 2 threads.

Prints, per command and thread count, the wall time, the CPU time and the peak resident set
size (read with wait4), and the speed-up of 2 threads over 1 (target: 1.7x on 2 cores). The
peak is also measured on 10 MB of the same lines: it follows the window of lines, not the file.

Usage (from the repository root): python3 benches/jsonl.py [COMMAND ...]
  (LLMOUT_BIN=path measures another build of the CLI instead of building this one;
  commands: repair, parse, tools; default: all)
"""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from memory import RECORD_SCHEMA, cli_binary  # noqa: E402


def messy_reply(i: int) -> str:
    """About 1 KB: a sentence, then a fence around three messy records."""
    records = "".join(
        f"  {{id: {i * 3 + k}, 'name': 'Item {i * 3 + k}', \"desc\": \"She said \"hi\" to "
        f"item {k}\", tags: ['a', 'b',], active: True, score: .5, note: None, "
        f"\"path\": \"C:\\xyz\\{k}\", nested: {{\"x\": [1, 2, 3,],}}, # end\n  }},\n"
        for k in range(3)
    )
    return f"Here are the records for batch {i}:\n```json\n[\n{records}]\n```\nAnything else?"


def tools_reply(i: int) -> str:
    """About 1 KB: text, then three Hermes calls."""
    calls = "".join(
        f"<tool_call>\n{{\"name\": \"read_file\", \"arguments\": {{\"path\": "
        f"\"src/module_{i}_{k}.rs\", \"line\": {k}, \"context\": \"the function that parses "
        f"item {i} of the batch, with its tests and the helpers it calls ({k})\"}}}}\n"
        f"</tool_call>\n"
        for k in range(3)
    )
    return f"Reading the files for step {i}, then the tests, to see what the parser does.\n{calls}"


def write_lines(path: str, reply, size: int) -> None:
    with open(path, "wb") as f:
        i, written = 0, 0
        while written < size:
            line = (json.dumps(reply(i)) + "\n").encode()
            f.write(line)
            written += len(line)
            i += 1


def run(binary: str, args: list, stdin_path: str):
    with open(stdin_path, "rb") as stdin, open(os.devnull, "wb") as stdout:
        start = time.monotonic()
        child = subprocess.Popen([binary] + args, stdin=stdin, stdout=stdout)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    return code, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main() -> None:
    binary = cli_binary()
    wanted = set(sys.argv[1:])
    with tempfile.TemporaryDirectory() as tmp:
        schema = os.path.join(tmp, "schema.json")
        with open(schema, "w") as f:
            json.dump(RECORD_SCHEMA, f)
        commands = [
            ("repair", messy_reply, ["repair", "--jsonl"]),
            ("parse", messy_reply, ["parse", "--jsonl", "--schema", schema]),
            ("tools", tools_reply, ["tools", "--jsonl"]),
        ]
        for name, reply, args in commands:
            if wanted and name not in wanted:
                continue
            walls = {}
            for size in (10_000_000, 100_000_000):
                path = os.path.join(tmp, f"{name}-{size}")
                write_lines(path, reply, size)
                lines = sum(1 for _ in open(path, "rb"))
                for threads in (1, 2):
                    code, wall, cpu, peak = run(binary, ["--threads", str(threads)] + args, path)
                    walls[(size, threads)] = wall
                    print(
                        f"{name:7} {size / 1e6:5.0f} MB ({lines} lines, "
                        f"{os.path.getsize(path) // lines} B each), {threads} thread(s): "
                        f"exit {code}, {wall:6.2f} s wall, {cpu:6.2f} s CPU, "
                        f"peak RSS {peak / 1e6:6.1f} MB",
                        flush=True,
                    )
                os.remove(path)
            speedup = walls[(100_000_000, 1)] / walls[(100_000_000, 2)]
            print(f"{name:7} 2 threads over 1 at 100 MB: {speedup:.2f}x", flush=True)


if __name__ == "__main__":
    main()
