"""Peak memory of every `llmout` command on large inputs (issue 20: within 3x the input at
100 MB).

Inputs, each written record by record to a temporary file (this process stays small, and the
child forked from it starts small: Linux counts a child's peak from before its exec too):

* `messy`: the messy records of benches/common/mod.rs (unquoted keys, single quotes,
  unescaped inner quotes, Python literals, `.5`, invalid escapes, trailing commas, `#`
  comments), 507 296 of them: 100 000 192 bytes. Read by `repair`, and by `parse --schema`
  with the records' schema (an array of objects, every field typed).
* `hermes`: Hermes `<tool_call>{json}</tool_call>` calls with a sentence of text before each,
  about 100 MB, read by `tools`.
* `pythonic`: `[get_weather(city='City 1', days=1, metric=True), …]` pythonic calls, about
  100 MB, read by `tools`; and about 10 MB of them (`tools-pythonic-10mb`, where the issue
  measured 86x, when 100 MB did not fit).
* `messy-bad`: the `messy` records with `id: true` in the middle one, read by `parse
  --schema` with the records' schema: exit 1 (`parse-error`); and with one record or many
  (`parse-one-or-many-error`, the error met item by item since session 19). The `messy`
  records against `maxItems` half their number (`parse-bounded-error`), and `messy-again`,
  whose last record is the middle one again, against `uniqueItems` (`parse-unique-error`):
  exit 1, the errors met item by item since session 19 (the second reads the records again,
  to the middle one, to compare the two).
* `object`: the `messy` records as the one field of an object (`{records: [...]}`), read by
  `parse --schema` with an object schema (`parse-object`; `parse-object-bounded` with
  `minItems` and `maxItems` on the records' array, item by item since session 15;
  `parse-object-one-or-many` with the records as one or many, item by item since session
  17), with the schema `{}`
  (`parse-object-any`), with `{"type": "object"}` (`parse-object-open`, item by item since
  session 28), and with the records' array schema, which takes the array out of its
  wrapper (`parse-wrapped`, item by item since session 14); and `messy` read by `parse` with the
  schema `{}` (`parse-any`), and with the records' array schema given `minItems` and
  `maxItems` (`parse-bounded`, item by item and counted since session 15), and with a union
  of one record or many (`parse-one-or-many`: `anyOf: [record, array of records]`, the
  untagged `OneOrMany`, item by item since session 17), and with `uniqueItems` on the
  records' array (`parse-unique`, item by item since session 17: a digest of each record kept).
* `deep`: the `messy` records six objects deep, as a GraphQL reply nests its nodes
  (`{data: {viewer: {organization: {repositories: {page: {info: 1, nodes: [...]}}}}}}`),
  read by `parse` with a schema that leads there (`parse-deep`) and with `{}`
  (`parse-deep-any`): item by item since session 33 (to four objects deep before).
* `long-key`: the `messy` records under one key of 2 MiB, read by `parse` with `{}`
  (`parse-long-key`): each fix's pointer holds the key, so the fixes' pointers are over
  their budget at once (exit 1, session 33).
* `keyed`: the `messy` records as the members of one object keyed by id (`{r0: {...},
  ...}`), read by `repair` (`repair-keyed`) and by `parse` with `{}` (`parse-keyed-any`,
  its members one by one since session 14) and with `{"type": "object"}` (`parse-keyed-open`,
  since session 28); `flat`: one object of 4.3 million small members (`"key_0": 0, ...`),
  read by `repair` (`repair-flat`) and by `parse` with `{}` (`parse-flat-any`); the keyed
  records also against a map of records' schema (`parse-keyed-map`).
* `users`: the keyed records as the member of an object (`{total: N, users: {r0: {...},
  ...}, more: False}`), read by `parse` with an object schema whose `users` is a map of
  records (`parse-users`) and with `{}` (`parse-users-any`): the map's members one by one
  since session 18; and with `users` an object of any members (`"additionalProperties":
  true`, `parse-users-open`), since session 28.
* `tagged`: the `messy` records in an internally tagged enum's branch (`{type: 'records',
  total: N, records: [...]}`), read by `parse` against `oneOf` of that branch and an error
  branch, each with a constant `type` (`parse-tagged`, item by item since session 18); and
  against two such branches that both hold the records (`parse-tagged-both`, item by item
  since session 25: the records' schema written in each is the same).
* `external`: the `messy` records in an externally tagged enum's variant (serde's default,
  `{Page: {total: N, records: [...]}}`), read by `parse` against `oneOf` of a unit
  variant's name and two variants with content, each an object with one property
  (`parse-external`, item by item since session 19).
* `adjacent`: the `messy` records as an adjacently tagged enum's content (`{t: 'Page', c:
  {total: N, records: [...]}}`), read by `parse` against `oneOf` of that variant, one whose
  content is a string and a unit variant (`parse-adjacent`, item by item since session 19).
* `untagged`: the `messy` records in an untagged enum's branch (`{total: N, records:
  [...]}`), read by `parse` against `anyOf` of that branch, an error (an object that asks
  for `error`) and `null` (`parse-untagged`, item by item since session 24: the only branch
  that fits the object around the records, whatever they are). The same document against
  two pages that both fit the object around the records (a total, or a cursor) and `null`
  (`parse-two-pages`, item by item since session 25: both give the records the same schema,
  so the items weigh the same in each). `untagged-bad`: the same with `id: true` in the
  middle record, against the untagged enum: exit 1, the record's error
  (`parse-untagged-error`, item by item since session 25).
* `two`: half the `messy` records in each of two members (`{users: [...], orders:
  [...]}`), read by `parse` against an object schema with both arrays (`parse-two`) and
  with `{}` (`parse-two-any`): both read item by item since session 21 (before, the larger
  alone, the other whole with the object around it).
* `nested`: the `messy` records two objects deep (`{page: 1, result: {records: [...],
  more: False}}`), read by `parse --schema` with a schema that leads there (`parse-nested`),
  with `{}` (`parse-nested-any`), and with a schema whose `result` is any value
  (`parse-nested-value`, a `serde_json::Value` field: item by item since session 28);
  `nested-bad`, the same with `id: true` in the middle record, against that schema with
  `result` optional, which recovery then drops (`parse-optional-error`, item by item since
  session 20).
* `lines`: the `messy` records given one by one, one a line with no array around them (JSON
  Lines, which the parser collects into an array), read by `parse --schema` with the records'
  schema (`parse-lines`, item by item since session 36: was 28.1x); `prose-items`: each after
  a line of prose (`Record 7:`), which the pipeline collects into the array
  (`parse-prose-items`, item by item since session 36: was 20.8x).
* `batches`: the `messy` records in arrays of a thousand, in an array, read by `parse` with
  `{}` (`parse-batches-any`) and with an array of arrays of records (`parse-batches`);
  `map-of-arrays`: those arrays each under a key, with `{}` (`parse-arrays-any`) and with a
  map of arrays of records (`parse-arrays-map`). Item by item before, but a batch of 256
  items on their way between threads was 256 arrays (9.8-12.4x); since session 36 a batch
  is bounded by what its items hold too.
* `jsonl`: the `messy` records again, each on a line of its own as a JSON string holding one
  reply (about 100 MB), read by `parse --jsonl` against one record's schema; about 100 MB of
  fenced messy replies read by `repair --jsonl`, and of Hermes replies read by `tools --jsonl`.
* `hermes` again, read by `tools --tools` with a definition of the calls' tool (`tools-defs`).
* `one-call`: one Hermes call of about 115 MB, a file written whole (`write_file` with the
  file's lines in one string argument), read by `tools` (`tools-one-call`); `one-call-rows`:
  one call of about 120 MB whose argument is an array of 2 million small objects
  (`tools-one-call-rows`), the same call as bare JSON with no marker
  (`tools-one-call-bare`), its arguments alone in Kimi's syntax (`tools-one-call-kimi`),
  as Qwen3-Coder's `<parameter=…>` (`tools-one-call-params`), and since session 23 as a
  pythonic call in a list (`tools-one-call-pythonic`), in Gemma's keys and values
  (`tools-one-call-gemma`), as Hunyuan's key and value pairs (`tools-one-call-hunyuan`)
  as Apertus' call keyed by its tool's name (`tools-one-call-apertus`), in MiniMax-M3's
  elements (`tools-one-call-minimax`) and in OpenAI's message, the arguments a JSON string
  (`tools-one-call-openai`; with a trailing comma, repaired, `tools-one-call-openai-repaired`
  since session 24).
  Since session 22 the arguments are laid out in their repaired text, or written as each
  parameter is read, never a map. The first two again with `--tools`, against definitions of their tools
  (`tools-one-call-defs`, `tools-one-call-rows-defs`): since session 23 large arguments
  are checked from their text, item by item.
* one call whose string argument is 100 MB of the raw control character U+0001 (its JSON
  six times it), as a Hermes call (`tools-control-chars`), a Qwen3-Coder parameter
  (`tools-control-chars-params`), a pythonic call (`tools-control-chars-pythonic`) and in
  OpenAI's message, the arguments a JSON string (`tools-control-chars-openai`); and as a
  Hermes call of `write_file` against its tool's definition (`tools-control-chars-defs`). Held as its
  value since session 47 (7.05-8.3x before, its JSON held).
* the adversarial inputs of benches/common/mod.rs at 100 MB (`repair-<name>`), `["`
  followed by `\\u12` repeated (`repair-unicode_escapes`), and one closed string of `\\q`
  repeated (`repair-invalid_escapes`), read by `repair`.
* `ids`: records whose ids are integers, one of them (midway) 21 digits long, read by `parse
  --schema` against an array schema whose `id` is a string (`parse-rounded-id`, session 47:
  the digits kept as the reply writes them); and with one record's tags an object where
  the schema wants a string (`parse-object-as-text`, kept as the reply writes it). Item by
  item since session 48 (the array was read whole for them: 21.51x and 22.60x).
* `raw-breaks`: records whose note holds a raw line break and a tab (valid once sanitized),
  read by `parse --schema` with their array schema (`parse-raw-breaks`) and by `repair`
  (`repair-raw-breaks`, session 39); `escapes`: one
  string of `\\q` repeated as an object's field, against that object's schema
  (`parse-escapes`). Since session 29. And one string of the raw control character U+0001
  repeated, by `repair` (`repair-control_chars`) and `parse` (`parse-control-chars`): its
  JSON is six times the input (session 30); the same string as a reply that is only a
  ```` ```json ```` fence (`repair-fenced-control_chars`, 7.05x before session 40, when the
  fence markers made it no JSON once sanitized) and in a fence between two sentences
  (`repair-prose-fenced-control_chars`). `valid-string`: one valid string with one escape
  (`parse-valid-string`, session 31), the floor under the last two: `serde_json` decodes it
  into its scratch buffer, then copies it into the value.
* `schema`: a schema of 20 000 object definitions, each referring to the next two
  (6.2 MB), read by `schema --dialect gemini-json`, `schema --dialect openai-strict` and
  `schema --prompt`, and by the schema functions of LIB_RUNS (`lib:serde_json::from_str`
  is the floor: the schema as a `Value`); by `schema --prompt` at 53 000 definitions
  (16.4 MB, under the CLI's 16 MiB limit on a schema file) and at 325 000 (about 100 MB:
  refused, exit 2).

The CLI reads the reply from stdin and writes its output to a file; the peak resident set size
of the process is read with wait4 once it has exited.

Usage (from the repository root): python3 benches/memory.py [NAME ...]
  (LLMOUT_BIN=path measures another build of the CLI instead of building this one)
  (names: repair, parse, parse-bounded, parse-unique, parse-one-or-many, parse-error,
  parse-one-or-many-error, parse-bounded-error, parse-unique-error,
  parse-jsonl, parse-object, parse-object-one-or-many, parse-object-any, parse-object-open,
  parse-object-bounded, parse-any,
  parse-wrapped, parse-wrapped-counted, parse-nested, parse-nested-any, parse-nested-value, parse-deep, parse-deep-any, parse-long-key, repair-keyed, repair-flat, parse-keyed-any,
  parse-keyed-open, parse-flat-any, parse-keyed-map, parse-users, parse-users-any, parse-users-open, parse-tagged, parse-untagged,
  parse-two-pages, parse-tagged-both, parse-untagged-error,
  parse-external, parse-adjacent, parse-optional-error, parse-two, parse-two-any,
  repair-jsonl, tools, tools-defs, tools-jsonl, tools-pythonic, tools-pythonic-10mb,
  tools-one-call, tools-one-call-rows, tools-one-call-defs, tools-one-call-rows-defs,
  tools-one-call-bare, tools-one-call-kimi, tools-one-call-params, tools-one-call-pythonic,
  tools-one-call-gemma, tools-one-call-hunyuan, tools-one-call-apertus,
  tools-one-call-minimax, tools-one-call-openai, tools-one-call-openai-repaired,
  schema-gemini-json, schema-openai, schema-prompt, schema-prompt-16mib,
  schema-prompt-100mb, repair-<adversarial name>,
  lib:<function> for the library's functions in LIB_RUNS, run by benches/memory_lib.rs
  (lib:<function>@<input> for a function's run on another input than its first);
  default: all). Exits 1 when a command is over 3x an input of about 100 MB (the target of
  issue 20 is set at 100 MB; the process's own few MB weigh more on smaller inputs, and the
  schema commands are measured on 6 MB).
"""

