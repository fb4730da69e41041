"""llmout.repair_json and llmout.loads against the json_repair package, call for call."""

import json
import random

import json_repair
import pytest

import llmout
from replies import COMPAT_REPLIES, JSON_REPAIR_PARSER_DIFFERS

OPTIONS = [
    {},
    {"ensure_ascii": False},
    {"return_objects": True},
    {"skip_json_loads": True},
    {"indent": 2},
    {"ensure_ascii": False, "sort_keys": True},
]


@pytest.mark.parametrize("reply", COMPAT_REPLIES)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_repair_json_gives_what_json_repair_gives(reply, options):
    if options.get("skip_json_loads") and reply in JSON_REPAIR_PARSER_DIFFERS:
        # json_repair's own parser (what skip_json_loads runs on valid JSON) gives '' for a
        # bare scalar, keeps the backslash of an escaped slash and splits a string at an
        # escaped quote after a comma; llmout gives what
        # json.loads would, as json_repair does without skip_json_loads.
        options = {}
    expected = json_repair.repair_json(reply, **options)
    got = llmout.repair_json(reply, **options)
    assert type(got) is type(expected)
    assert got == expected


@pytest.mark.parametrize("reply", COMPAT_REPLIES)
def test_loads_gives_what_json_repair_gives(reply):
    expected = json_repair.loads(reply)
    got = llmout.loads(reply)
    assert type(got) is type(expected)
    assert got == expected


def test_exact_strings_on_a_messy_reply():
    reply = "Sure:\n```json\n{'name': 'Zoë', tags: ['a', 'b',], 'ok': True, 'n': None, 'x': 1.50,}\n```"
    assert llmout.repair_json(reply) == '{"name": "Zo\\u00eb", "tags": ["a", "b"], "ok": true, "n": null, "x": 1.5}'
    assert llmout.repair_json(reply, ensure_ascii=False) == '{"name": "Zoë", "tags": ["a", "b"], "ok": true, "n": null, "x": 1.5}'
    assert llmout.loads(reply) == {"name": "Zoë", "tags": ["a", "b"], "ok": True, "n": None, "x": 1.5}


def test_nothing_to_repair_gives_an_empty_string():
    for reply in ["", "  ", "}", "]]"]:
        assert llmout.repair_json(reply) == ""
        assert llmout.repair_json(reply, return_objects=True) == ""
        assert llmout.loads(reply) == ""


def test_prose_without_json_is_a_string_unlike_json_repair():
    # A documented difference: llmout reads a reply with no JSON as its text.
    assert json_repair.repair_json("no data today") == ""
    assert llmout.repair_json("no data today") == '"no data today"'
    assert llmout.loads("no data today") == "no data today"


def test_numbers_are_written_as_json_dumps_writes_them():
    rng = random.Random(19)
    floats = [rng.uniform(-1, 1) * 10 ** rng.randint(-320, 308) for _ in range(2000)]
    floats += [0.0, -0.0, 1e-5, 1e-4, 1e15, 1e16, 123456789.125, 5e-324, 1.7976931348623157e308]
    ints = [rng.randint(-(10**30), 10**30) for _ in range(200)] + [0, -1]
    text = json.dumps(floats + ints)
    # A trailing comma, so the text goes through the repair, not json.loads.
    reply = text[:-1] + ",]"
    assert llmout.repair_json(reply) == text
    assert llmout.loads(reply) == floats + ints


def test_out_of_range_numbers_are_null_unlike_json_repair():
    # A documented difference: json_repair writes Infinity, which is not JSON.
    assert json_repair.repair_json("[1e400, -1e400]") == "[Infinity, -Infinity]"
    assert llmout.repair_json("[1e400, -1e400]") == "[null, null]"
