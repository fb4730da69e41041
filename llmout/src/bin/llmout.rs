//! The `llmout` command-line tool: the library's pipeline for programs in any language.
//!
//! Reads a reply from FILE, or from stdin when FILE is absent or `-`; see `llmout --help` and
//! the README for the contract.

use std::io::{Read, Write};
use std::process::ExitCode;

use serde::Serialize;
use serde_json::{json, Value};

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "llmout",
    version,
    about = "Turn raw LLM replies into valid JSON, typed values and tool calls"
)]
struct Cli {
    /// Print JSON indented (two spaces a level) instead of on one line.
    #[arg(long, global = true)]
    pretty: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Repair the JSON in a reply and print it on one line.
    Repair {
        /// The reply; stdin when absent or `-`.
        file: Option<std::path::PathBuf>,
    },
    /// Recover a reply against a JSON schema; print {"value","warnings","recovered"}. A reply
    /// that cannot be recovered, or breaks the schema's constraints, exits 1: the error on
    /// stderr, and {"error": {"kind","path","message","violations"}} on stdout.
    Parse {
        /// The JSON schema file.
        #[arg(long)]
        schema: std::path::PathBuf,
        /// lenient (fill in what is missing, with a warning), no-invent (reinterpret what the
        /// model wrote, but a missing value is an error) or strict (any recovery is an error).
        #[arg(long, default_value = "lenient")]
        policy: llmout::Policy,
        /// The reply; stdin when absent or `-`.
        file: Option<std::path::PathBuf>,
    },
    /// Read the tool calls in a reply; print {"content","tool_calls","needs_more_work",
    /// "warnings"}, each call {"id","name","arguments"} and "error" where its arguments could not
    /// be recovered.
    Tools {
        /// A JSON array of tool definitions ({"name", "parameters"}): arguments are recovered
        /// against each tool's schema.
        #[arg(long)]
        tools: Option<std::path::PathBuf>,
        /// The reply; stdin when absent or `-`.
        file: Option<std::path::PathBuf>,
    },
    /// Rewrite a JSON schema (FILE) for a provider, or render it for a prompt.
    Schema {
        /// openai-strict, anthropic, gemini or gemini-json.
        #[arg(long, required_unless_present = "prompt", conflicts_with = "prompt")]
        dialect: Option<String>,
        /// Print the compact prompt rendering instead.
        #[arg(long)]
        prompt: bool,
        /// The JSON schema file.
        file: std::path::PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let pretty = cli.pretty;
    let outcome = match cli.command {
        Command::Repair { file } => read_input(file.as_deref()).and_then(|input| {
            let json = repair(&input.text)?;
            // stdout holds only the value: the note about the input goes to stderr.
            if let Some(w) = &input.invalid_utf8 {
                let message = w["message"].as_str().unwrap_or_default();
                let _ = writeln!(std::io::stderr(), "llmout: warning: {message}");
            }
            drop(input);
            Ok(Box::new(move |w: &mut dyn Write| {
                if pretty {
                    write_pretty(&json, w)
                } else {
                    w.write_all(json.as_bytes())
                }
            }) as Output)
        }),
        Command::Parse {
            schema,
            policy,
            file,
        } => read_input(file.as_deref()).and_then(|input| parse(input, &schema, policy, pretty)),
        Command::Tools { tools: defs, file } => {
            read_input(file.as_deref()).and_then(|input| tools(input, defs.as_deref(), pretty))
        }
        Command::Schema {
            dialect,
            prompt,
            file,
        } => schema(dialect.as_deref(), prompt, &file, pretty),
    };
    match outcome {
        Ok(write) => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            let written = write(&mut out)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
            match written {
                // A reader that stops early (`llmout repair | head -c1`) is not a failure of
                // llmout's: exit quietly, as if it had read everything.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "llmout: cannot write the output: {e}");
                    ExitCode::from(1)
                }
                Ok(()) => ExitCode::SUCCESS,
            }
        }
        Err(Failure {
            code,
            message,
            detail,
        }) => {
            if let Some(detail) = detail {
                let _ = writeln!(std::io::stdout(), "{detail}");
            }
            let _ = writeln!(std::io::stderr(), "llmout: {message}");
            ExitCode::from(code)
        }
    }
}