import io
import json
import os
import subprocess
import sys
import tempfile
import time

RECORDS = 507_296


def write_messy(f, bad: int = -1, again: int = -1, count: int = RECORDS) -> None:
    """The messy records (`count` of them); record `bad` (if any) has `id: true`, which no
    integer schema takes; the last record is record `again` (if any) written again."""
    f.write(b"// generated records\n[\n")
    for n in range(count):
        i = again if n == count - 1 and again >= 0 else n
        f.write(b"  " + messy_record(i, "true" if i == bad else str(i)) + b",\n")
    f.write(b"]")


RECORD_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "desc": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "active": {"type": "boolean"},
            "score": {"type": "number"},
            "note": {"type": ["string", "null"]},
            "path": {"type": "string"},
            "nested": {
                "type": "object",
                "properties": {"x": {"type": "array", "items": {"type": "integer"}}},
            },
        },
        "required": ["id", "name", "desc", "tags", "active", "score", "path", "nested"],
    },
}


def write_valid(f) -> None:
    """The messy records as valid JSON, the value `repair` makes of them (the floor of a
    function that returns that value as a tree: `serde_json` reading the same value)."""
    f.write(b"[")
    for i in range(RECORDS):
        record = {
            "id": i,
            "name": f"Item {i}",
            "desc": f'She said "hi" to item {i}',
            "tags": ["a", "b"],
            "active": True,
            "score": 0.5,
            "note": None,
            "path": f"C:\\xyz\\{i}",
            "nested": {"x": [1, 2, 3]},
        }
        f.write((", " if i else "").encode() + json.dumps(record).encode())
    f.write(b"]")


def write_fenced(f) -> None:
    """The records as valid JSON in a fence after a sentence, as a model writes them: not
    JSON as it stands, so no fast path reads it."""
    f.write(b"Here are the records you asked for:\n\n```json\n")
    write_valid(f)
    f.write(b"\n```\n")


def write_cut(inside: str):
    """The fenced records cut off at the token limit inside the last record: in its `nested`
    object before `x` has a value (`inside="nested"`: against the records' type, which
    requires `x`, that record cannot be recovered without filling it in and is dropped), or
    in the array `x` (`inside="x"`: the record is whole but for its closers, and kept)."""

    def write(f) -> None:
        buffer = io.BytesIO()
        write_fenced(buffer)
        text = buffer.getvalue()
        last = text.rindex(b'{"id"')
        cut = b'"nested": {"x' if inside == "nested" else b'"nested": {"x": [1, 2'
        f.write(text[: text.index(cut, last) + len(cut)])

    return write


