"""Every function of the llmout package: values, warnings, errors, bad input."""

import doctest
import pickle

import pytest

import llmout
import llmout._errors

PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 5},
        "age": {"type": "integer", "minimum": 0},
    },
    "required": ["name", "age"],
}


def test_docstring_examples_hold():
    for module in (llmout, llmout._errors):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.attempted > 0
        assert result.failed == 0


def test_repair_gives_the_value_and_each_change():
    value, warnings = llmout.repair("Here:\n```json\n{'a': [1, 2,], b: None}\n```")
    assert value == {"a": [1, 2], "b": None}
    assert warnings == [
        {"kind": "repaired", "path": "", "message": "read a string in non-JSON quotes"},
        {"kind": "repaired", "path": "/a", "message": "removed a trailing comma"},
        {"kind": "repaired", "path": "", "message": "quoted an unquoted key"},
        {"kind": "repaired", "path": "/b", "message": "translated a Python or JavaScript literal"},
    ]


def test_repair_of_valid_json_has_no_warnings():
    assert llmout.repair('{"x": [1, 2.5, "y"]}') == ({"x": [1, 2.5, "y"]}, [])


def test_repair_raises_when_there_is_no_json():
    with pytest.raises(llmout.LlmoutError) as e:
        llmout.repair("   ")
    assert e.value.kind == "no_json"
    assert e.value.path == ""
    assert isinstance(e.value, ValueError)


def test_parse_with_a_schema_dict():
    r = llmout.parse('The answer: {"Name": "Ada", "age": "36"}', PERSON)
    assert r == llmout.ParseResult(
        value={"name": "Ada", "age": 36},
        warnings=[
            {
                "kind": "key_renamed",
                "path": "/name",
                "message": 'renamed key "Name" to "name" (the same name in another case or spelling)',
            },
            {"kind": "coerced", "path": "/age", "message": 'read "36" as the integer 36'},
        ],
        recovered=True,
    )


def test_parse_of_a_valid_reply_is_not_recovered():
    assert llmout.parse('{"name": "Ada", "age": 36}', PERSON) == llmout.ParseResult(
        {"name": "Ada", "age": 36}, [], False
    )


def test_parse_error_has_kind_path_expected_found():
    with pytest.raises(llmout.LlmoutError) as e:
        llmout.parse('{"name": "Ada", "age": "old"}', PERSON)
    err = e.value
    assert (err.kind, err.path, err.expected, err.found) == ("mismatch", "/age", "an integer", '"old"')
    assert err.violations == []
    assert str(err) == 'at /age: expected an integer, found "old"'


def test_invalid_lists_every_violation():
    with pytest.raises(llmout.LlmoutError) as e:
        llmout.parse('{"name": "Margaret", "age": -4}', PERSON)
    err = e.value
    assert err.kind == "invalid"
    assert [(v["path"], v["keyword"]) for v in err.violations] == [
        ("/name", "maxLength"),
        ("/age", "minimum"),
    ]
    assert err.violations[0] == {
        "path": "/name",
        "keyword": "maxLength",
        "expected": "at most 5 characters",
        "found": "8 characters",
        "message": "`name` has 8 characters; at most 5 are allowed",
    }
    # The first violation is also the error's own path, expected and found.
    assert (err.path, err.expected, err.found) == ("/name", "at most 5 characters (maxLength)", "8 characters")
    assert str(err) == "at /name: expected at most 5 characters (maxLength), found 8 characters (and 1 more violation)"
    assert err.to_dict()["violations"] == err.violations


def test_the_policy_is_applied():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert llmout.parse('{"n": "3"}', schema).value == {"n": 3}
    with pytest.raises(llmout.LlmoutError) as e:
        llmout.parse('{"n": "3"}', schema, policy="strict")
    assert e.value.kind == "forbidden"
    with pytest.raises(ValueError, match="unknown policy"):
        llmout.parse("{}", schema, policy="sloppy")


