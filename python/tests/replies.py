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
    # Numbers that json.dumps rewrites.
    '{"small": 0.00001, "big": 1e16, "exact": 98765432109876543210, "neg_zero": -0, "two": 2.50}',
    # Nesting.
    '{"a": {"b": {"c": [[1, 2], [3, {"d": "e"}]]}}}',
    # An empty object and list.
    "{}",
    "[]",
    # Nothing to repair.
    "",
    "   \n\t ",
]
