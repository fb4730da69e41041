//! Replies whose shape differs from the schema's, recovered through `from_llm_with_schema`:
//! text where a string is wanted, scalars and wrappers, booleans and enum values in prose.

use llmout::{from_llm_with_schema, ErrorKind, Options, WarningKind};
use serde_json::{json, Value};

/// The value, or the error's kind, and the warnings' kinds.
fn parse(reply: &str, schema: Value) -> Result<(Value, Vec<WarningKind>), ErrorKind> {
    let r = from_llm_with_schema(reply, &schema, &Options::default());
    let kinds = r.warnings.iter().map(|w| w.kind).collect();
    match (r.value, r.error) {
        (Some(v), None) => Ok((v, kinds)),
        (_, Some(e)) => Err(e.kind()),
        (None, None) => panic!("neither a value nor an error for {reply:?}"),
    }
}

fn value(reply: &str, schema: Value) -> Value {
    parse(reply, schema)
        .unwrap_or_else(|e| panic!("{reply:?}: {e:?}"))
        .0
}

#[test]
fn a_string_schema_takes_the_reply_as_written() {
    let schema = json!({"type": "string"});
    // One JSON string is its value.
    assert_eq!(
        parse("\"hi there\"", schema.clone()),
        Ok((json!("hi there"), vec![]))
    );
    // Anything else is the text, not re-serialized and not cut to the JSON inside it.
    assert_eq!(
        parse("Result: {\"a\":   1}", schema.clone()),
        Ok((json!("Result: {\"a\":   1}"), vec![WarningKind::Reshaped]))
    );
    assert_eq!(value("[1,  2]\n", schema.clone()), json!("[1,  2]"));
    // Reasoning is not part of it.
    assert_eq!(
        value("<think>hmm</think>\nPlain answer.", schema),
        json!("Plain answer.")
    );
}

#[test]
fn scalars_wrapped_and_unwrapped() {
    let count = json!({
        "type": "object",
        "properties": {"count": {"type": "integer"}},
        "required": ["count"]
    });
    assert_eq!(
        parse("42", count.clone()),
        Ok((json!({"count": 42}), vec![WarningKind::Reshaped]))
    );
    // Text is not a number.
    assert!(parse("\"forty-two\"", count).is_err());
    // A one-key object around a scalar that is wanted.
    let level = json!({"enum": [1, 2, "max"]});
    assert_eq!(
        parse("{\"level\": \"MAX\"}", level.clone()),
        Ok((
            json!("max"),
            vec![WarningKind::Reshaped, WarningKind::EnumMatched]
        ))
    );
    assert!(parse("{\"level\": 1, \"note\": \"x\"}", level).is_err());
    // Of an array where one enum value is wanted, the only item that is one.
    assert_eq!(
        value("[\"beta\", \"gamma\"]", json!({"enum": ["alpha", "beta"]})),
        json!("beta")
    );
}

#[test]
fn an_object_given_without_the_only_field_around_it() {
    let call = json!({"type": "object", "properties": {
        "name": {"type": "string"}, "radius": {"type": "number"}
    }, "required": ["name"]});
    let choice = json!({
        "type": "object",
        "properties": {"selected": {"anyOf": [call, {"type": "null"}]}},
        "required": ["selected"]
    });
    let r = from_llm_with_schema("{name: area, radius: 5}", &choice, &Options::default());
    assert_eq!(
        r.value,
        Some(json!({"selected": {"name": "area", "radius": 5}}))
    );
    let reshaped: Vec<(&str, &str)> = r
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Reshaped)
        .map(|w| (w.path.as_str(), w.message.as_ref()))
        .collect();
    assert_eq!(
        reshaped,
        [(
            "",
            "made an object with keys \"name\", \"radius\" the value of the only field `selected`"
        )]
    );
    // Not without a key of the inner object (an echoed schema, an example of something
    // else), and not when a key is the outer object's own.
    assert_eq!(
        parse("{\"colour\": \"red\"}", choice.clone()),
        Err(ErrorKind::Mismatch)
    );
    // (A runtime schema keeps the keys it does not list: `name` stays beside `selected`.)
    assert_eq!(
        value("{\"selected\": null, \"name\": \"x\"}", choice),
        json!({"selected": null, "name": "x"})
    );
}