def test_a_schema_that_is_not_a_schema():
    with pytest.raises(llmout.LlmoutError) as e:
        llmout.parse("{}", {"type": "object", "properties": {"a": {"$ref": "#/$defs/Nope"}}})
    assert e.value.kind == "invalid_schema"
    assert e.value.path == "/properties/a/$ref"
    with pytest.raises(TypeError, match="schema must be a JSON-schema dict or a Pydantic model class, not str"):
        llmout.parse("{}", '{"type": "object"}')
    with pytest.raises(TypeError):
        llmout.parse("{}", {"type": object()})  # not JSON
    with pytest.raises(llmout.LlmoutError) as e:
        llmout.parse_many(["{}"], {"enum": []})
    assert e.value.kind == "invalid_schema"


def test_parse_with_a_pydantic_model():
    pydantic = pytest.importorskip("pydantic")

    class Task(pydantic.BaseModel):
        title: str
        done: bool = False
        tags: list[str] = []

    r = llmout.parse("```json\n{'title': 'Write tests', 'done': 'yes', 'tags': 'ci'}\n```", Task)
    assert r.value == Task(title="Write tests", done=True, tags=["ci"])
    assert r.recovered is True
    assert [(w["kind"], w["path"]) for w in r.warnings if w["kind"] != "repaired"] == [
        ("coerced", "/done"),
        ("reshaped", "/tags"),
    ]
    lenient = llmout.parse('{"done": true}', Task)
    assert lenient.value == Task(title="", done=True)
    assert lenient.warnings == [
        {"kind": "missing_field", "path": "/title", "message": 'missing field filled with the empty value ""'}
    ]
    out = llmout.parse_many(['{"title": "a"}', '{"done": true}'], Task, policy="no-invent")
    assert out[0].value == Task(title="a")
    assert isinstance(out[1], llmout.LlmoutError)
    assert (out[1].kind, out[1].path) == ("forbidden", "/title")


def test_a_pydantic_validation_error_is_raised_or_kept_in_its_slot():
    pydantic = pytest.importorskip("pydantic")

    class Even(pydantic.BaseModel):
        n: int

        @pydantic.field_validator("n")
        @classmethod
        def even(cls, v: int) -> int:
            if v % 2:
                raise ValueError("odd")
            return v

    with pytest.raises(pydantic.ValidationError):
        llmout.parse('{"n": 3}', Even)
    out = llmout.parse_many(['{"n": 2}', '{"n": 3}'], Even)
    assert out[0] == llmout.ParseResult(Even(n=2), [], False)
    assert isinstance(out[1], pydantic.ValidationError)

    class Picky(pydantic.BaseModel):
        n: int

        @classmethod
        def model_validate(cls, obj, **kwargs):  # any exception, not only ValueError
            raise KeyError("picky")

    out = llmout.parse_many(['{"n": 1}'], Picky)
    assert isinstance(out[0], KeyError)


def test_tools_without_definitions():
    reply = 'Let me look.\n<tool_call>\n{"name": "search", "arguments": {"q": "llmout",}}\n</tool_call>'
    assert llmout.tools(reply) == {
        "content": "Let me look.",
        "tool_calls": [{"id": None, "name": "search", "arguments": {"q": "llmout"}}],
        "needs_more_work": True,
        "warnings": [{"kind": "repaired", "path": "/tool_calls/0/arguments", "message": "removed a trailing comma"}],
    }


def test_tools_with_definitions_recovers_and_reports_errors():
    defs = [
        {"type": "function", "function": {"name": "read", "parameters": {
            "type": "object", "properties": {"path": {"type": "string"}, "line": {"type": "integer"}},
            "required": ["path"]}}},
    ]
    ok = llmout.tools('<tool_call>{"name": "read", "arguments": {"path": "a.txt", "line": "7"}}</tool_call>', defs)
    assert ok["tool_calls"] == [{"id": None, "name": "read", "arguments": {"path": "a.txt", "line": 7}}]
    bad = llmout.tools('<tool_call>{"name": "read", "arguments": {"line": 7}}</tool_call>', defs)
    call = bad["tool_calls"][0]
    assert call["arguments"] == {"line": 7}
    assert call["error"]["kind"] == "forbidden"
    assert call["error"]["path"] == "/tool_calls/0/arguments/path"