/// What a command prints, on one line: written straight to stdout (buffered), so the output is
/// never held whole as one string beside the value it is made from.
type Output = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()>>;

/// Writes `value` as compact JSON, or indented with `pretty`.
fn json_output<T: Serialize + 'static>(value: T, pretty: bool) -> Output {
    Box::new(move |w: &mut dyn Write| {
        if pretty {
            serde_json::to_writer_pretty(w, &value).map_err(Into::into)
        } else {
            serde_json::to_writer(w, &value).map_err(Into::into)
        }
    })
}

/// Writes compact JSON text indented as `serde_json::to_writer_pretty` would, without reading
/// it into a tree: one pass over the text, so numbers stay as written and memory as it is.
fn write_pretty(json: &str, w: &mut dyn Write) -> std::io::Result<()> {
    fn newline(out: &mut impl Write, depth: usize) -> std::io::Result<()> {
        out.write_all(b"\n")?;
        (0..depth).try_for_each(|_| out.write_all(b"  "))
    }
    let bytes = json.as_bytes();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, w);
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            // A string, copied as it is up to its closing quote (an escaped byte is copied
            // with its backslash).
            b'"' => {
                out.write_all(b"\"")?;
                while let Some(p) = bytes[i..].iter().position(|&c| c == b'"' || c == b'\\') {
                    let at = i + p;
                    let end = if bytes[at] == b'\\' { at + 2 } else { at + 1 };
                    let end = end.min(bytes.len());
                    out.write_all(&bytes[i..end])?;
                    i = end;
                    if bytes[at] == b'"' {
                        break;
                    }
                }
            }
            b'{' | b'[' => {
                let close = if b == b'{' { b'}' } else { b']' };
                out.write_all(&[b])?;
                if bytes.get(i) == Some(&close) {
                    out.write_all(&[close])?;
                    i += 1;
                } else {
                    depth += 1;
                    newline(&mut out, depth)?;
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth)?;
                out.write_all(&[b])?;
            }
            b',' => {
                out.write_all(b",")?;
                newline(&mut out, depth)?;
            }
            b':' => out.write_all(b": ")?,
            _ => {
                // A number or a literal: up to the next structural byte.
                let end = bytes[i..]
                    .iter()
                    .position(|c| b",:{}[]\"".contains(c))
                    .map_or(bytes.len(), |p| i + p);
                out.write_all(&bytes[i - 1..end])?;
                i = end;
            }
        }
    }
    out.flush()
}

/// One warning as DESIGN.md section 7 prints it.
#[derive(Serialize)]
struct WarningOut<'a> {
    kind: &'a str,
    path: &'a str,
    message: &'a str,
}

/// The `warnings` array: the note about the input first (invalid UTF-8), then the
/// pipeline's, each `{"kind", "path", "message"}`, written one by one.
struct Warnings {
    input: Option<Value>,
    found: Vec<llmout::Warning>,
}

impl Serialize for Warnings {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq =
            s.serialize_seq(Some(self.found.len() + usize::from(self.input.is_some())))?;
        if let Some(input) = &self.input {
            seq.serialize_element(input)?;
        }
        for w in &self.found {
            seq.serialize_element(&WarningOut {
                kind: w.kind.name(),
                path: &w.path,
                message: &w.message,
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct ParseOut {
    value: Value,
    warnings: Warnings,
    recovered: bool,
}

#[derive(Serialize)]
struct ToolsOut {
    #[serde(flatten)]
    calls: CallsOut,
    warnings: Warnings,
}

/// The response's fields, each call with its `error` when its arguments could not be
/// recovered.
struct CallsOut(llmout::tools::ToolCallResponse);

/// One call as the CLI prints it.
#[derive(Serialize)]
struct CallOut<'a> {
    id: &'a Option<String>,
    name: &'a str,
    arguments: &'a serde_json::Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorOut<'a>>,
}

/// An error as the CLI prints it: `{"kind", "path", "message"}`, and for a value that breaks
/// its schema's constraints, `"violations"`: every one.
#[derive(Serialize)]
struct ErrorOut<'a> {
    kind: &'a str,
    path: &'a str,
    message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    violations: Vec<ViolationOut<'a>>,
}

/// One violation: `{"path", "keyword", "expected", "found", "message"}`.
#[derive(Serialize)]
struct ViolationOut<'a> {
    path: &'a str,
    keyword: &'a str,
    expected: &'a str,
    found: &'a str,
    message: &'a str,
}

impl<'a> ErrorOut<'a> {
    fn of(e: &'a llmout::Error) -> Self {
        ErrorOut {
            kind: e.kind().name(),
            path: e.path(),
            message: e.to_string(),
            violations: e
                .violations()
                .iter()
                .map(|v| ViolationOut {
                    path: v.path(),
                    keyword: v.keyword(),
                    expected: v.expected(),
                    found: v.found(),
                    message: v.message(),
                })
                .collect(),
        }
    }
}

impl Serialize for CallsOut {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let r = &self.0;
        let calls: Vec<CallOut<'_>> = r
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, call)| CallOut {
                id: &call.id,
                name: &call.name,
                arguments: &call.arguments,
                error: r.call_error(i).map(ErrorOut::of),
            })
            .collect();
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("content", &r.content)?;
        m.serialize_entry("tool_calls", &calls)?;
        m.serialize_entry("needs_more_work", &r.needs_more_work)?;
        m.end()
    }
}