#[test]
fn booleans_in_prose() {
    let b = json!({"type": "boolean"});
    assert_eq!(
        value(
            "After checking every line of the return, the answer is: **True**",
            b.clone()
        ),
        json!(true)
    );
    assert_eq!(
        value(
            "False.\n\nThe claim does not survive a check of the figures in the table.",
            b.clone()
        ),
        json!(false)
    );
    // Both named, or the only one negated: no answer.
    assert_eq!(
        parse(
            "It could be true or false depending on which of the two figures you trust.",
            b.clone()
        ),
        Err(ErrorKind::Ambiguous)
    );
    assert!(parse(
        "That is not true for any of the cases listed in the second table below.",
        b.clone()
    )
    .is_err());
    // An array of booleans from a sentence: its one item.
    assert_eq!(
        value(
            "The answer is yes",
            json!({"type": "array", "items": {"type": "boolean"}})
        ),
        json!([true])
    );
}

#[test]
fn text_for_a_union_that_takes_text() {
    let schema = json!({"anyOf": [{"type": "number"}, {"type": "string"}]});
    assert_eq!(
        value("2 cups of flour, sifted", schema),
        json!("2 cups of flour, sifted")
    );
}

#[test]
fn a_json_reply_that_does_not_fit_is_an_error_not_text() {
    // The whole reply is an array: it is not read again as prose.
    let schema = json!({"type": "array", "items": {"type": "integer"}, "minItems": 1});
    assert_eq!(
        parse("[\"7\", \"seven\"]", schema),
        Err(ErrorKind::Mismatch)
    );
    let named = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"]
    });
    assert!(parse("[{}]", named).is_err());
}

#[test]
fn json_in_a_fence_or_tag_that_does_not_fit_is_an_error_not_text() {
    let named = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"]
    });
    // A fence or an answer tag that holds an object is a JSON reply, closed or cut off.
    for reply in [
        "```json\n{\"label\": 2}\n```",
        "Here it is:\n```\n{\"label\": 2}\n```\nDone.",
        "```json\n{\"label\": 2,",
        "<answer>[{\"label\": 2}]</answer>",
    ] {
        assert_eq!(
            parse(reply, named.clone()),
            Err(ErrorKind::Mismatch),
            "{reply}"
        );
    }
    // JSON met in prose does not make the prose JSON: the text is still the value, and the
    // warning says what was passed over.
    let r = from_llm_with_schema(
        "Set {\"label\": 2} in the config, then [restart] it.",
        &named,
        &Options::default(),
    );
    assert_eq!(
        r.value,
        Some(json!({"name": "Set {\"label\": 2} in the config, then [restart] it."}))
    );
    let messages: Vec<_> = r.warnings.iter().map(|w| w.message.as_ref()).collect();
    assert_eq!(
        messages,
        [
            "no JSON value in the reply fits the schema (2 were read in the prose); read the \
          whole text as the value"
        ]
    );
    // A fence of code that is not JSON leaves the reply text.
    let r = from_llm_with_schema("Run:\n```sh\nmake test\n```", &named, &Options::default());
    assert_eq!(
        r.value,
        Some(json!({"name": "Run:\n```sh\nmake test\n```"}))
    );
    assert_eq!(
        r.warnings[0].message,
        "the reply is plain text, not JSON; read the text as the value"
    );
}

