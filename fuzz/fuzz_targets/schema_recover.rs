//! `from_llm_with_schema` with generated schemas (unions, `$ref`, `$defs`, `const`, `enum`) on
//! any reply: never panics, never hangs (libFuzzer's `-timeout` is the check on time: union
//! recovery must stay polynomial). A schema `validate` refuses is refused by `compile` and by
//! the pipeline with the same error; otherwise a value or an error, never both or neither,
//! `recovered` iff warnings, and the value recovered again fits the schema (unless it holds a
//! schema `default`, which is filled in as given). `large::from_llm_with_compiled` gives the
//! same value and warnings, whole or item by item: now and then the generated schema is the
//! items of an array inside an object schema, and the reply is put inside such an object
//! (`{"items": [<reply>]}`, with members around it, or left open), so that the object around
//! the items is read too; or that object inside another (`{"data": {"items": [<reply>]}}`);
//! or the schema is an array of the generated items and the reply in a wrapper object
//! (`{"results": [<reply>]}`), which recovery takes the array out of; or the schema is one
//! generated value or an array of them (`anyOf`, an untagged `OneOrMany`), and the reply an
//! array of two, which is read item by item when the array is the only branch it fits;
//! or the schema is a map of generated values as an object's property, and the reply that
//! object with the map's members (`{"users": {"a": <reply>, "b": <reply>}}`), read one by one;
//! or the object around the items is a branch of an internally tagged union, and the reply
//! names it (`{"type": "a", "items": [<reply>]}`), or of an externally tagged one, whose key
//! names it (`{"A": {"items": [<reply>]}}`), or the content of an adjacently tagged one
//! (`{"t": "a", "c": {"items": [<reply>]}}`); or the object holds two arrays of the items,
//! `items` and `more` (`{"more": [<reply>, <reply>], "x": 1, "items": [<reply>]}`), each
//! read item by item; or the object around the items is a branch of an untagged union
//! beside generated ones (`{"items": [<reply>], a: 1}`, or `Items`), read item by item
//! where it is the only branch that fits that object whatever the items. Now and then the
//! keys on the way are in another case (`{"ITEMS": [<reply>]}`), which recovery renames.
//! One schema in eight is `{}`, against which any object's container that holds least at
//! once is read item by item. `large::recover_json` of the repaired reply's JSON is
//! `recover_with_schema` of its value, exactly (or, where `serde_json` cannot read that JSON,
//! 128 levels deep, its syntax error).
#![no_main]

mod common;

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use llmout::schema::{validate, Schema};
use llmout::Options;