def write_hermes(f, size: int = 100_000_000) -> None:
    i, written = 0, 0
    while written < size:
        chunk = (
            f"Reading the file for step {i}.\n<tool_call>\n"
            f'{{"name": "read_file", "arguments": {{"path": "src/module_{i}.rs", "line": {i}, '
            f'"context": "the function that parses item {i}"}}}}\n</tool_call>\n'
        ).encode()
        f.write(chunk)
        written += len(chunk)
        i += 1


def write_one_call(f, rows: bool = False, syntax: str = "hermes") -> None:
    """One call of 115-120 MB: `write_file` with the file's text in one string (its lines
    escaped), or with `rows` an array of small objects. In Hermes' `<tool_call>` syntax, or
    (`rows` only) with `syntax` "bare" as a JSON call with no marker, "kimi" as Kimi's
    arguments alone after the call's name, "qwen" as Qwen3-Coder's parameters,
    "pythonic" as a pythonic call in a list, "gemma" in Gemma's keys and values,
    "hunyuan" as Hunyuan's key and value pairs, "apertus" as Apertus' call keyed by its
    tool's name, "minimax" as MiniMax-M3's elements (the rows as one element's JSON
    text), "openai" as OpenAI's message (the arguments a JSON string), or "openai-comma"
    as that message with a trailing comma, which the repair takes out."""
    # The syntaxes written as the text before the rows and after them.
    around = {
        "qwen": (
            b"<tool_call>\n<function=save_rows>\n<parameter=table>\nitems\n</parameter>\n"
            b"<parameter=rows>\n[",
            b"]\n</parameter>\n</function>\n</tool_call>",
        ),
        "pythonic": (b"[save_rows(table='items', rows=[", b"])]"),
        "apertus": (
            b'<|tools_prefix|>[{"save_rows": {"table": "items", "rows": [',
            b"]}}]<|tools_suffix|>",
        ),
        # OpenAI's message, the arguments a JSON string: the rows written escaped.
        "openai": (
            b'{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", '
            b'"type": "function", "function": {"name": "save_rows", "arguments": '
            b'"{\\"table\\": \\"items\\", \\"rows\\": [',
            b']}"}}]}',
        ),
        "minimax": (
            b"]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"save_rows\">\n"
            b"]<]minimax[>[<table>items]<]minimax[>[</table>\n]<]minimax[>[<rows>[",
            b"]]<]minimax[>[</rows>\n]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>",
        ),
        "gemma": (
            b'<|tool_call>call:save_rows{table:<|"|>items<|"|>,rows:[',
            b"]}<tool_call|>",
        ),
        "hunyuan": (
            b"<tool_calls:opensource>\n<tool_call:opensource>save_rows<tool_sep:opensource>\n"
            b"<arg_key:opensource>table</arg_key:opensource>\n"
            b"<arg_value:opensource>items</arg_value:opensource>\n"
            b"<arg_key:opensource>rows</arg_key:opensource>\n<arg_value:opensource>[",
            b"]</arg_value:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>",
        ),
        "kimi": (
            b"<|tool_calls_section_begin|><|tool_call_begin|>functions.save_rows:0"
            b'<|tool_call_argument_begin|>{"table": "items", "rows": [',
            b"]}<|tool_call_end|><|tool_calls_section_end|>",
        ),
    }
    # OpenAI's message with a trailing comma after the call: repaired before it is read.
    around["openai-comma"] = (around["openai"][0], b']}"}},]}')
    if syntax in around:
        before, after = around[syntax]
        f.write(before)
        write_rows(Escaped(f) if syntax.startswith("openai") else f)
        f.write(after)
        return
    if syntax == "hermes":
        f.write(b"Saving the result.\n<tool_call>\n")
    if rows:
        f.write(b'{"name": "save_rows", "arguments": {"table": "items", "rows": [')
        write_rows(f)
        f.write(b"]}}")
    else:
        f.write(b'{"name": "write_file", "arguments": {"path": "src/generated.rs", "content": "')
        for i in range(3_000_000):
            f.write(f"let value_{i} = compute({i});\\n".encode())
        f.write(b'"}}')
    if syntax == "hermes":
        f.write(b"\n</tool_call>\n")


class Escaped:
    """Writes what is written to it to `f` as the inside of a JSON string (the rows have no
    backslash or control character: their quotes escaped)."""

    def __init__(self, f):
        self.f = f

    def write(self, data: bytes) -> None:
        self.f.write(data.replace(b'"', b'\\"'))


def write_rows(f) -> None:
    """The rows of `write_one_call`: 2 million small objects, comma-separated."""
    for i in range(2_000_000):
        sep = b", " if i else b""
        f.write(sep + f'{{"id": {i}, "name": "Item {i}", "tags": ["a", "b"]}}'.encode())


def write_jsonl(f) -> None:
    for i in range(RECORDS):
        record = (
            f"  {{id: {i}, 'name': 'Item {i}', \"desc\": \"She said \"hi\" to item {i}\", "
            f"tags: ['a', 'b',], active: True, score: .5, note: None, "
            f"\"path\": \"C:\\xyz\\{i}\", nested: {{\"x\": [1, 2, 3,],}}, # end\n  }}"
        )
        f.write((json.dumps(record) + "\n").encode())


def write_pythonic(f, size: int = 100_000_000) -> None:
    f.write(b"[")
    i, written = 0, 1
    while written < size:
        chunk = f"get_weather(city='City {i}', days={i % 7}, metric=True), ".encode()
        f.write(chunk)
        written += len(chunk)
        i += 1
    f.write(b"get_time(tz='UTC')]")


def write_ids(f, size: int = 100_000_000, tags_object: bool = False) -> None:
    """Records `{"id": N, "name": ...}`, one of them, midway, with an id of 21 digits (beyond
    64 bits: a value holds it rounded), about `size` bytes in all; with `tags_object`, that
    record's id is small and its tags an object instead."""
    f.write(b"[")
    written, i = 1, 0
    while written < size:
        middle = i == 150_000
        n = 123456789012345678901 if middle and not tags_object else i
        tags = '{"a": 1}' if middle and tags_object else '["a", "b"]'
        rec = ('{"id": %d, "name": "user %d", "tags": %s}, ' % (n, i, tags)).encode()
        f.write(rec)
        written += len(rec)
        i += 1
    f.write(b'{"id": 0, "name": "last", "tags": []}]')