#[test]
fn an_empty_fence_is_no_text_to_read_as_the_value() {
    // The model opened a fence and wrote nothing in it (or was cut off after its opening
    // line): neither the fence's `json` nor its backticks are the answer, for a string or
    // for an object whose one required field is a string.
    let named = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"]
    });
    for schema in [json!({"type": "string"}), named] {
        for reply in ["```json\n```", "```json\n", "<think>ok</think>\n```json"] {
            let r = from_llm_with_schema(reply, &schema, &Options::default());
            let e = r.error.expect("an error");
            assert_eq!(e.kind(), ErrorKind::NoJson, "{reply:?}");
            assert!(
                e.to_string()
                    .contains("found a code fence with nothing in it"),
                "{e}"
            );
            assert_eq!(r.value, None);
        }
    }
    // A fence with text in it is that text, as written, for a string.
    let r = from_llm_with_schema(
        "```text\nhello\n```",
        &json!({"type": "string"}),
        &Options::default(),
    );
    assert_eq!(r.value, Some(json!("```text\nhello\n```")));
}

#[test]
fn a_string_holding_other_json_stays_a_string() {
    // An array of strings is wanted: the object inside the string is the one string.
    let schema = json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"type": "string"}}},
        "required": ["items"]
    });
    assert_eq!(
        value("{\"items\": \"{\\\"a\\\": 1}\"}", schema.clone()),
        json!({"items": ["{\"a\": 1}"]})
    );
    // An array inside the string is decoded.
    assert_eq!(
        value("{\"items\": \"[\\\"x\\\", \\\"y\\\"]\"}", schema),
        json!({"items": ["x", "y"]})
    );
}

#[test]
fn keys_and_values_in_other_scripts_and_spellings() {
    let schema = json!({
        "type": "object",
        "properties": {"street": {"type": "string"}},
        "required": ["street"],
        "x-aliases": {"Straße": "street"}
    });
    assert_eq!(
        value("{\"STRASSE\": \"Main\"}", schema),
        json!({"street": "Main"})
    );
    let e = json!({"enum": ["Approved", "Rejected"]});
    assert!(parse("The change is not approved.", e.clone()).is_err());
    assert_eq!(value("Rejected, not approved.", e), json!("Rejected"));
}

#[test]
fn an_object_where_a_string_is_wanted_is_its_text_as_written() {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "props": {"type": "string"}},
        "required": ["name", "props"]
    });
    // Not JSON the parser wrote for it (`{"title":"string","onClick":"() => void"}`), and
    // not the parser's fixes inside it either: only the recovery's warning remains.
    let reply = "{name: Card, props: {title: string, onClick: () => void}}";
    let r = from_llm_with_schema(reply, &schema, &Options::default());
    assert_eq!(
        r.value,
        Some(json!({"name": "Card", "props": "{title: string, onClick: () => void}"}))
    );
    let said: Vec<(WarningKind, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            (
                WarningKind::Repaired(llmout::repair::RepairKind::UnquotedKey),
                ""
            ),
            (
                WarningKind::Repaired(llmout::repair::RepairKind::UnquotedValue),
                "/name"
            ),
            (
                WarningKind::Repaired(llmout::repair::RepairKind::UnquotedKey),
                ""
            ),
            (WarningKind::Coerced, "/props"),
        ]
    );
    assert_eq!(
        r.warnings[3].message,
        "the schema asks for a string: kept an object as the reply writes it"
    );
    // Valid JSON keeps its spacing; an array too; under a renamed key and in a wrapped array.
    let list = json!({
        "type": "object",
        "properties": {"rows": {"type": "array", "items": {
            "type": "object",
            "properties": {"cells": {"type": "string"}},
            "required": ["cells"]
        }}},
        "required": ["rows"]
    });
    assert_eq!(
        value("{\"Rows\": {\"cells\": [1,  'two']}}", list.clone()),
        json!({"rows": [{"cells": "[1,  'two']"}]})
    );
    assert_eq!(
        value("{\"rows\": [{\"cells\": {\"a\": 1}}]}", list),
        json!({"rows": [{"cells": "{\"a\": 1}"}]})
    );
    // A key given twice is still said: the value it dropped is not the text kept.
    let r = from_llm_with_schema(
        "{\"props\": {a: 1}, \"props\": {b: [2,]}}",
        &json!({"type": "object", "properties": {"props": {"type": "string"}}}),
        &Options::default(),
    );
    assert_eq!(r.value, Some(json!({"props": "{b: [2,]}"})));
    let said: Vec<(WarningKind, &str)> = (r.warnings.iter())
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            (
                WarningKind::Repaired(llmout::repair::RepairKind::DuplicateKey),
                "/props"
            ),
            (WarningKind::Coerced, "/props"),
        ]
    );
}

