"""Peak memory of `llmout repair` on a 100 MB messy document (issue 8: within 3x the input).

The document is the messy records of benches/common/mod.rs (every common mistake: unquoted
keys, single quotes, unescaped inner quotes, Python literals, `.5`, invalid escapes, trailing
commas, `#` comments), 507 296 of them: 100 000 192 bytes. The CLI reads it from stdin and
writes the repaired JSON to a file; the peak resident set size of the process is read with
wait4 once it has exited.

Usage (from the repository root): python3 benches/memory.py
"""

import os
import subprocess
import sys
import tempfile
import time

RECORDS = 507_296


def write_document(f) -> None:
    """Writes the document record by record: this process stays small, and the child forked
    from it starts small (Linux counts a child's peak from before its exec too)."""
    f.write(b"// generated records\n[\n")
    for i in range(RECORDS):
        f.write(
            f"  {{id: {i}, 'name': 'Item {i}', \"desc\": \"She said \"hi\" to item {i}\", "
            f"tags: ['a', 'b',], active: True, score: .5, note: None, "
            f"\"path\": \"C:\\xyz\\{i}\", nested: {{\"x\": [1, 2, 3,],}}, # end\n  }},\n".encode()
        )
    f.write(b"]")


def main() -> None:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "llmout", "--features", "cli"],
        cwd=root,
        check=True,
    )
    binary = os.path.join(root, "target", "release", "llmout")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "messy100.json")
        out = os.path.join(tmp, "out.json")
        with open(src, "wb") as f:
            write_document(f)
        with open(src, "rb") as stdin, open(out, "wb") as stdout:
            start = time.monotonic()
            child = subprocess.Popen([binary, "repair"], stdin=stdin, stdout=stdout)
            # wait4 gives this one process's usage (not cargo's from the build above).
            _, status, usage = os.wait4(child.pid, 0)
            elapsed = time.monotonic() - start
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"llmout repair failed: {status}")
        size = os.path.getsize(src)
        peak = usage.ru_maxrss * 1024  # KiB on Linux
        print(
            f"input {size} bytes, output {os.path.getsize(out)} bytes, {elapsed:.2f} s, "
            f"peak RSS {peak / 1e6:.1f} MB = {peak / size:.2f}x the input"
        )
        if peak > 3 * size:
            sys.exit("peak memory is over 3x the input")


if __name__ == "__main__":
    main()