def write_pattern(prefix: str, unit: str, suffix: str, size: int = 100_000_000):
    """A writer of `prefix`, then `unit` repeated up to `size` bytes, then `suffix`."""

    def write(f) -> None:
        f.write(prefix.encode())
        block = (unit * max(1, (1 << 20) // len(unit))).encode()
        written = len(prefix)
        while written + len(block) <= size:
            f.write(block)
            written += len(block)
        u = unit.encode()
        while written + len(u) <= size:
            f.write(u)
            written += len(u)
        f.write(suffix.encode())

    return write


# The adversarial inputs of benches/common/mod.rs (`adversarial()`), at 100 MB, and the
# invalid escapes the issue measured (`["` then `\u12` repeated: 19.5x before).
ADVERSARIAL = {
    "quotes_in_string": ('{"a": "', '"', '"}'),
    "quote_x_in_member": ('{"a": "', '"x, ', ""),
    "alternating_quotes": ("[", "\"'", ""),
    "open_braces": ("", "{", ""),
    "open_brackets": ("", "[", ""),
    "commas": ("[", ",", ""),
    "backslashes": ('["', "\\", '"]'),
    "unquoted_commas": ('{"a": ', "x, ", "}"),
    "commented_items": ("[", '"a", /* c */ ', ""),
    "gaps_between_quotes": ('{"a": "', '"' + " " * 200 + " /* c */ // d\n", ""),
    "quotes_in_a_quotation": ('{"a": "', 'x "y" ', '"}'),
    "reasoning_between_items": ("[", '"a", <think>{ ] "</think> ', ""),
    "unclosed_reasoning_after_quotes": ('{"a": "', 'x" <think>', ""),
    "blank_lines_in_open_string": ('{"a": "x', "\n", '" and "y}'),
    "comment_lines_in_open_string": ('{"a": "x', "\n# h", '" and "y}'),
    "unicode_escapes": ('["', "\\u12", ""),
    "invalid_escapes": ('{"a": "', "\\q", '"}'),
    # A raw control character is written `\u0001` in JSON, six bytes for one: the output is
    # six times the input (session 30).
    "control_chars": ('{"a": "', "\x01", '"}'),
    # The same left open: the lenient parser's JSON, six times the input, written as it is
    # made since session 46 (7.1x before, held whole).
    "control_chars_in_open_string": ('{"a": "', "\x01", ""),
}


def write_in_fence(writer, before: str = "", after: str = ""):
    """A writer of `writer`'s text in a ```` ```json ```` fence, `before` and `after` it."""

    def write(f) -> None:
        f.write((before + "```json\n").encode())
        writer(f)
        f.write(("\n```\n" + after).encode())

    return write


def write_raw_breaks(f) -> None:
    """Records whose note holds a raw line break and a tab: valid JSON once sanitized."""
    write_pattern(
        "[",
        '{"id": 7, "note": "line one\nline two\tend"}, ',
        '{"id": 8, "note": "last"}]',
    )(f)


def write_object(f) -> None:
    """The messy records as the one field of an object: `{"records": [...]}`."""
    f.write(b"{records: ")
    write_messy(f)
    f.write(b"}")


def write_counted(f) -> None:
    """The messy records in a page envelope: `{"total": N, "records": [...], "next": null}`,
    the scalars beside the array left out when it is taken out against the array schema."""
    f.write(b'{"total": %d, records: ' % RECORDS)
    write_messy(f)
    f.write(b', "next": null}')


def write_long_key(f) -> None:
    """The messy records under one key of 2 MiB: `{"kk…k": [...]}`. Each fix in them names
    its value by a pointer that holds the key (session 33: refused at once; before, about a
    terabyte of pointers)."""
    f.write(b'{"' + b"k" * (2 << 20) + b'": ')
    write_messy(f)
    f.write(b"}")


def write_deep(f) -> None:
    """The messy records six objects deep, as a GraphQL reply nests its nodes:
    `{data: {viewer: {organization: {repositories: {page: {info: 1, nodes: [...]}}}}}}`."""
    f.write(b"{data: {viewer: {organization: {repositories: {page: {info: 1, nodes: ")
    write_messy(f)
    f.write(b"}}}}}}")


def deep_schema() -> dict:
    """The schema that leads to `write_deep`'s records."""
    inner = {"type": "object", "properties": {"info": {"type": "integer"}, "nodes": RECORD_SCHEMA}}
    for key in ["page", "repositories", "organization", "viewer", "data"]:
        inner = {"type": "object", "properties": {key: inner}, "required": [key]}
    return inner


def write_miscased(f) -> None:
    """`write_object` with the key in another case: `{Records: [...]}`."""
    f.write(b"{Records: ")
    write_messy(f)
    f.write(b"}")


def write_nested_miscased(f) -> None:
    """`write_nested` with the keys on the way in other cases and spellings:
    `{Page: 1, RESULT: {"Records": [...], more: False}}`."""
    f.write(b'{Page: 1, RESULT: {"Records": ')
    write_messy(f)
    f.write(b", more: False}}")


def messy_record(i: int, id_text: str = "") -> bytes:
    """One of `write_messy`'s records, without the separator after it; its `id` is `i`, or
    `id_text` where given."""
    return (
        f"{{id: {id_text or i}, 'name': 'Item {i}', \"desc\": \"She said \"hi\" to item {i}\", "
        f"tags: ['a', 'b',], active: True, score: .5, note: None, "
        f"\"path\": \"C:\\xyz\\{i}\", nested: {{\"x\": [1, 2, 3,],}}, # end\n  }}"
    ).encode()


def write_json_lines(f) -> None:
    """The messy records one a line, with no array around them (JSON Lines)."""
    for i in range(RECORDS):
        f.write(messy_record(i) + b"\n")


def write_prose_items(f) -> None:
    """The messy records given one by one, each after a line of prose: `Record 7:\n{...}`."""
    for i in range(RECORDS):
        f.write(f"Record {i}:\n".encode() + messy_record(i) + b"\n\n")


def write_batches(f) -> None:
    """The messy records in arrays of a thousand, in an array: `[[...], [...], ...]`."""
    f.write(b"[")
    for b in range(RECORDS // 1000):
        f.write(b"[" + b",\n".join(messy_record(b * 1000 + i) for i in range(1000)) + b"],\n")
    f.write(b"]")


def write_map_of_arrays(f) -> None:
    """The messy records in arrays of a thousand, each under a key: `{"k0": [...], ...}`."""
    f.write(b"{")
    for b in range(RECORDS // 1000):
        rows = b",\n".join(messy_record(b * 1000 + i) for i in range(1000))
        f.write(f'"k{b}": ['.encode() + rows + b"],\n")
    f.write(b"}")


def write_two(f) -> None:
    """Half the messy records in each of two members: `{users: [...], orders: [...]}`."""
    f.write(b"{users: ")
    write_messy(f, count=RECORDS // 2)
    f.write(b", orders: ")
    write_messy(f, count=RECORDS // 2)
    f.write(b"}")


def write_tagged(f) -> None:
    """The messy records in an internally tagged enum's branch: `{type: 'records', total: N,
    records: [...]}`."""
    f.write(f"{{type: 'records', total: {RECORDS}, records: ".encode())
    write_messy(f)
    f.write(b"}")


def write_untagged(f, bad: int = -1) -> None:
    """The messy records in an untagged enum's branch: `{total: N, records: [...]}`; record
    `bad` (if any) has `id: true`."""
    f.write(f"{{total: {RECORDS}, records: ".encode())
    write_messy(f, bad=bad)
    f.write(b"}")


def write_external(f) -> None:
    """The messy records in an externally tagged enum's variant: `{Page: {total: N,
    records: [...]}}`."""
    f.write(f"{{Page: {{total: {RECORDS}, records: ".encode())
    write_messy(f)
    f.write(b"}}")


def write_adjacent(f) -> None:
    """The messy records as an adjacently tagged enum's content: `{t: 'Page', c: {total: N,
    records: [...]}}`."""
    f.write(f"{{t: 'Page', c: {{total: {RECORDS}, records: ".encode())
    write_messy(f)
    f.write(b"}}")


def write_keyed(f) -> None:
    """The messy records as the members of one object, keyed by id: `{"r0": {...}, ...}`."""
    f.write(b"{\n")
    write_keyed_members(f)
    f.write(b"}")


def write_users(f) -> None:
    """The keyed records as a member of an object: `{total: N, users: {r0: {...}, ...},
    more: False}`."""
    f.write(f"{{total: {RECORDS}, users: {{\n".encode())
    write_keyed_members(f)
    f.write(b"}, more: False}")


def write_keyed_members(f) -> None:
    for i in range(RECORDS):
        f.write(
            f"  r{i}: {{id: {i}, 'name': 'Item {i}', \"desc\": \"She said \"hi\" to item {i}\", "
            f"tags: ['a', 'b',], active: True, score: .5, note: None, "
            f"\"path\": \"C:\\xyz\\{i}\", nested: {{\"x\": [1, 2, 3,],}}, # end\n  }},\n".encode()
        )


def write_flat(f) -> None:
    """One object of small members, `{"key_0": 0, "key_1": 1, ...}`, about 100 MB."""
    f.write(b"{")
    i, written = 0, 1
    while written < 100_000_000:
        member = f'"key_{i}": {i}, '.encode()
        f.write(member)
        written += len(member)
        i += 1
    f.write(b'"end": 0}')


def write_nested(f, bad: int = -1) -> None:
    """The messy records two objects deep: `{page: 1, result: {records: [...], more: false}}`
    (record `bad`, if any, with `id: true`)."""
    f.write(b"{page: 1, result: {records: ")
    write_messy(f, bad=bad)
    f.write(b", more: False}}")


def write_lines(reply):
    """A writer of the `--jsonl` lines for `reply(i)`, about 100 MB."""

    def write(f) -> None:
        i, written = 0, 0
        while written < 100_000_000:
            line = (json.dumps(reply(i)) + "\n").encode()
            f.write(line)
            written += len(line)
            i += 1

    return write


def hermes_reply(i: int) -> str:
    return (
        f"Reading the file for step {i}.\n<tool_call>\n"
        f'{{"name": "read_file", "arguments": {{"path": "src/module_{i}.rs", "line": {i}}}}}'
        "\n</tool_call>"
    )


def messy_reply(i: int) -> str:
    return (
        f"Sure, record {i}:\n```json\n{{id: {i}, 'name': 'Item {i}', tags: ['a', 'b',], "
        f"active: True, score: .5, note: None, # end\n}}\n```"
    )


TOOL_DEFS = [
    {
        "name": "read_file",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "line": {"type": "integer"},
                "context": {"type": "string", "maxLength": 200},
            },
            "required": ["path"],
        },
    },
    # The tools of `write_one_call`'s calls.
    {
        "name": "write_file",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
        },
    },
    {
        "name": "save_rows",
        "parameters": {
            "type": "object",
            "properties": {
                "table": {"type": "string"},
                "rows": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "integer"},
                            "name": {"type": "string"},
                            "tags": {"type": "array", "items": {"type": "string"}},
                        },
                        "required": ["id", "name"],
                    },
                },
            },
            "required": ["table", "rows"],
        },
    },
]


