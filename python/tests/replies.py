"""Replies written for these tests: the mistakes models make, each where json_repair and
llmout agree on the repair."""

COMPAT_REPLIES = [
    # Valid JSON, as it stands.
    '{"city": "Lyon", "population": 522969, "river": "Rhône"}',
    '[1, 2.5, -3, 4e2, "five", null, true, false]',
    '"a lone string"',
    "17",
    # A fence around the answer.
    'Here is the forecast:\n```json\n{"day": "Tuesday", "rain_mm": 4.0}\n```',
    # Python literals and single quotes.
    "{'done': True, 'owner': None, 'retries': 0}",
    # Trailing commas.
    '{"steps": ["mix", "bake", "cool",], "minutes": 45,}',
    # Unquoted keys.
    "{title: 'Moby Dick', pages: 635}",
    # Cut off at max tokens.
    '{"answer": "the meeting moved to Thursday", "confidence": 0.8',
    '[{"id": 1}, {"id": 2}, {"id": 3',
    # Comments.
    '{\n  // the user asked for metric\n  "unit": "cm",\n  "value": 12\n}',
    # Non-ASCII text, an emoji past U+FFFF, a DEL character.
    '{"greeting": "¡Hola, señor! 👋", "raw": "x\x7fy"}',
    # Escapes that must survive.
    '{"path": "C:\\\\temp\\\\new", "quote": "she said \\"no\\"", "tab": "a\\tb"}',
    # Valid JSON with escapes that decode to non-ASCII, and an escaped slash.
    '{"emoji": "\\ud83d\\ude00", "accent": "caf\\u00e9", "slash": "a\\/b"}',
    # Numbers that json.dumps rewrites.
    '{"small": 0.00001, "big": 1e16, "exact": 98765432109876543210, "neg_zero": -0, "two": 2.50}',
    # Strings holding what the rewrite changes outside strings (valid JSON: json_repair
    # splits such a string when it repairs).
    '{"k": "a,b:-0 1.50 \\"q\\" [x] 2E3", "n": -0.0, "m": 2E3, "e": ""}',
    # Nesting.
    '{"a": {"b": {"c": [[1, 2], [3, {"d": "e"}]]}}}',
    # An empty object and list.
    "{}",
    "[]",
    # Nothing to repair.
    "",
    "   \n\t ",
]

# Valid JSON that json_repair's own parser (run on valid JSON by skip_json_loads=True) reads
# otherwise than json.loads does.
JSON_REPAIR_PARSER_DIFFERS = {
    '"a lone string"',
    "17",
    '{"emoji": "\\ud83d\\ude00", "accent": "caf\\u00e9", "slash": "a\\/b"}',
    '{"k": "a,b:-0 1.50 \\"q\\" [x] 2E3", "n": -0.0, "m": 2E3, "e": ""}',
}


def engine_rows(n):
    """`n` replies for the engine tests, with the repaired JSON each must give (as
    `json.dumps(..., ensure_ascii=False)` writes the intended value) and the error kind of
    each that holds none: every seventh reply is empty."""
    import json

    rows = []
    for i in range(n):
        if i % 7 == 3:
            rows.append(("", None, "no_json"))
            continue
        flag = "True" if i % 2 else "False"
        reply = (
            f"Row {i} — here you go:\n```json\n{{'id': {i}, name: 'Zoë {i}', 'ok': {flag}, "
            f"// checked\n 'tags': ['t{i}', None,],}}\n```"
        )
        value = {"id": i, "name": f"Zoë {i}", "ok": bool(i % 2), "tags": [f"t{i}", None]}
        rows.append((reply, json.dumps(value, ensure_ascii=False), None))
    return rows
