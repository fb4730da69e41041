//! The `llmout` command-line tool: the library's pipeline for programs in any language.
//!
//! Reads a reply on stdin; see `llmout --help` and the README for the contract.

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "llmout",
    version,
    about = "Turn raw LLM replies into valid JSON, typed values and tool calls"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Repair the JSON in a reply (stdin) and print it on one line.
    Repair,
    /// Recover a reply (stdin) against a JSON schema; print {"value","warnings","recovered"}.
    Parse {
        /// The JSON schema file.
        #[arg(long)]
        schema: std::path::PathBuf,
    },
    /// Read the tool calls in a reply (stdin); print {"content","tool_calls","needs_more_work",
    /// "warnings"}, each call {"id","name","arguments"} and "error" where its arguments could not
    /// be recovered.
    Tools {
        /// A JSON array of tool definitions ({"name", "parameters"}): arguments are recovered
        /// against each tool's schema.
        #[arg(long)]
        tools: Option<std::path::PathBuf>,
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
    let outcome = match cli.command {
        Command::Repair => read_stdin().and_then(|input| repair(&input)),
        Command::Parse { schema } => read_stdin().and_then(|input| parse(&input, &schema)),
        Command::Tools { tools: defs } => {
            read_stdin().and_then(|input| tools(&input, defs.as_deref()))
        }
        Command::Schema {
            dialect,
            prompt,
            file,
        } => schema(dialect.as_deref(), prompt, &file),
    };
    match outcome {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(Failure { code, message }) => {
            eprintln!("llmout: {message}");
            ExitCode::from(code)
        }
    }
}

/// Why a command failed: exit code 1 for input that cannot be recovered, 2 for usage errors.
struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn input(message: impl Into<String>) -> Self {
        Failure {
            code: 1,
            message: message.into(),
        }
    }
    fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

/// Reads all of stdin. Invalid UTF-8 is replaced (U+FFFD), never a crash; valid UTF-8 is
/// not copied.
fn read_stdin() -> Result<String, Failure> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("could not read stdin: {e}")))?;
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
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

fn parse(input: &str, schema_path: &std::path::Path) -> Result<String, Failure> {
    let schema = read_json_file(schema_path)?;
    let result = llmout::from_llm_with_schema(input, &schema, &llmout::Options::default());
    if let Some(err) = &result.error {
        if err.kind() == llmout::ErrorKind::InvalidSchema {
            return Err(Failure::usage(format!("{}: {err}", schema_path.display())));
        }
    }
    let warnings: Vec<String> = result.warnings.iter().map(ToString::to_string).collect();
    let recovered = result.recovered;
    let value = result
        .into_result()
        .map_err(|e| Failure::input(e.to_string()))?;
    Ok(
        serde_json::json!({"value": value, "warnings": warnings, "recovered": recovered})
            .to_string(),
    )
}

/// `schema`: the file's schema in a dialect, or its prompt rendering. A schema the dialect
/// cannot express is an input error (exit 1) naming where.
fn schema(dialect: Option<&str>, prompt: bool, path: &std::path::Path) -> Result<String, Failure> {
    let schema = read_json_file(path)?;
    if prompt {
        return Ok(llmout::schema::prompt::render(&schema));
    }
    let dialect: llmout::schema::dialect::Dialect = dialect
        .unwrap_or_default()
        .parse()
        .map_err(Failure::usage)?;
    let out = llmout::schema::dialect::to_dialect(&schema, dialect)
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
    Ok(out.to_string())
}

/// `tools`: the envelope of DESIGN.md section 7, with the warnings (unknown tools, arguments
/// renamed, coerced or dropped, calls cut off) and, per call, the error when its arguments could
/// not be recovered (a required argument missing: nothing is invented). A reply without calls is
/// content, not an error. With `--tools`, arguments are recovered against the definitions'
/// schemas.
fn tools(input: &str, defs: Option<&std::path::Path>) -> Result<String, Failure> {
    let r = match defs {
        None => llmout::tools::parse(input),
        Some(path) => {
            let defs: Vec<llmout::tools::ToolDef> = serde_json::from_value(read_json_file(path)?)
                .map_err(|e| {
                Failure::usage(format!(
                    "{} is not a list of tool definitions: {e}",
                    path.display()
                ))
            })?;
            llmout::tools::parse_with_tools(input, &defs)
        }
    };
    let calls: Vec<serde_json::Value> = r
        .tool_calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let mut out = serde_json::json!({
                "id": call.id,
                "name": call.name,
                "arguments": call.arguments,
            });
            if let Some(e) = r.call_error(i) {
                out["error"] = serde_json::json!({
                    "kind": e.kind().name(),
                    "path": e.path(),
                    "message": e.to_string(),
                });
            }
            out
        })
        .collect();
    let warnings: Vec<serde_json::Value> = r
        .warnings
        .iter()
        .map(|w| serde_json::json!({"kind": w.kind.name(), "path": w.path, "message": w.message}))
        .collect();
    Ok(serde_json::json!({
        "content": r.content,
        "tool_calls": calls,
        "needs_more_work": r.needs_more_work,
        "warnings": warnings,
    })
    .to_string())
}
