//! Peak memory of the library's public functions (issue 20: "every public function at most
//! 3x the input at 100 MB"), one call per process: `benches/memory.py` runs this binary with
//! the name of a function and the file of a reply (and a schema where the function takes one)
//! and reads the process's peak with wait4, as for the CLI.
//!
//! Run by hand: `cargo bench --bench memory_lib -- FUNCTION REPLY [SCHEMA]`, with FUNCTION one
//! of the names below. It prints the size of what the function returned (values, warnings or bytes) (so that nothing is
//! optimised away) and exits 0, or 1 when the function returned an error.

use llmout::repair::RepairOptions;
use llmout::schema::Schema;
use serde_json::Value;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [function, reply, rest @ ..] = args.as_slice() else {
        // `cargo bench` runs every bench with no arguments: nothing to measure then.
        return;
    };
    let text = std::fs::read_to_string(reply).expect("the reply is a UTF-8 file");
    // (`text` is moved into the schema functions, which drop it once it is read.)
    let schema = || -> Value {
        let path = rest.first().expect("this function takes a schema");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let options = llmout::Options::default();
    let size: Result<usize, String> = match function.as_str() {
        "repair_json" => llmout::repair_json(&text, &options)
            .map(|r| r.json.len())
            .map_err(|e| e.to_string()),
        // Written to a file, as `llmout repair` writes it.
        "large::repair_json" => llmout::large::repair_json(&text, &options)
            .map_err(|e| e.to_string())
            .and_then(|r| {
                let out =
                    std::fs::File::create(std::env::temp_dir().join("llmout-memory-lib.json"))
                        .map_err(|e| e.to_string())?;
                r.write_to(std::io::BufWriter::new(out))
                    .map(|()| r.changes())
                    .map_err(|e| e.to_string())
            }),
        "repair_text" => llmout::repair_text(&text, &options)
            .map(|r| nodes(&r.value) + r.warnings.len())
            .map_err(|e| e.to_string()),
        "repair::parse" => llmout::repair::parse(&text, &RepairOptions::default())
            .map(|p| nodes(&p.value))
            .map_err(|e| e.to_string()),
        "repair::parse_borrowed" => {
            llmout::repair::parse_borrowed(&text, &RepairOptions::default())
                .map(|p| p.repairs.len())
                .map_err(|e| e.to_string())
        }
        "repair::to_string" => llmout::repair::to_string(&text, &RepairOptions::default())
            .map(|p| p.json.len())
            .map_err(|e| e.to_string()),
        "from_llm_with_schema" => {
            let r = llmout::from_llm_with_schema(&text, &schema(), &options);
            match (r.value, r.error) {
                (Some(v), None) => Ok(nodes(&v) + r.warnings.len()),
                (_, e) => Err(format!("{e:?}")),
            }
        }
        "large::from_llm_with_compiled" => {
            let schema = Schema::compile(&schema()).unwrap();
            match llmout::large::from_llm_with_compiled(&text, &schema, &options) {
                llmout::large::Large::Items(items) | llmout::large::Large::Members(items) => {
                    let mut n = 0;
                    items
                        .for_each_item(|v| -> Result<(), ()> {
                            n += nodes(&v);
                            Ok(())
                        })
                        .unwrap();
                    Ok(n + items.warning_count())
                }
                llmout::large::Large::Whole(r) => match (r.value, r.error) {
                    (Some(v), None) => Ok(nodes(&v)),
                    (_, e) => Err(format!("{e:?}")),
                },
            }
        }
        // The schema functions, with the schema as the reply: what holding it as a `Value`
        // costs (the floor of every one of them), then each.
        "from_llm::<Vec<Record>>" => {
            let r = <Vec<Record> as llmout::LlmOutput>::from_llm(&text);
            match (r.value, r.error) {
                (Some(v), None) => Ok(v.len() + r.warnings.len()),
                (_, e) => Err(format!("{e:?}")),
            }
        }
        "from_llm::<Vec<CheckedRecord>>" => {
            let r = <Vec<CheckedRecord> as llmout::LlmOutput>::from_llm(&text);
            match (r.value, r.error) {
                (Some(v), None) => Ok(v.len() + r.warnings.len()),
                (_, e) => Err(format!("{e:?}")),
            }
        }
        "serde_json::from_str::<Vec<Record>>" => serde_json::from_str::<Vec<Record>>(&text)
            .map(|v| v.len())
            .map_err(|e| e.to_string()),
        "serde_json::from_str" => serde_json::from_str::<Value>(&text)
            .map(|v| nodes(&v))
            .map_err(|e| e.to_string()),
        "prompt::render" => llmout::schema::prompt::render(&value(text))
            .map(|r| r.len())
            .map_err(|e| e.to_string()),
        name if name.starts_with("dialect::") => {
            let (call, dialect) = name
                .trim_end_matches(')')
                .split_once('(')
                .expect("dialect::FUNCTION(DIALECT)");
            let dialect = dialect.parse().expect("a dialect");
            let schema = value(text);
            match call {
                "dialect::to_dialect" => llmout::schema::dialect::to_dialect(&schema, dialect)
                    .map(|v| nodes(&v))
                    .map_err(|e| e.to_string()),
                "dialect::to_dialect_json" => {
                    llmout::schema::dialect::to_dialect_json(&schema, dialect)
                        .map(|t| t.len())
                        .map_err(|e| e.to_string())
                }
                other => Err(format!("no function named {other}")),
            }
        }
        "tools::parse" => Ok(llmout::tools::parse(&text).tool_calls.len()),
        "tools::parse_compact" => Ok(llmout::tools::parse_compact(&text).len()),
        "sanitize" => Ok(llmout::advanced::sanitize::sanitize(&text).text.len()),
        "extract::candidates" => Ok(llmout::advanced::extract::candidates(&text).len()),
        other => Err(format!("no function named {other}")),
    };
    match size {
        Ok(n) => println!("{n}"),
        Err(e) => {
            eprintln!("{function}: {e}");
            std::process::exit(1);
        }
    }
}

/// The schema in `text`, the text dropped once read (as a caller holding a schema has it).
fn value(text: String) -> Value {
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// How many values `v` holds, itself included: what it returned, measured without a copy.
fn nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(nodes).sum(),
        Value::Object(map) => map.values().map(nodes).sum(),
        _ => 0,
    }
}

/// The records of `benches/memory.py` as a type (its `RECORD_SCHEMA`), for the typed entry
/// point.
#[derive(serde::Deserialize, schemars::JsonSchema, llmout::LlmOutput)]
#[allow(dead_code)]
struct Record {
    id: i64,
    name: String,
    desc: String,
    tags: Vec<String>,
    active: bool,
    score: f64,
    note: Option<String>,
    path: String,
    nested: Nested,
}

/// The records with constraints, which `from_llm` checks on valid JSON too (a type with
/// none goes straight from valid JSON into the type).
#[derive(serde::Deserialize, schemars::JsonSchema, llmout::LlmOutput)]
#[allow(dead_code)]
struct CheckedRecord {
    #[schemars(range(min = 0))]
    id: i64,
    #[schemars(length(max = 100))]
    name: String,
    desc: String,
    tags: Vec<String>,
    active: bool,
    score: f64,
    note: Option<String>,
    path: String,
    nested: Nested,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Nested {
    x: Vec<i64>,
}