def test_tools_with_a_bad_definition_raises():
    with pytest.raises(llmout.LlmoutError) as e:
        llmout.tools("x", [{"name": "f", "parameters": {"type": 3}}])
    assert e.value.kind == "invalid_schema"
    assert e.value.path.startswith("/0/parameters")
    with pytest.raises(ValueError, match="not a list of tool definitions"):
        llmout.tools("x", [{"parameters": {}}])


def test_tools_with_no_calls_is_content():
    assert llmout.tools("Just text.") == {
        "content": "Just text.", "tool_calls": [], "needs_more_work": None, "warnings": [],
    }


BAD_INPUTS = [
    (b'{"a": 1}', TypeError, "a reply must be a str, not bytes (decode it first"),
    (None, TypeError, "a reply must be a str, not NoneType"),
    (42, TypeError, "a reply must be a str, not int"),
    ('{"a": "\ud800"}', UnicodeEncodeError, "surrogates not allowed"),
]


@pytest.mark.parametrize("text,error,message", BAD_INPUTS)
def test_bad_input_raises_a_clear_exception(text, error, message):
    for call in (
        llmout.repair_json,
        llmout.loads,
        llmout.repair,
        lambda t: llmout.parse(t, PERSON),
        llmout.tools,
    ):
        with pytest.raises(error, match=message.replace("(", r"\(")):
            call(text)


def test_huge_and_deep_input():
    big = "[" + ",".join(f"{{'i': {i}}}" for i in range(400_000)) + ",]"  # ~4.4 MB
    assert len(llmout.loads(big)) == 400_000
    deep = "[" * 200_000
    with pytest.raises(llmout.LlmoutError) as e:
        llmout.repair(deep)
    assert e.value.kind == "depth_limit"
    assert llmout.repair_json(deep) == ""


def test_errors_pickle_whole():
    try:
        llmout.parse('{"name": "Ada"}', PERSON, policy="no-invent")
    except llmout.LlmoutError as e:
        err = e
    back = pickle.loads(pickle.dumps(err))
    assert (back.kind, back.path, back.expected, back.found, str(back)) == (
        err.kind, err.path, err.expected, err.found, str(err))


def test_the_readme_example_prints_what_its_comments_say(capsys):
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Python") :]
    block = section[section.index("```python\n") + 10 :]
    block = block[: block.index("```")]
    exec(block, {})
    printed = capsys.readouterr().out.splitlines()
    said = [line.split("# ", 1)[1] for line in block.splitlines() if "# " in line]
    assert len(said) == 2
    assert printed == said


def test_tools_envelope_as_the_cli_prints_it():
    defs = [{"name": "read", "parameters": {
        "type": "object", "properties": {"path": {"type": "string"}, "line": {"type": "integer"}},
        "required": ["path"]}}]
    reply = (
        'Calling: <tool_call>{"name": "read", "arguments": {"line": "7", "extra": 1,}}</tool_call>'
        '<tool_call>{"name": "nope", "arguments": {}}</tool_call>'
    )
    # What `llmout tools --tools defs.json` prints for this reply.
    assert llmout.tools(reply, defs) == {
        "content": "Calling:",
        "tool_calls": [
            {"id": None, "name": "read", "arguments": {"line": "7", "extra": 1}, "error": {
                "kind": "forbidden",
                "path": "/tool_calls/0/arguments/path",
                "message": 'at /tool_calls/0/arguments/path: expected a string for "path" '
                '(required; never filled in), found nothing',
            }},
            {"id": None, "name": "nope", "arguments": {}},
        ],
        "needs_more_work": True,
        "warnings": [
            {"kind": "repaired", "path": "/tool_calls/0/arguments", "message": "removed a trailing comma"},
            {"kind": "unknown_tool", "path": "/tool_calls/1/name", "message": 'no tool is named "nope"'},
        ],
    }