#[test]
fn after_a_dropped_item_paths_name_where_items_end_up() {
    let schema = json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"n": {"type": "integer"}, "note": {"type": "string"}},
            "required": ["n", "note"]
        }
    });
    let options = Options::default().drop_invalid_items(true);
    let reply = "[{n: 'x', note: a}, {n: '2', note: {k: v}}]";
    let r = from_llm_with_schema(reply, &schema, &options);
    assert_eq!(r.value, Some(json!([{"n": 2, "note": "{k: v}"}])));
    let said: Vec<(WarningKind, &str)> = r
        .warnings
        .iter()
        .filter(|w| !matches!(w.kind, WarningKind::Repaired(_)))
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            (WarningKind::ItemDropped, "/0"),
            (WarningKind::Coerced, "/0/n"),
            (WarningKind::Coerced, "/0/note"),
        ]
    );
    let dropped = r
        .warnings
        .iter()
        .find(|w| w.kind == WarningKind::ItemDropped);
    assert_eq!(
        dropped.map(|w| w.message.as_ref()),
        Some("dropped item 0 of the reply's array: at /0/n: expected an integer, found \"x\"")
    );
}

#[test]
fn a_reasoning_tag_written_in_a_string_is_kept() {
    // JSON that needs repair, whose strings mention reasoning tags: the tags are text, and
    // nothing around them is lost (the whole reply was cut at the tag, and the rest read as
    // reasoning).
    let any = json!({});
    assert_eq!(
        parse("{'prompt': \"use <think> tags\", n: 1}", any.clone()),
        Ok((
            json!({"prompt": "use <think> tags", "n": 1}),
            vec![
                WarningKind::Repaired(llmout::RepairKind::QuoteStyle),
                WarningKind::Repaired(llmout::RepairKind::UnquotedKey)
            ]
        ))
    );
    assert_eq!(
        value("{a: 'ends with </think>', b: [1,]}", any.clone()),
        json!({"a": "ends with </think>", "b": [1]})
    );
    // Reasoning before the answer is still left out, strings in it or not.
    assert_eq!(
        value(
            "<think>draft: {a: \"<think>\"}</think>\n{a: '<reasoning>', b: 2}",
            any
        ),
        json!({"a": "<reasoning>", "b": 2})
    );
}

#[test]
fn a_reasoning_block_inside_the_json_is_left_out_with_a_warning() {
    // A model that reasons halfway through its answer: the block is no part of the value,
    // and the JSON on both sides of it is one value (the part after it was lost, with a
    // warning that the reply was cut off).
    let stray = WarningKind::Repaired(llmout::RepairKind::StrayText);
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": {"type": "integer"}}},
        "required": ["a", "b"]
    });
    assert_eq!(
        parse(
            "Here: {\"a\": <think>is it 1 or {2}?</think> 1, \"b\": [2, <think>]</think> 3]}",
            schema.clone()
        ),
        Ok((json!({"a": 1, "b": [2, 3]}), vec![stray, stray]))
    );
    assert_eq!(
        parse("[<think>x</think>{\"a\": 1}, {\"a\": 2}]", json!({})),
        Ok((json!([{"a": 1}, {"a": 2}]), vec![stray]))
    );
    assert_eq!(
        parse("{\"a\": 1, <think>now b", schema),
        Ok((
            json!({"a": 1, "b": []}),
            vec![
                stray,
                WarningKind::Repaired(llmout::RepairKind::Truncated),
                WarningKind::MissingField
            ]
        ))
    );
}