def write_schema(f, n: int = 20_000) -> None:
    """`n` definitions, written one at a time (the text `json.dumps` gives the whole)."""
    f.write(b'{"$ref": "#/$defs/D0", "$defs": {')
    for i in range(n):
        nxt = [f"#/$defs/D{min(i + 1, n - 1)}", f"#/$defs/D{min(i + 2, n - 1)}"]
        definition = {
            "type": "object",
            "description": f"Definition {i}.",
            "properties": {
                "name": {"type": "string"},
                "count": {"type": "integer", "minimum": 0},
                "left": {"anyOf": [{"$ref": nxt[0]}, {"type": "null"}]},
                "right": {"anyOf": [{"$ref": nxt[1]}, {"type": "null"}]},
            },
            "required": ["name"],
        }
        if i == n - 1:
            definition = {"type": "object", "properties": {"end": {"type": "boolean"}}}
        sep = ", " if i else ""
        f.write(f"{sep}{json.dumps(f'D{i}')}: {json.dumps(definition)}".encode())
    f.write(b"}}")


def measure(binary: str, args: list, stdin_path: str, input_size: int, out_path: str):
    with open(stdin_path, "rb") as stdin, open(out_path, "wb") as stdout:
        start = time.monotonic()
        child = subprocess.Popen([binary] + args, stdin=stdin, stdout=stdout)
        # wait4 gives this one process's usage (not cargo's from the build).
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss * 1024  # KiB on Linux
    return code, elapsed, peak, os.path.getsize(out_path)


def cli_binary() -> str:
    """The CLI to measure: $LLMOUT_BIN, or this repository's, built in release."""
    binary = os.environ.get("LLMOUT_BIN")
    if binary:
        return binary
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "llmout", "--features", "cli"],
        cwd=root,
        check=True,
    )
    return os.path.join(root, "target", "release", "llmout")