/// Why a command failed: exit code 1 for input that cannot be recovered, 2 for usage errors;
/// the line for stderr, and the error as JSON for stdout when there is one.
struct Failure {
    code: u8,
    message: String,
    detail: Option<Value>,
}

impl Failure {
    fn input(message: impl Into<String>) -> Self {
        Failure {
            code: 1,
            message: message.into(),
            detail: None,
        }
    }
    fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: 2,
            message: message.into(),
            detail: None,
        }
    }
    /// A reply that cannot be recovered: its error on stderr (a value that breaks several
    /// constraints: the first, and how many more), and `{"error": {"kind", "path", "message",
    /// "violations"?}}` on stdout with all of them.
    fn unrecovered(e: &llmout::Error) -> Self {
        Failure {
            code: 1,
            message: e.to_string(),
            detail: Some(json!({ "error": ErrorOut::of(e) })),
        }
    }
}

/// The reply read from stdin, and the warning about it when it was not valid UTF-8.
struct Input {
    text: String,
    invalid_utf8: Option<Value>,
}

/// Reads all of stdin. Invalid UTF-8 is replaced (U+FFFD), never a crash, and said: a
/// warning (`invalid_utf8`, with the byte offset of the first bad sequence and how many there
/// were). Valid UTF-8 is not copied.
fn read_input(file: Option<&std::path::Path>) -> Result<Input, Failure> {
    let mut bytes = Vec::new();
    match file.filter(|f| f.as_os_str() != "-") {
        Some(path) => {
            bytes = std::fs::read(path)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
        }
        None => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::input(format!("could not read stdin: {e}")))?;
        }
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Input {
            text,
            invalid_utf8: None,
        }),
        Err(e) => {
            let bytes = e.into_bytes();
            let (mut first, mut count, mut at) = (None, 0usize, 0usize);
            for chunk in bytes.utf8_chunks() {
                at += chunk.valid().len();
                if !chunk.invalid().is_empty() {
                    first.get_or_insert(at);
                    count += 1;
                    at += chunk.invalid().len();
                }
            }
            let first = first.unwrap_or_default();
            let message = match count {
                1 => format!("replaced the invalid UTF-8 at byte {first} of the input with U+FFFD"),
                n => format!(
                    "replaced {n} invalid UTF-8 sequences in the input with U+FFFD, the first at \
                     byte {first}"
                ),
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            drop(bytes);
            Ok(Input {
                text,
                invalid_utf8: Some(json!({"kind": "invalid_utf8", "path": "", "message": message})),
            })
        }
    }
}

fn read_json_file(path: &std::path::Path) -> Result<serde_json::Value, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| Failure::usage(format!("{} is not valid JSON: {e}", path.display())))
}

/// `repair`: the reply's JSON as compact text, written without building a tree, so memory
/// stays at about the input and the output.
fn repair(input: &str) -> Result<String, Failure> {
    llmout::repair_json(input, &llmout::Options::default())
        .map(|r| r.json)
        .map_err(|e| Failure::input(e.to_string()))
}