#[test]
fn a_long_property_name_costs_its_length_once() {
    use llmout::schema::Schema;
    // The check of a schema rebuilt the whole path for every keyword below a name, and kept
    // it for every `$ref`: four megabytes of name above 100 000 properties each with a
    // `$ref` was minutes and gigabytes.
    let name = "n".repeat(4 << 20);
    let properties: serde_json::Map<String, Value> = (0..100_000)
        .map(|i| (format!("a{i}"), json!({"$ref": "#/$defs/T"})))
        .collect();
    let schema = json!({
        "$defs": {"T": {"type": "integer"}},
        "type": "object",
        "properties": {name.clone(): {"type": "object", "properties": properties}}
    });
    assert!(Schema::compile(&schema).is_ok());
    // The dialects walked the schema with a path written out at every node.
    use llmout::schema::dialect::{to_dialect, Dialect};
    let ints: serde_json::Map<String, Value> = (0..20_000)
        .map(|i| (format!("a{i}"), json!({"type": "integer"})))
        .collect();
    let wide = json!({
        "type": "object",
        "properties": {name.clone(): {"type": "object", "properties": ints}}
    });
    for dialect in [Dialect::Anthropic, Dialect::GeminiJson] {
        let out = to_dialect(&wide, dialect).unwrap();
        assert_eq!(
            out["properties"][&name]["properties"]
                .as_object()
                .map(|m| m.len()),
            Some(20_000)
        );
    }
    let e = to_dialect(&wide, Dialect::OpenAiStrict).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidSchema);
    // A loop of references below the name is still reported where it is.
    let looped = json!({
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        "type": "object",
        "properties": {name.clone(): {"$ref": "#/$defs/A"}}
    });
    let e = Schema::compile(&looped).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidSchema);
    assert_eq!(e.path(), "/$defs/B/$ref");
    // `allOf` copies a definition's names with its properties: a long name copied many
    // times counts as many properties would, and meets the bound on merges.
    let copies: serde_json::Map<String, Value> = (0..2_000)
        .map(|i| {
            let p = json!({"type": "object", "properties": {"x": {}}, "allOf": [{"$ref": "#/$defs/B"}]});
            (format!("a{i}"), p)
        })
        .collect();
    let long = "n".repeat(100_000);
    let merged = json!({
        "$defs": {"B": {"type": "object", "properties": {long: {"type": "integer"}}}},
        "type": "object",
        "properties": copies
    });
    assert_eq!(
        Schema::compile(&merged).unwrap_err().to_string(),
        "expected allOf merges and union checks that copy at most 262144 properties and \
         checks, found more"
    );
}

/// A reply whose only JSON is in its reasoning has no answer; the error quotes the text that
/// was read, outside the reasoning, and says the reasoning was left out.
#[test]
fn json_only_in_the_reasoning_is_said_to_be_left_out() {
    let schema = json!({
        "type": "object",
        "properties": {"answer": {"type": "string"}, "confidence": {"type": "number"}},
        "required": ["answer", "confidence"]
    });
    let reply = "The user wants {\"answer\": \"draft\", \"confidence\": 0.1}. Hmm.\n</think>\n\nThe answer is final.";
    let e = from_llm_with_schema(reply, &schema, &Options::default())
        .error
        .expect("an error");
    assert_eq!(e.kind(), ErrorKind::NoJson);
    assert!(
        e.to_string().ends_with(
            "found text with no JSON in it outside its reasoning (68 bytes, not read as the \
             answer): \"The answer is final.\""
        ),
        "{e}"
    );
}