def lib_binary() -> str:
    """benches/memory_lib.rs, built in release: the library's functions one call a process."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    built = subprocess.run(
        ["cargo", "build", "--release", "-q", "--bench", "memory_lib", "--message-format=json"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for line in built.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "memory_lib":
            return msg["executable"]
    sys.exit("memory_lib was not built")


# The library's functions (benches/memory_lib.rs) on the inputs above: (name, input, schema).
LIB_RUNS = [
    ("repair_json", "messy", None),
    # Its output whole is six times one string of raw control characters: written as it is
    # made by `large::repair_json` (session 39), held by `repair_json`.
    ("repair_json", "control_chars", None),
    ("large::repair_json", "messy", None),
    ("large::repair_json", "control_chars", None),
    ("repair_text", "messy", None),
    ("repair::parse", "messy", None),
    ("repair::parse_borrowed", "messy", None),
    ("repair::to_string", "messy", None),
    ("from_llm_with_schema", "messy", "records"),
    # The typed entry point, `T::from_llm` for `Vec<Record>` (the records' type), on the
    # records as they are (valid JSON), in a fence, and messy; and its floor, `serde_json`
    # reading the valid records into the type (`benches/memory_lib.rs`).
    ("from_llm::<Vec<Record>>", "valid", None),
    ("from_llm::<Vec<Record>>", "fenced", None),
    ("from_llm::<Vec<Record>>", "messy", None),
    # Cut off at the token limit: in the last record's `nested` (dropped, so read whole) and
    # in its `x` (kept, read item by item).
    ("from_llm::<Vec<Record>>", "cut-nested", None),
    ("from_llm::<Vec<Record>>", "cut-x", None),
    ("serde_json::from_str::<Vec<Record>>", "valid", None),
    # A type with constraints is checked on valid JSON too.
    ("from_llm::<Vec<CheckedRecord>>", "valid", None),
    ("large::from_llm_with_compiled", "messy", "records"),
    ("tools::parse", "hermes", None),
    ("tools::parse_compact", "hermes", None),
    ("sanitize", "messy", None),
    ("extract::candidates", "messy", None),
    # The schema functions on the `schema` input (as the reply), and the floor under them all:
    # the schema as a serde_json::Value.
    ("serde_json::from_str", "schema", None),
    # The floor under the functions that return the records as a tree: `serde_json` reading
    # the value they return (its text, `valid`) into a `Value`.
    ("serde_json::from_str", "valid", None),
    ("prompt::render", "schema", None),
    ("dialect::to_dialect(gemini-json)", "schema", None),
    ("dialect::to_dialect_json(gemini-json)", "schema", None),
    ("dialect::to_dialect(openai-strict)", "schema", None),
    ("dialect::to_dialect_json(openai-strict)", "schema", None),
]


def main() -> None:
    binary = cli_binary()
    wanted = set(sys.argv[1:])
    over = []
    with tempfile.TemporaryDirectory() as tmp:
        files = {}

        def doc(name, writer):
            if name not in files:
                path = os.path.join(tmp, name)
                with open(path, "wb") as f:
                    writer(f)
                files[name] = path
            return files[name]

        def one_call_rows(name, syntax):
            """The run of `tools` on `write_one_call`'s rows call written in `syntax`."""
            writer = lambda f: write_one_call(f, rows=True, syntax=syntax)
            return (f"tools-one-call-{name}", lambda: doc(f"one-call-{syntax}", writer), ["tools"], None)

        def schema_file(name, schema):
            """`schema` written as JSON to the file `name`: its path."""
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                json.dump(schema, f)
            return path

        schema_path = schema_file("records.schema.json", RECORD_SCHEMA)
        ids_path = schema_file(
            "ids.schema.json",
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
        )
        tags_text_path = schema_file(
            "tags-text.schema.json",
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "integer"}, "tags": {"type": "string"}},
                },
            },
        )
        note_path = schema_file(
            "notes.schema.json",
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "integer"}, "note": {"type": "string"}},
                    "required": ["id", "note"],
                },
            },
        )
        text_path = schema_file(
            "text.schema.json",
            {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        )
        record_path = schema_file("record.schema.json", RECORD_SCHEMA["items"])
        # The records' array with bounds on its length, alone and as an object's member.
        bounded = {**RECORD_SCHEMA, "minItems": 1, "maxItems": 10_000_000}
        bounded_path = schema_file("bounded.schema.json", bounded)
        object_bounded_path = schema_file(
            "object-bounded.schema.json",
            {"type": "object", "properties": {"records": bounded}, "required": ["records"]},
        )
        few_path = schema_file("few.schema.json", {**RECORD_SCHEMA, "maxItems": RECORDS // 2})
        unique_path = schema_file("unique.schema.json", {**RECORD_SCHEMA, "uniqueItems": True})
        one_or_many_path = schema_file("one-or-many.schema.json", {"anyOf": [RECORD_SCHEMA["items"], RECORD_SCHEMA]})
        batches_path = schema_file("batches.schema.json", {"type": "array", "items": RECORD_SCHEMA})
        arrays_map_path = schema_file(
            "arrays-map.schema.json", {"type": "object", "additionalProperties": RECORD_SCHEMA}
        )
        object_one_or_many_path = schema_file(
            "object-one-or-many.schema.json",
            {
                "type": "object",
                "properties": {"records": {"anyOf": [RECORD_SCHEMA["items"], RECORD_SCHEMA]}},
                "required": ["records"],
            },
        )
        object_path = schema_file(
            "object.schema.json", {"type": "object", "properties": {"records": RECORD_SCHEMA}, "required": ["records"]}
        )

        def nested(required):
            """The schema that leads to the records two objects deep, `required` its keys."""
            result = {
                "type": "object",
                "properties": {"records": RECORD_SCHEMA, "more": {"type": "boolean"}},
                "required": ["records"],
            }
            return {
                "type": "object",
                "properties": {"page": {"type": "integer"}, "result": result},
                "required": required,
            }

        nested_path = schema_file("nested.schema.json", nested(["result"]))
        # The same, `result` optional: an item that cannot be recovered drops it.
        optional_path = schema_file("optional.schema.json", nested(["page"]))
        two_path = schema_file(
            "two.schema.json",
            {
                "type": "object",
                "properties": {"users": RECORD_SCHEMA, "orders": RECORD_SCHEMA},
                "required": ["users", "orders"],
            },
        )
        map_path = schema_file("map.schema.json", {"type": "object", "additionalProperties": RECORD_SCHEMA["items"]})
        tagged_path = schema_file(
            "tagged.schema.json",
            {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "type": {"const": "records"},
                            "total": {"type": "integer"},
                            "records": RECORD_SCHEMA,
                        },
                        "required": ["type", "records"],
                    },
                    {
                        "type": "object",
                        "properties": {"type": {"const": "error"}, "message": {"type": "string"}},
                        "required": ["type", "message"],
                    },
                ]
            },
        )
        # Serde's externally and adjacently tagged enums, the records in a `Page` variant.
        page = {
            "type": "object",
            "properties": {"total": {"type": "integer"}, "records": RECORD_SCHEMA},
            "required": ["records"],
        }

        def variant(name, content):
            return {"type": "object", "properties": {name: content}, "required": [name], "additionalProperties": False}

        def tagged(name, content):
            return {"type": "object", "properties": {"t": {"const": name}, "c": content}, "required": ["t", "c"]}

        external_path = schema_file(
            "external.schema.json",
            {
                "oneOf": [
                    {"type": "string", "enum": ["Empty"]},
                    variant("Page", page),
                    variant("Error", {"type": "string"}),
                ]
            },
        )
        # Serde's untagged enum: the page beside an error and nothing.
        untagged_path = schema_file(
            "untagged.schema.json",
            {
                "anyOf": [
                    page,
                    {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]},
                    {"type": "null"},
                ]
            },
        )
        # Two pages that both hold the records (a total, or a cursor), beside nothing; and an
        # internally tagged enum whose two variants both hold them.
        two_pages_path = schema_file(
            "two-pages.schema.json",
            {
                "anyOf": [
                    page,
                    {
                        "type": "object",
                        "properties": {"records": RECORD_SCHEMA, "next": {"type": "string"}},
                        "required": ["records"],
                    },
                    {"type": "null"},
                ]
            },
        )
        tagged_both_path = schema_file(
            "tagged-both.schema.json",
            {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "type": {"const": const},
                            "total": {"type": "integer"},
                            "records": RECORD_SCHEMA,
                        },
                        "required": ["type", "records"],
                    }
                    for const in ["records", "more"]
                ]
            },
        )
        adjacent_path = schema_file(
            "adjacent.schema.json",
            {
                "oneOf": [
                    tagged("Page", page),
                    tagged("Error", {"type": "string"}),
                    {"type": "object", "properties": {"t": {"const": "Empty"}}, "required": ["t"]},
                ]
            },
        )
        users_path = schema_file(
            "users.schema.json",
            {
                "type": "object",
                "properties": {
                    "total": {"type": "integer"},
                    "users": {"type": "object", "additionalProperties": RECORD_SCHEMA["items"]},
                    "more": {"type": "boolean"},
                },
                "required": ["total", "users"],
            },
        )
        any_path = schema_file("any.schema.json", {})
        deep_path = schema_file("deep.schema.json", deep_schema())
        users_open_path = schema_file(
            "users-open.schema.json",
            {
                "type": "object",
                "properties": {
                    "total": {"type": "integer"},
                    "users": {"type": "object", "additionalProperties": True},
                    "more": {"type": "boolean"},
                },
                "required": ["total", "users"],
            },
        )
        open_path = schema_file("open.schema.json", {"type": "object"})
        nested_value_path = schema_file(
            "nested-value.schema.json",
            {
                "type": "object",
                "properties": {"page": {"type": "integer"}, "result": {}},
                "required": ["page", "result"],
            },
        )
        defs_path = schema_file("tools.json", TOOL_DEFS)
        empty = os.path.join(tmp, "empty")
        open(empty, "wb").close()
        runs = [
            ("repair", lambda: doc("messy", write_messy), ["repair"], None),
            ("parse", lambda: doc("messy", write_messy), ["parse", "--schema", schema_path], None),
            # The fenced records cut off inside the last one's `nested` object: its `x` is not
            # required here, so the record is kept and the reply read item by item.
            ("parse-cut", lambda: doc("cut-nested", write_cut("nested")), ["parse", "--schema", schema_path], None),
            # The records' array schema with bounds on its length (`minItems`, `maxItems`).
            ("parse-bounded", lambda: doc("messy", write_messy), ["parse", "--schema", bounded_path], None),
            # Records that must all be different (`uniqueItems`, a `HashSet` or `BTreeSet`).
            ("parse-unique", lambda: doc("messy", write_messy), ["parse", "--schema", unique_path], None),
            # One record or many (an untagged `OneOrMany`): the array is the union's only
            # branch that an array of records can take.
            (
                "parse-one-or-many",
                lambda: doc("messy", write_messy),
                ["parse", "--schema", one_or_many_path],
                None,
            ),
            (
                "parse-jsonl",
                lambda: doc("jsonl", write_jsonl),
                ["parse", "--jsonl", "--schema", record_path],
                None,
            ),
            ("parse-object", lambda: doc("object", write_object), ["parse", "--schema", object_path], None),
            # The records as one or many, the object's property.
            (
                "parse-object-one-or-many",
                lambda: doc("object", write_object),
                ["parse", "--schema", object_one_or_many_path],
                None,
            ),
            ("parse-object-any", lambda: doc("object", write_object), ["parse", "--schema", any_path], None),
            # The records under a key of 2 MiB: exit 1, the fixes' pointers over their budget
            # (session 33).
            ("parse-long-key", lambda: doc("long-key", write_long_key), ["parse", "--schema", any_path], None),
            # The records six objects deep, against a schema that leads there and `{}`: item
            # by item since session 33 (four objects deep at most before).
            ("parse-deep", lambda: doc("deep", write_deep), ["parse", "--schema", deep_path], None),
            ("parse-deep-any", lambda: doc("deep", write_deep), ["parse", "--schema", any_path], None),
            # The records given one by one: a line each, and each after a line of prose (item
            # by item since session 36).
            ("parse-lines", lambda: doc("lines", write_json_lines), ["parse", "--schema", schema_path], None),
            ("parse-prose-items", lambda: doc("prose-items", write_prose_items), ["parse", "--schema", schema_path], None),
            # Arrays of a thousand records, in an array or each under a key (session 36: a
            # batch between threads bounded by what its items hold).
            ("parse-batches-any", lambda: doc("batches", write_batches), ["parse", "--schema", any_path], None),
            ("parse-batches", lambda: doc("batches", write_batches), ["parse", "--schema", batches_path], None),
            ("parse-arrays-any", lambda: doc("map-of-arrays", write_map_of_arrays), ["parse", "--schema", any_path], None),
            ("parse-arrays-map", lambda: doc("map-of-arrays", write_map_of_arrays), ["parse", "--schema", arrays_map_path], None),
            # The records' key in another case, renamed by recovery (session 31).
            (
                "parse-object-miscased",
                lambda: doc("miscased", write_miscased),
                ["parse", "--schema", object_path],
                None,
            ),
            (
                "parse-nested-miscased",
                lambda: doc("nested-miscased", write_nested_miscased),
                ["parse", "--schema", nested_path],
                None,
            ),
            # `{"type": "object"}` keeps every member as `{}` does (session 28).
            ("parse-object-open", lambda: doc("object", write_object), ["parse", "--schema", open_path], None),
            (
                "parse-object-bounded",
                lambda: doc("object", write_object),
                ["parse", "--schema", object_bounded_path],
                None,
            ),
            # The records' array in a wrapper object, against the array schema: recovery takes
            # the array out of the wrapper (see BENCHMARKS, issue 20).
            ("parse-wrapped", lambda: doc("object", write_object), ["parse", "--schema", schema_path], None),
            # The same with a count and a cursor beside the array (session 41).
            ("parse-wrapped-counted", lambda: doc("counted", write_counted), ["parse", "--schema", schema_path], None),
            # One large object: of the records keyed by id, and of 4.3 million small members.
            ("repair-keyed", lambda: doc("keyed", write_keyed), ["repair"], None),
            ("repair-flat", lambda: doc("flat", write_flat), ["repair"], None),
            ("parse-keyed-any", lambda: doc("keyed", write_keyed), ["parse", "--schema", any_path], None),
            ("parse-keyed-open", lambda: doc("keyed", write_keyed), ["parse", "--schema", open_path], None),
            ("parse-flat-any", lambda: doc("flat", write_flat), ["parse", "--schema", any_path], None),
            ("parse-keyed-map", lambda: doc("keyed", write_keyed), ["parse", "--schema", map_path], None),
            # The records in an internally tagged enum's branch.
            ("parse-tagged", lambda: doc("tagged", write_tagged), ["parse", "--schema", tagged_path], None),
            # The records in an externally tagged enum's variant.
            ("parse-external", lambda: doc("external", write_external), ["parse", "--schema", external_path], None),
            # The records in an untagged enum's branch.
            ("parse-untagged", lambda: doc("untagged", write_untagged), ["parse", "--schema", untagged_path], None),
            # The same against two pages that both fit the object around the records, and
            # against two tagged variants that both hold them.
            ("parse-two-pages", lambda: doc("untagged", write_untagged), ["parse", "--schema", two_pages_path], None),
            ("parse-tagged-both", lambda: doc("tagged", write_tagged), ["parse", "--schema", tagged_both_path], None),
            # A record that cannot be recovered in the untagged enum's page: every branch
            # fails, and the union's error is the record's.
            (
                "parse-untagged-error",
                lambda: doc("untagged-bad", lambda f: write_untagged(f, bad=RECORDS // 2)),
                ["parse", "--schema", untagged_path],
                None,
            ),
            # The records as an adjacently tagged enum's content.
            ("parse-adjacent", lambda: doc("adjacent", write_adjacent), ["parse", "--schema", adjacent_path], None),
            # The keyed records as an object's member (a map below the root).
            ("parse-users", lambda: doc("users", write_users), ["parse", "--schema", users_path], None),
            ("parse-users-any", lambda: doc("users", write_users), ["parse", "--schema", any_path], None),
            # `users` an object of any members (a `HashMap<String, Value>`), a map of any values.
            ("parse-users-open", lambda: doc("users", write_users), ["parse", "--schema", users_open_path], None),
            ("parse-nested", lambda: doc("nested", write_nested), ["parse", "--schema", nested_path], None),
            ("parse-nested-any", lambda: doc("nested", write_nested), ["parse", "--schema", any_path], None),
            # `result` any value (a `serde_json::Value` field): the records followed in it.
            (
                "parse-nested-value",
                lambda: doc("nested", write_nested),
                ["parse", "--schema", nested_value_path],
                None,
            ),
            # Records whose strings hold raw line breaks and tabs, valid once sanitized: read
            # item by item, each string's fixes one warning, found as it is written.
            (
                "parse-raw-breaks",
                lambda: doc("raw-breaks", write_raw_breaks),
                ["parse", "--schema", note_path],
                None,
            ),
            # The same records through `repair` (session 39): a sanitized copy about as long
            # as the reply, written over itself.
            (
                "repair-raw-breaks",
                lambda: doc("raw-breaks", write_raw_breaks),
                ["repair"],
                None,
            ),
            # A reply with no JSON at all, read as one string (session 46: its text was held
            # twice and its JSON once more, 4.1x at 20 MB; now written as it is escaped).
            (
                "repair-plain-text",
                lambda: doc("plain-text", write_pattern("", "the model said it would answer soon ", "")),
                ["repair"],
                None,
            ),
            # Records whose ids are integers against a string schema, one beyond 64 bits
            # (session 47): its digits are kept as the reply writes them, which `large`
            # did only for the array whole (21.51x) until session 48, which reads the item
            # alone again for its text.
            (
                "parse-rounded-id",
                lambda: doc("ids", write_ids),
                ["parse", "--schema", ids_path],
                None,
            ),
            # The same records, one with its tags an object where the schema wants a string,
            # kept as the reply writes it: read whole the same way until session 48
            # (22.60x).
            (
                "parse-object-as-text",
                lambda: doc("ids-tags", lambda f: write_ids(f, tags_object=True)),
                ["parse", "--schema", tags_text_path],
                None,
            ),
            # One string of invalid escapes (`\q` repeated), against an object with a
            # string field: the sanitizer's fixes in one string are one warning.
            (
                "parse-escapes",
                lambda: doc("escapes", write_pattern('{"text": "', "\\q", '"}')),
                ["parse", "--schema", text_path],
                None,
            ),
            # One string of raw control characters (each `\u0001` in JSON, six bytes).
            (
                "parse-control-chars",
                lambda: doc("control-chars", write_pattern('{"text": "', "\x01", '"}')),
                ["parse", "--schema", text_path],
                None,
            ),
            # The same left open, against `{}` (session 46): the lenient parser's, item by
            # item; its sanitized copy, six times the reply, is no longer made (7.24x at
            # 20 MB before).
            (
                "parse-open-control-chars",
                lambda: doc("open-control-chars", write_pattern('{"text": "', "\x01", "")),
                ["parse", "--schema", any_path],
                None,
            ),
            # The floor under both: one valid string with an escape, so that `serde_json`
            # decodes it into its scratch buffer and copies it into the value.
            (
                "parse-valid-string",
                lambda: doc("valid-string", write_pattern('{"text": "\\n', "a", '"}')),
                ["parse", "--schema", text_path],
                None,
            ),
            # Two arrays of records in one object.
            ("parse-two", lambda: doc("two", write_two), ["parse", "--schema", two_path], None),
            ("parse-two-any", lambda: doc("two", write_two), ["parse", "--schema", any_path], None),
            # A record that cannot be recovered in an optional object: recovery drops it.
            (
                "parse-optional-error",
                lambda: doc("nested-bad", lambda f: write_nested(f, bad=RECORDS // 2)),
                ["parse", "--schema", optional_path],
                None,
            ),
            (
                "parse-error",
                lambda: doc("messy-bad", lambda f: write_messy(f, bad=RECORDS // 2)),
                ["parse", "--schema", schema_path],
                None,
            ),
            # The same error in the branch of a union of one record or many.
            (
                "parse-one-or-many-error",
                lambda: doc("messy-bad", lambda f: write_messy(f, bad=RECORDS // 2)),
                ["parse", "--schema", one_or_many_path],
                None,
            ),
            # More records than `maxItems`, and two equal records against `uniqueItems`.
            ("parse-bounded-error", lambda: doc("messy", write_messy), ["parse", "--schema", few_path], None),
            (
                "parse-unique-error",
                lambda: doc("messy-again", lambda f: write_messy(f, again=RECORDS // 2)),
                ["parse", "--schema", unique_path],
                None,
            ),
            ("parse-any", lambda: doc("messy", write_messy), ["parse", "--schema", any_path], None),
            (
                "repair-jsonl",
                lambda: doc("messy-lines", write_lines(messy_reply)),
                ["repair", "--jsonl"],
                None,
            ),
            ("tools", lambda: doc("hermes", write_hermes), ["tools"], None),
            (
                "tools-defs",
                lambda: doc("hermes", write_hermes),
                ["tools", "--tools", defs_path],
                None,
            ),
            (
                "tools-jsonl",
                lambda: doc("hermes-lines", write_lines(hermes_reply)),
                ["tools", "--jsonl"],
                None,
            ),
            ("tools-pythonic", lambda: doc("pythonic", write_pythonic), ["tools"], None),
            # One call of about 100 MB: one string argument, and an array of small objects.
            ("tools-one-call", lambda: doc("one-call", write_one_call), ["tools"], None),
            # One call whose string argument is raw control characters (found by a probe in
            # session 46): its JSON is six times the string; held as its value since
            # session 47.
            (
                "tools-control-chars",
                lambda: doc(
                    "tools-control-chars",
                    write_pattern(
                        '<tool_call>{"name": "f", "arguments": {"a": "', "\x01", '"}}</tool_call>'
                    ),
                ),
                ["tools"],
                None,
            ),
            (
                "tools-control-chars-defs",
                lambda: doc(
                    "tools-control-chars-write",
                    write_pattern(
                        '<tool_call>{"name": "write_file", "arguments": {"path": "a", "content": "',
                        "\x01",
                        '"}}</tool_call>',
                    ),
                ),
                ["tools", "--tools", defs_path],
                None,
            ),
            (
                "tools-control-chars-params",
                lambda: doc(
                    "tools-control-chars-params",
                    write_pattern(
                        "<tool_call>\n<function=f>\n<parameter=a>\n",
                        "\x01",
                        "\n</parameter>\n</function>\n</tool_call>",
                    ),
                ),
                ["tools"],
                None,
            ),
            (
                "tools-control-chars-pythonic",
                lambda: doc(
                    "tools-control-chars-pythonic",
                    write_pattern('[f(a="', "\x01", '")]'),
                ),
                ["tools"],
                None,
            ),
            (
                "tools-control-chars-openai",
                lambda: doc(
                    "tools-control-chars-openai",
                    write_pattern(
                        '{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\\"a\\": \\"',
                        "\x01",
                        '\\"}"}}]}',
                    ),
                ),
                ["tools"],
                None,
            ),
            (
                "tools-one-call-rows",
                lambda: doc("one-call-rows", lambda f: write_one_call(f, rows=True)),
                ["tools"],
                None,
            ),
            # The same two calls checked against their tools' definitions.
            (
                "tools-one-call-defs",
                lambda: doc("one-call", write_one_call),
                ["tools", "--tools", defs_path],
                None,
            ),
            (
                "tools-one-call-rows-defs",
                lambda: doc("one-call-rows", lambda f: write_one_call(f, rows=True)),
                ["tools", "--tools", defs_path],
                None,
            ),
            # The rows call in every other syntax: `tools-one-call-<name>`.
            *(
                one_call_rows(name, syntax)
                for name, syntax in [
                    ("bare", "bare"),
                    ("kimi", "kimi"),
                    ("pythonic", "pythonic"),
                    ("gemma", "gemma"),
                    ("hunyuan", "hunyuan"),
                    ("apertus", "apertus"),
                    ("minimax", "minimax"),
                    ("openai", "openai"),
                    ("openai-repaired", "openai-comma"),
                    ("params", "qwen"),
                ]
            ),
            (
                "tools-pythonic-10mb",
                lambda: doc("pythonic-10mb", lambda f: write_pythonic(f, 10_000_000)),
                ["tools"],
                None,
            ),
            ("schema-gemini-json", lambda: doc("schema", write_schema), None, "gemini-json"),
            ("schema-openai", lambda: doc("schema", write_schema), None, "openai-strict"),
            ("schema-prompt", lambda: doc("schema", write_schema), None, "--prompt"),
            # The largest schema file the CLI reads (16 MiB), and one of 100 MB, refused.
            (
                "schema-prompt-16mib",
                lambda: doc("schema-16mib", lambda f: write_schema(f, 53_000)),
                None,
                "--prompt",
            ),
            (
                "schema-prompt-100mb",
                lambda: doc("schema-100mb", lambda f: write_schema(f, 325_000)),
                None,
                "--prompt",
            ),
        ]
        for adv, (prefix, unit, suffix) in ADVERSARIAL.items():
            runs.append(
                (
                    f"repair-{adv}",
                    lambda adv=adv, w=write_pattern(prefix, unit, suffix): doc(adv, w),
                    ["repair"],
                    None,
                )
            )
        # The string of raw control characters as the whole reply's one fence, and in a
        # fence between two sentences (session 40: read from the fence's body, as bare).
        control_chars = write_pattern(*ADVERSARIAL["control_chars"])
        runs.append(
            (
                "repair-fenced-control_chars",
                lambda: doc("fenced-control_chars", write_in_fence(control_chars)),
                ["repair"],
                None,
            )
        )
        runs.append(
            (
                "repair-prose-fenced-control_chars",
                lambda: doc(
                    "prose-fenced-control_chars",
                    write_in_fence(control_chars, "Here it is:\n", "Done.\n"),
                ),
                ["repair"],
                None,
            )
        )
        writers = {
            "messy": write_messy,
            "hermes": write_hermes,
            "schema": write_schema,
            "valid": write_valid,
            "fenced": write_fenced,
            "cut-nested": write_cut("nested"),
            "cut-x": write_cut("x"),
            "control_chars": write_pattern(*ADVERSARIAL["control_chars"]),
        }
        schemas = {"records": schema_path}
        for function, input_name, schema in LIB_RUNS:
            # A function run on more than one input is named with the input after the first.
            first = next(n for f, n, _ in LIB_RUNS if f == function)
            runs.append(
                (
                    f"lib:{function}" + ("" if input_name == first else f"@{input_name}"),
                    lambda n=input_name: doc(n, writers[n]),
                    [function] + ([schemas[schema]] if schema else []),
                    "lib",
                )
            )
        lib = None
        for name, make, args, schema_mode in runs:
            if wanted and name not in wanted:
                continue
            src = make()
            size = os.path.getsize(src)
            stdin = src
            run_binary = binary
            if schema_mode == "lib":
                lib = lib or lib_binary()
                run_binary = lib
                args = [args[0], src] + args[1:]
                stdin = empty
            elif schema_mode is not None:
                stdin = empty
                if schema_mode == "--prompt":
                    args = ["schema", "--prompt", src]
                else:
                    args = ["schema", "--dialect", schema_mode, src]
            out = os.path.join(tmp, "out")
            code, elapsed, peak, out_size = measure(run_binary, args, stdin, size, out)
            ratio = peak / size
            print(
                f"{name:30} input {size:>11} bytes, exit {code}, output {out_size:>11} bytes, "
                f"{elapsed:6.2f} s, peak RSS {peak / 1e6:8.1f} MB = {ratio:5.2f}x the input",
                flush=True,
            )
            if ratio > 3 and size >= 99_000_000:
                over.append(name)
    if over:
        sys.exit(f"over 3x the input: {', '.join(over)}")


if __name__ == "__main__":
    main()