/// A schema put around the generated one (see `common`).
type Wrap = fn(
    &mut Unstructured<'_>,
    serde_json::Value,
) -> libfuzzer_sys::arbitrary::Result<serde_json::Value>;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(mut schema) = common::schema(&mut u) else {
        return;
    };
    let around = u.int_in_range(0..=18).unwrap_or(0);
    let wrap: Option<Wrap> = match around {
        13 => Some(common::object_around_map),
        17 => Some(common::two_around),
        14 => Some(common::tagged_around),
        15 => Some(common::external_around),
        16 => Some(common::adjacent_around),
        18 => Some(common::untagged_around),
        _ => None,
    };
    if let Some(wrap) = wrap {
        let Ok(wrapped) = wrap(&mut u, schema) else {
            return;
        };
        schema = wrapped;
    } else if around == 12 {
        // One value or an array of them (the definitions at the root, where `$ref`s look).
        let defs = schema.as_object_mut().and_then(|m| m.remove("$defs"));
        let items = serde_json::json!({"type": "array", "items": schema.clone()});
        schema = serde_json::json!({"anyOf": [schema, items]});
        if let Some(defs) = defs {
            schema["$defs"] = defs;
        }
    } else if around >= 10 {
        // The items of an array schema, in a wrapper object in the reply, which recovery
        // takes the array out of.
        schema = serde_json::json!({"type": "array", "items": schema});
        if let Some(defs) = schema["items"]
            .as_object_mut()
            .and_then(|m| m.remove("$defs"))
        {
            schema["$defs"] = defs;
        }
    } else if around >= 4 {
        let Ok(wrapped) = common::object_around(&mut u, schema) else {
            return;
        };
        schema = wrapped;
    }
    if (8..10).contains(&around) {
        let Ok(wrapped) = common::object_around_object(&mut u, schema) else {
            return;
        };
        schema = wrapped;
    }
    if u.ratio(1, 8).unwrap_or(false) {
        // Any value: the reply's own arrays, at any depth, may be read item by item.
        schema = serde_json::json!({});
    }
    let reply = String::from_utf8_lossy(u.take_rest());
    let reply = match around {
        5 if reply.len().is_multiple_of(2) => format!("{{\"items\": [{reply}]}}"),
        5 => format!("{{\"ITEMS\": [{reply}]}}"),
        6 => format!("{{a: 1, \"items\": [{reply}], 'name': \"x\"}}"),
        7 => format!("{{Kind: 'k', items: [{reply}"),
        8 => format!("{{\"n\": 1, \"data\": {{\"items\": [{reply}], x: 2}}}}"),
        // (The keys on the way as the schema writes them, or in another case: by length.)
        9 if reply.len().is_multiple_of(2) => format!("{{data: {{a: 1, items: [{reply}"),
        9 => format!("{{DATA: {{a: 1, \"Items\": [{reply}"),
        10 => format!("{{\"results\": [{reply}]}}"),
        11 => format!("{{Rows: [{reply}"),
        12 => format!("[{reply}, {reply}]"),
        13 => format!("{{x: 1, \"users\": {{\"a\": {reply}, b: {reply}}}, 'name': \"n\"}}"),
        14 => format!("{{\"items\": [{reply}], type: 'a'}}"),
        15 => format!("{{A: {{\"items\": [{reply}], n: 1}}}}"),
        16 => format!("{{t: 'a', \"c\": {{\"items\": [{reply}]}}}}"),
        17 => format!("{{\"more\": [{reply}, {reply}], x: 1, \"items\": [{reply}]}}"),
        // (The key as the schema writes it, or not: by the reply's length.)
        18 if reply.len().is_multiple_of(2) => format!("{{\"items\": [{reply}], a: 1}}"),
        18 => format!("{{Items: [{reply}], a: 1}}"),
        _ => reply.into_owned(),
    };
    if let Some(dir) = std::env::var_os("LLMOUT_FUZZ_DUMP") {
        // Writes the generated schema and the reply, to replay them through the CLI.
        let dir = std::path::Path::new(&dir);
        let _ = std::fs::write(dir.join("schema.json"), schema.to_string());
        let _ = std::fs::write(dir.join("reply.txt"), reply.as_bytes());
    }
    let options = Options::default();
    let r = llmout::from_llm_with_schema(&reply, &schema, &options);
    match validate(&schema) {
        Err(e) => {
            assert_eq!(Schema::compile(&schema).unwrap_err(), e);
            assert_eq!(r.error, Some(e));
            return;
        }
        Ok(()) => {
            if let Err(e) = Schema::compile(&schema) {
                // Only the compiler's own limit on references nested through definitions.
                assert_eq!(r.error.as_ref(), Some(&e));
                return;
            }
        }
    }
    assert!(r.value.is_some() != r.error.is_some(), "{r:?}");
    let compiled = Schema::compile(&schema).unwrap();
    match llmout::large::from_llm_with_compiled(&reply, &compiled, &options) {
        llmout::large::Large::Whole(whole) => assert_eq!(whole, r),
        llmout::large::Large::Items(items) => {
            check_hole(&items, serde_json::json!([]));
            assert_eq!(items.to_result(), r);
            assert_eq!(items.recovered(), r.recovered);
        }
        llmout::large::Large::Members(members) => {
            check_hole(&members, serde_json::json!({}));
            assert_eq!(members.to_result(), r);
            assert_eq!(members.recovered(), r.recovered);
        }
    }
    // `large::recover_json` of the repaired reply's text is recovering its value whole.
    if let Ok(repaired) = llmout::repair_text(&reply, &options) {
        let json = repaired.value.to_string();
        let whole = if serde_json::from_str::<serde_json::Value>(&json).is_ok() {
            llmout::recover_with_schema(repaired.value, &schema, &options)
        } else {
            // Nested deeper than `serde_json` reads (the lenient parser reads 128 levels,
            // `serde_json` 127): `recover_json` reads what `serde_json` reads, and says so.
            let e = serde_json::from_str::<serde_json::Value>(&json).unwrap_err();
            let e = llmout::Error::new(llmout::ErrorKind::Syntax, "", "JSON", e.to_string());
            llmout::ValidationResult::err(e, Vec::new())
        };
        match llmout::large::recover_json(&json, &compiled, &options) {
            llmout::large::Large::Whole(r) => assert_eq!(r, whole, "{json}"),
            llmout::large::Large::Items(items) | llmout::large::Large::Members(items) => {
                assert_eq!(items.to_result(), whole, "{json}")
            }
        }
    }
    assert_eq!(r.recovered, !r.warnings.is_empty());
    // (A `default` is filled in as the schema gives it, fitting or not: not checked here.)
    if let (Some(value), false) = (r.value, schema.to_string().contains("\"default\"")) {
        let again = llmout::recover_with_schema(value.clone(), &schema, &options);
        assert!(
            again.value.is_some(),
            "{schema} {reply:?} -> {value} {:?}",
            again.error
        );
    }
});

/// The object around the items, if any, holds `empty` in each items' place; or, where an
/// optional member was dropped for an item that could not be recovered, that place's path
/// leads nowhere and it has no items.
fn check_hole(items: &llmout::large::Items<'_>, empty: serde_json::Value) {
    if let Some((object, first)) = items.around() {
        let object = serde_json::Value::Object(object.clone());
        let paths = items.paths();
        assert_eq!(paths.first(), Some(&first));
        for (i, path) in paths.into_iter().enumerate() {
            match path.iter().try_fold(&object, |v, k| v.get(k.as_str())) {
                Some(hole) => assert_eq!(hole, &empty),
                None => assert_eq!(items.for_each_item_in(i, |_| Err(())), Ok(())),
            }
        }
    }
}