/// A JSON file holding a schema llmout can use ([`llmout::schema::validate`]): else exit 2.
fn read_schema_file(path: &std::path::Path) -> Result<serde_json::Value, Failure> {
    let schema = read_json_file(path)?;
    llmout::schema::validate(&schema)
        .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    Ok(schema)
}

fn parse(
    input: Input,
    schema_path: &std::path::Path,
    policy: llmout::Policy,
    pretty: bool,
) -> Result<Output, Failure> {
    let schema = read_schema_file(schema_path)?;
    let options = llmout::Options::default().policy(policy);
    let result = llmout::from_llm_with_schema(&input.text, &schema, &options);
    if let Some(err) = &result.error {
        if err.kind() == llmout::ErrorKind::InvalidSchema {
            return Err(Failure::usage(format!("{}: {err}", schema_path.display())));
        }
    }
    drop(input.text);
    // The replaced bytes are a change too: `recovered` is true iff there are warnings.
    let recovered = result.recovered || input.invalid_utf8.is_some();
    let (value, found) = match (result.value, result.error) {
        (Some(value), None) => (value, result.warnings),
        (_, Some(e)) => return Err(Failure::unrecovered(&e)),
        (None, None) => return Err(Failure::input("no value")),
    };
    Ok(json_output(
        ParseOut {
            value,
            warnings: Warnings {
                input: input.invalid_utf8,
                found,
            },
            recovered,
        },
        pretty,
    ))
}

/// `schema`: the file's schema in a dialect, or its prompt rendering. A file that is not a
/// schema is a usage error (exit 2); a schema the dialect cannot express is an input error
/// (exit 1). Both name where.
fn schema(
    dialect: Option<&str>,
    prompt: bool,
    path: &std::path::Path,
    pretty: bool,
) -> Result<Output, Failure> {
    let schema = read_schema_file(path)?;
    if prompt {
        let text = llmout::schema::prompt::render(&schema)
            .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
        return Ok(Box::new(move |w: &mut dyn Write| {
            w.write_all(text.as_bytes())
        }));
    }
    let dialect: llmout::schema::dialect::Dialect = dialect
        .unwrap_or_default()
        .parse()
        .map_err(Failure::usage)?;
    let out = llmout::schema::dialect::to_dialect(&schema, dialect)
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
    Ok(json_output(out, pretty))
}

/// `tools`: the envelope of DESIGN.md section 7, with the warnings (unknown tools, arguments
/// renamed, coerced or dropped, calls cut off) and, per call, the error when its arguments could
/// not be recovered (a required argument missing: nothing is invented). A reply without calls is
/// content, not an error. With `--tools`, arguments are recovered against the definitions'
/// schemas.
fn tools(input: Input, defs: Option<&std::path::Path>, pretty: bool) -> Result<Output, Failure> {
    let mut r = match defs {
        None => llmout::tools::parse(&input.text),
        Some(path) => {
            let defs: Vec<llmout::tools::ToolDef> = serde_json::from_value(read_json_file(path)?)
                .map_err(|e| {
                Failure::usage(format!(
                    "{} is not a list of tool definitions: {e}",
                    path.display()
                ))
            })?;
            for (i, def) in defs.iter().enumerate() {
                llmout::schema::validate(&def.parameters).map_err(|e| {
                    let e = e.at_prefix(&format!("/{i}/parameters"));
                    Failure::usage(format!("{}: {e}", path.display()))
                })?;
            }
            llmout::tools::parse_with_tools(&input.text, &defs)
        }
    };
    drop(input.text);
    let warnings = Warnings {
        input: input.invalid_utf8,
        found: std::mem::take(&mut r.warnings),
    };
    Ok(json_output(
        ToolsOut {
            calls: CallsOut(r),
            warnings,
        },
        pretty,
    ))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::Value;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            ".{0,8}".prop_map(Value::from),
            "[\"\\\\:,{}\\[\\] ]{0,6}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((".{0,4}", inner), 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn write_pretty_writes_what_serde_json_pretty_writes(v in value()) {
            let mut out = Vec::new();
            super::write_pretty(&v.to_string(), &mut out).unwrap();
            prop_assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string_pretty(&v).unwrap());
        }
    }
}
