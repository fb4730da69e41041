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
    /// With --jsonl: how many replies to answer at once (default: one per core).
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Repair the JSON in a reply and print it on one line.
    Repair {
        /// The reply; stdin when absent or `-`.
        file: Option<std::path::PathBuf>,
        /// Each line of the input is a JSON string holding one reply: print one result per
        /// line, in order, or {"error": {"kind", "message"}} for a reply that fails.
        #[arg(long)]
        jsonl: bool,
    },
    /// Recover a reply against a JSON schema; print {"value","warnings","recovered"}. A reply
    /// that cannot be recovered, or breaks the schema's constraints, exits 1: the error on
    /// stderr, and {"error": {"kind","path","message","violations"}} on stdout.
    Parse {
        /// The JSON schema file (at most 16 MiB).
        #[arg(long)]
        schema: std::path::PathBuf,
        /// lenient (fill in what is missing, with a warning), no-invent (reinterpret what the
        /// model wrote, but a missing value is an error) or strict (any recovery is an error).
        #[arg(long, default_value = "lenient")]
        policy: llmout::Policy,
        /// The reply; stdin when absent or `-`.
        file: Option<std::path::PathBuf>,
        /// Each line of the input is a JSON string holding one reply: print one result per
        /// line, in order, or {"error": {"kind", "message"}} for a reply that fails.
        #[arg(long)]
        jsonl: bool,
    },
    /// Read the tool calls in a reply; print {"content","tool_calls","needs_more_work",
    /// "warnings"}, each call {"id","name","arguments"} and "error" where its arguments could not
    /// be recovered.
    Tools {
        /// A JSON array of tool definitions ({"name", "parameters"}): arguments are recovered
        /// against each tool's schema. At most 16 MiB.
        #[arg(long)]
        tools: Option<std::path::PathBuf>,
        /// The reply; stdin when absent or `-`.
        file: Option<std::path::PathBuf>,
        /// Each line of the input is a JSON string holding one reply: print one result per
        /// line, in order, or {"error": {"kind", "message"}} for a reply that fails.
        #[arg(long)]
        jsonl: bool,
    },
    /// Rewrite a JSON schema (FILE) for a provider, or render it for a prompt.
    Schema {
        /// openai-strict, anthropic, gemini or gemini-json.
        #[arg(long, required_unless_present = "prompt", conflicts_with = "prompt")]
        dialect: Option<String>,
        /// Print the compact prompt rendering instead.
        #[arg(long)]
        prompt: bool,
        /// The JSON schema file (at most 16 MiB).
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
    let global = Global {
        pretty,
        threads: cli.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            usize::from,
        ),
    };
    let outcome = match cli.command {
        Command::Repair { file, jsonl } => run(file.as_deref(), jsonl, global, &Repair),
        Command::Parse {
            schema,
            policy,
            file,
            jsonl,
        } => Parse::new(&schema, policy).and_then(|p| run(file.as_deref(), jsonl, global, &p)),
        Command::Tools {
            tools: defs,
            file,
            jsonl,
        } => Tools::new(defs.as_deref()).and_then(|t| run(file.as_deref(), jsonl, global, &t)),
        Command::Schema {
            dialect,
            prompt,
            file,
        } => schema(dialect.as_deref(), prompt, &file)
            .and_then(|(output, json)| write_out(output, json && pretty)),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure {
            code,
            message,
            detail,
            ..
        }) => {
            if let Some(detail) = detail {
                let _ = writeln!(std::io::stdout(), "{detail}");
            }
            let _ = writeln!(std::io::stderr(), "llmout: {message}");
            ExitCode::from(code)
        }
    }
}

/// What a command prints for one reply: written straight to stdout (buffered), so the output
/// is never held whole as one string beside the value it is made from. JSON is written
/// compact; `--pretty` indents it as it passes (see [`Pretty`]).
type Output<'a> = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + 'a>;

/// The options of every command.
#[derive(Clone, Copy)]
struct Global {
    pretty: bool,
    /// How many threads answer `--jsonl` lines.
    threads: usize,
}

/// A command that answers one reply at a time: what to print for it, or why it cannot. It
/// may take the reply's text out of `input` once it holds what it needs of it (`tools`,
/// whose calls are their own text), so that the text is freed before the answer is written.
trait Answers {
    fn answer<'a>(&'a self, input: &'a mut Input) -> Result<Output<'a>, Failure>;
}

/// Runs a command on the reply in `file` (stdin when absent or `-`), or with `jsonl` on each
/// line of it, and prints what it answers.
fn run(
    file: Option<&std::path::Path>,
    jsonl: bool,
    options: Global,
    command: &(impl Answers + Sync),
) -> Result<(), Failure> {
    let Global { pretty, threads } = options;
    if jsonl {
        if pretty {
            return Err(Failure::usage(
                "--pretty cannot be used with --jsonl: each result is one line",
            ));
        }
        return lines(file, threads, command);
    }
    let mut input = read_input(file)?;
    let output = command.answer(&mut input)?;
    write_out(output, pretty)
}

/// Writes `output` and a newline to stdout, indented with `pretty`. A reader that stops early
/// (`llmout repair | head -c1`) is not a failure of llmout's: that is success, quietly.
fn write_out(output: Output<'_>, pretty: bool) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = if pretty {
        let mut p = Pretty::new(&mut out);
        output(&mut p)
    } else {
        output(&mut out)
    };
    finish(
        written
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush()),
    )
}

/// The outcome of writing to stdout: a closed pipe is success (the reader has what it wanted).
fn finish(written: std::io::Result<()>) -> Result<(), Failure> {
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::input(format!("cannot write the output: {e}"))),
        Ok(()) => Ok(()),
    }
}

/// `--jsonl`: each line of the input is a JSON string holding one reply; each gets one line
/// of output, in order: what the command prints for that reply, or its error (`{"error":
/// {"kind", "message", ...}}`, as the command prints it on stdout for that reply alone) when
/// it cannot answer it (a line that is no JSON string is an `invalid_line`). Exit 0 once every
/// line is answered, whatever the answers.
///
/// The lines are read in batches (see [`Batch`]) by one thread, answered by `threads` others
/// (each takes the next batch when it is done with its last) and written in order by this one.
/// At most [`WINDOW`] batches per answering thread are between being read and being written,
/// so memory follows the batches (and the longest line), not the input.
fn lines(
    file: Option<&std::path::Path>,
    threads: usize,
    command: &(impl Answers + Sync),
) -> Result<(), Failure> {
    use std::sync::mpsc::{channel, sync_channel};
    use std::sync::Mutex;
    let reader: Box<dyn std::io::BufRead + Send> = match file.filter(|f| f.as_os_str() != "-") {
        Some(path) => Box::new(std::io::BufReader::new(
            std::fs::File::open(path)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?,
        )),
        None => Box::new(std::io::BufReader::with_capacity(1 << 16, std::io::stdin())),
    };
    let threads = threads.max(1);
    let window = WINDOW * threads;
    // A batch may be read once a slot is free; a slot is freed once a batch is written.
    let (free, slots) = sync_channel::<()>(window);
    for _ in 0..window {
        let _ = free.send(());
    }
    let (work, batches) = sync_channel::<Batch>(threads);
    // Shared by the answering threads, and gone with the last of them: the reader then stops.
    let batches = std::sync::Arc::new(Mutex::new(batches));
    let (done, answers) = channel::<(u64, Vec<u8>)>();
    std::thread::scope(|scope| {
        let read = scope.spawn(move || read_batches(reader, &slots, &work));
        for _ in 0..threads {
            let done = done.clone();
            let batches = std::sync::Arc::clone(&batches);
            scope.spawn(move || loop {
                let next = batches.lock().map(|b| b.recv());
                let Ok(Ok(batch)) = next else { return };
                if done.send((batch.seq, batch.answer(command))).is_err() {
                    return;
                }
            });
        }
        drop((done, batches));
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let mut waiting = std::collections::BTreeMap::new();
        let mut next = 0u64;
        let mut written = Ok(());
        for (seq, answer) in answers.iter() {
            waiting.insert(seq, answer);
            while let Some(answer) = waiting.remove(&next) {
                written = out.write_all(&answer);
                next += 1;
                if written.is_err() {
                    break;
                }
                // (The reader may have finished: then nobody waits for the slot.)
                let _ = free.send(());
            }
            if written.is_err() {
                break;
            }
        }
        // Whatever stopped the writing, the other threads stop at their next step.
        drop(answers);
        drop(free);
        let written = written.and_then(|()| out.flush());
        let read = read
            .join()
            .unwrap_or_else(|_| Err(Failure::input("the thread reading the input stopped")));
        match finish(written) {
            Ok(()) => read,
            e => e,
        }
    })
}

/// Batches between being read and being written, per answering thread: enough that a thread
/// never waits for the reader or the writer while another answers a slow batch.
const WINDOW: usize = 4;

/// Lines read at a time: a batch ends after this many lines or bytes, whichever comes first
/// (a line longer than that is a batch of its own).
const BATCH_LINES: usize = 256;
const BATCH_BYTES: usize = 256 << 10;

/// Consecutive lines of the input: their bytes, where each ends, and the number of the first.
struct Batch {
    seq: u64,
    first: usize,
    data: Vec<u8>,
    ends: Vec<usize>,
}

impl Batch {
    /// Each line's answer and a line break, in order.
    fn answer(&self, command: &impl Answers) -> Vec<u8> {
        let mut out = Vec::new();
        let mut start = 0;
        for (k, &end) in self.ends.iter().enumerate() {
            answer_line(&self.data[start..end], self.first + k, command, &mut out);
            out.push(b'\n');
            start = end;
        }
        out
    }
}

/// Reads the input into batches and hands them over, each once a slot in the window is free;
/// stops when the input ends, or when nobody takes batches any more.
fn read_batches(
    mut reader: Box<dyn std::io::BufRead + Send>,
    slots: &std::sync::mpsc::Receiver<()>,
    work: &std::sync::mpsc::SyncSender<Batch>,
) -> Result<(), Failure> {
    let mut number = 1;
    for seq in 0u64.. {
        if slots.recv().is_err() {
            return Ok(());
        }
        let mut batch = Batch {
            seq,
            first: number,
            data: Vec::new(),
            ends: Vec::new(),
        };
        while batch.ends.len() < BATCH_LINES && batch.data.len() < BATCH_BYTES {
            let read = reader
                .read_until(b'\n', &mut batch.data)
                .map_err(|e| Failure::input(format!("could not read line {number}: {e}")))?;
            if read == 0 {
                break;
            }
            batch.ends.push(batch.data.len());
            number += 1;
        }
        if batch.ends.is_empty() || work.send(batch).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// Appends the answer to one line (its line break included or not) to `out`.
fn answer_line(line: &[u8], number: usize, command: &impl Answers, out: &mut Vec<u8>) {
    let text = line.strip_suffix(b"\n").unwrap_or(line);
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    let mut input = serde_json::from_slice::<String>(text).map(|reply| Input {
        text: reply,
        invalid_utf8: None,
    });
    let answered = match &mut input {
        Ok(input) => command.answer(input),
        Err(e) => Err(Failure {
            kind: "invalid_line",
            ..Failure::input(format!(
                "line {number} is not a JSON string holding a reply: {e}"
            ))
        }),
    };
    let start = out.len();
    let written = match answered {
        Ok(output) => output(out),
        Err(f) => serde_json::to_writer(
            &mut *out,
            &f.detail
                .unwrap_or_else(|| json!({"error": {"kind": f.kind, "message": f.message}})),
        )
        .map_err(Into::into),
    };
    // Writing to memory fails only where serializing does (a number serde_json refuses):
    // that line's answer is that error, never half a line.
    if let Err(e) = written {
        out.truncate(start);
        let error = json!({"error": {"kind": "output", "message": format!("could not write the answer: {e}")}});
        let _ = serde_json::to_writer(&mut *out, &error);
    }
}

/// Writes `value` as compact JSON.
fn json_output<T: Serialize + 'static>(value: T) -> Output<'static> {
    Box::new(move |w: &mut dyn Write| serde_json::to_writer(w, &value).map_err(Into::into))
}

/// Indents compact JSON as `serde_json::to_writer_pretty` would (two spaces a level) while it
/// is written through: one pass over the bytes, with no tree, so numbers stay as written and
/// memory stays flat. The text written to it must be compact JSON (no whitespace between
/// tokens), as `serde_json::to_writer` and the repair's text are.
struct Pretty<W: Write> {
    out: W,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// The bracket just opened: its line break waits for the next byte, since an empty
    /// container stays on one line (`[]`).
    opened: Option<u8>,
}

impl<W: Write> Pretty<W> {
    fn new(out: W) -> Self {
        Pretty {
            out,
            depth: 0,
            in_string: false,
            escaped: false,
            opened: None,
        }
    }

    fn newline(&mut self) -> std::io::Result<()> {
        self.out.write_all(b"\n")?;
        (0..self.depth).try_for_each(|_| self.out.write_all(b"  "))
    }
}

impl<W: Write> Write for Pretty<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut i = 0;
        while i < buf.len() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                    self.out.write_all(&buf[i..=i])?;
                    i += 1;
                    continue;
                }
                // Copied as it is up to the closing quote or the next backslash.
                let run = buf[i..]
                    .iter()
                    .position(|&c| c == b'"' || c == b'\\')
                    .map_or(buf.len(), |p| i + p);
                self.out.write_all(&buf[i..run])?;
                i = run;
                if let Some(&c) = buf.get(i) {
                    self.out.write_all(&[c])?;
                    i += 1;
                    if c == b'\\' {
                        self.escaped = true;
                    } else {
                        self.in_string = false;
                    }
                }
                continue;
            }
            let b = buf[i];
            i += 1;
            if let Some(open) = self.opened.take() {
                if b == open + 2 {
                    // `[` + 2 is `]`, `{` + 2 is `}`: an empty container.
                    self.out.write_all(&[b])?;
                    continue;
                }
                self.depth += 1;
                self.newline()?;
            }
            match b {
                b'"' => {
                    self.in_string = true;
                    self.out.write_all(b"\"")?;
                }
                b'{' | b'[' => {
                    self.out.write_all(&[b])?;
                    self.opened = Some(b);
                }
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    self.newline()?;
                    self.out.write_all(&[b])?;
                }
                b',' => {
                    self.out.write_all(b",")?;
                    self.newline()?;
                }
                b':' => self.out.write_all(b": ")?,
                _ => {
                    // A number or a literal: up to the next structural byte.
                    let end = buf[i..]
                        .iter()
                        .position(|c| b",:{}[]\"".contains(c))
                        .map_or(buf.len(), |p| i + p);
                    self.out.write_all(&buf[i - 1..end])?;
                    i = end;
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// One warning as DESIGN.md section 7 prints it.
#[derive(Serialize)]
struct WarningOut<'a> {
    kind: &'a str,
    path: &'a str,
    message: &'a str,
}

impl<'a> From<&'a llmout::Warning> for WarningOut<'a> {
    fn from(w: &'a llmout::Warning) -> Self {
        WarningOut {
            kind: w.kind.name(),
            path: &w.path,
            message: &w.message,
        }
    }
}

/// Writes one element of a JSON array being written by hand: a comma before all but the
/// first (`first` says whether none was written yet).
fn write_element(
    w: &mut dyn Write,
    first: &mut bool,
    element: &impl Serialize,
) -> std::io::Result<()> {
    if !std::mem::take(first) {
        w.write_all(b",")?;
    }
    serde_json::to_writer(w, element).map_err(std::io::Error::from)
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
            seq.serialize_element(&WarningOut::from(w))?;
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

/// Why a command failed: exit code 1 for input that cannot be recovered, 2 for usage errors;
/// the line for stderr, `kind` to name it on a `--jsonl` line, and the error as JSON for stdout
/// when there is one.
struct Failure {
    code: u8,
    kind: &'static str,
    message: String,
    detail: Option<Value>,
}

impl Failure {
    fn input(message: impl Into<String>) -> Self {
        Failure {
            code: 1,
            kind: "input",
            message: message.into(),
            detail: None,
        }
    }
    fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: 2,
            kind: "usage",
            message: message.into(),
            detail: None,
        }
    }
    /// A reply that cannot be recovered: its error on stderr (a value that breaks several
    /// constraints: the first, and how many more), and `{"error": {"kind", "path", "message",
    /// "violations"?}}` on stdout with all of them.
    fn unrecovered(e: &llmout::Error) -> Self {
        Failure {
            detail: Some(json!({ "error": ErrorOut::of(e) })),
            ..Failure::error(e)
        }
    }
    /// The reply cannot be recovered: exit 1, with the error's own kind.
    fn error(e: &llmout::Error) -> Self {
        Failure {
            code: 1,
            kind: e.kind().name(),
            message: e.to_string(),
            detail: None,
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
    let cannot = |e: std::io::Error| Failure::usage(format!("cannot read {}: {e}", path.display()));
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SCHEMA_FILE + 1).read_to_string(&mut text))
        .map_err(cannot)?;
    if text.len() as u64 > MAX_SCHEMA_FILE {
        return Err(Failure::usage(format!(
            "{} is over {MAX_SCHEMA_FILE} bytes: a schema or tool definitions file is held \
             whole, at up to 17 times its size in memory, and no provider takes one near this size",
            path.display()
        )));
    }
    serde_json::from_str(&text)
        .map(|Exact(value)| value)
        .map_err(|e| Failure::usage(format!("{} is not valid JSON: {e}", path.display())))
}

/// The largest schema (or tool definitions) file read: 16 MiB. A schema is held as a
/// `Value`, about 17 times the size of its text (BENCHMARKS.md, "Memory"), so this bounds the
/// memory a schema takes at about 280 MB whatever file is given. Providers refuse schemas
/// far smaller (OpenAI: 5 000 properties; Gemini: see `schema::dialect`); a schema over it is
/// a mistake or an attack, and an error (exit 2) is read from at most this many bytes.
const MAX_SCHEMA_FILE: u64 = 16 << 20;

/// A `Value` read with every array and object at its exact size. `Value`'s own
/// `Deserialize` grows each object as its members arrive, and an object's table starts at
/// four members: a schema is mostly objects of one to four members, so that is half its
/// memory (a 6.2 MB schema of 20 000 definitions: 115 MB as `Value` reads it, 60 MB read
/// this way). The same parser and the same errors; the same value (numbers and duplicate
/// keys as `Value` reads them: the last value wins, in the first one's place).
struct Exact(Value);

impl<'de> serde::Deserialize<'de> for Exact {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ExactVisitor).map(Exact)
    }
}

struct ExactVisitor;

impl<'de> serde::de::Visitor<'de> for ExactVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        // As `Value` reads it: a float JSON cannot hold (none parses to one) is null.
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Exact(item)) = seq.next_element()? {
            items.push(item);
        }
        items.shrink_to_fit();
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // Gathered first, since JSON does not say how many members an object has.
        let mut members = Vec::new();
        while let Some((key, Exact(value))) = map.next_entry::<String, Exact>()? {
            members.push((key, value));
        }
        let mut object = serde_json::Map::with_capacity(members.len());
        object.extend(members);
        Ok(Value::Object(object))
    }
}

/// `repair`: the reply's JSON as compact text, written without building a tree, so memory
/// stays at about the input and the output; the output is not held where it is a reply
/// valid once sanitized whose JSON is much longer than it (raw control characters: six
/// times), which is written as it is made ([`llmout::large::repair_json`]).
struct Repair;

impl Answers for Repair {
    fn answer<'a>(&'a self, input: &'a mut Input) -> Result<Output<'a>, Failure> {
        let json = llmout::large::repair_json(&input.text, &llmout::Options::default())
            .map_err(|e| Failure::error(&e))?;
        // stdout holds only the value: the note about the input goes to stderr.
        if let Some(w) = &input.invalid_utf8 {
            let message = w["message"].as_str().unwrap_or_default();
            let _ = writeln!(std::io::stderr(), "llmout: warning: {message}");
        }
        Ok(Box::new(move |w: &mut dyn Write| json.write_to(w)))
    }
}

/// A JSON file holding a schema llmout can use ([`llmout::schema::validate`]): else exit 2.
fn read_schema_file(path: &std::path::Path) -> Result<serde_json::Value, Failure> {
    let schema = read_json_file(path)?;
    llmout::schema::validate(&schema)
        .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    Ok(schema)
}

/// `parse`: the schema, compiled once for every reply.
struct Parse {
    schema: llmout::schema::Schema,
    options: llmout::Options,
}

impl Parse {
    fn new(path: &std::path::Path, policy: llmout::Policy) -> Result<Self, Failure> {
        let schema = read_schema_file(path)?;
        let schema = llmout::schema::Schema::compile(&schema)
            .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
        Ok(Parse {
            schema,
            options: llmout::Options::default().policy(policy),
        })
    }
}

/// Replies shorter than this are read whole: reading item by item runs the parser on a
/// thread of its own for each pass over the reply, which costs more than a short reply's
/// value takes (with `--jsonl`, 1 KB replies took 30x the time of `repair`).
const ITEM_BY_ITEM: usize = 1 << 20;

impl Answers for Parse {
    /// A reply that is one large array, or an object around one, against an array schema,
    /// an object schema with such a property, or `{}`, is read and written item by item
    /// ([`llmout::large`]): memory is the input and a few items, not the value and a warning
    /// per fix. (The same bytes as the whole pipeline's result.)
    fn answer<'a>(&'a self, input: &'a mut Input) -> Result<Output<'a>, Failure> {
        use llmout::large::Large;
        let input = &*input;
        let text = &input.text;
        let result = if text.len() < ITEM_BY_ITEM {
            llmout::from_llm_with_compiled(text, &self.schema, &self.options)
        } else {
            match llmout::large::from_llm_with_compiled(text, &self.schema, &self.options) {
                Large::Whole(result) => result,
                Large::Items(items) | Large::Members(items) => {
                    return Ok(Box::new(move |w: &mut dyn Write| {
                        write_items(w, &items, input.invalid_utf8.as_ref())
                    }))
                }
            }
        };
        // The replaced bytes are a change too: `recovered` is true iff there are warnings.
        let recovered = result.recovered || input.invalid_utf8.is_some();
        let (value, found) = match (result.value, result.error) {
            (Some(value), None) => (value, result.warnings),
            (_, Some(e)) => return Err(Failure::unrecovered(&e)),
            (None, None) => return Err(Failure::input("no value")),
        };
        Ok(json_output(ParseOut {
            value,
            warnings: Warnings {
                input: input.invalid_utf8.clone(),
                found,
            },
            recovered,
        }))
    }
}

/// `{"value": …, "warnings": [...], "recovered": …}` as [`ParseOut`] writes it, from a reply
/// read item by item ([`llmout::large::Items::write_json`]), then each warning, written as
/// it is read.
fn write_items(
    w: &mut dyn Write,
    items: &llmout::large::Items<'_>,
    input: Option<&Value>,
) -> std::io::Result<()> {
    // Millions of small writes: buffered here, where they are not calls through `dyn Write`.
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, w);
    let w = &mut buffered;
    let recovered = items.recovered() || input.is_some();
    w.write_all(b"{\"value\":")?;
    items.write_json(&mut *w)?;
    w.write_all(b",\"warnings\":[")?;
    let mut first = true;
    if let Some(input) = input {
        serde_json::to_writer(&mut *w, input)?;
        first = false;
    }
    items.for_each_warning(|warning| {
        write_element(&mut *w, &mut first, &WarningOut::from(&warning))
    })?;
    write!(w, "],\"recovered\":{recovered}}}")?;
    w.flush()
}

/// `schema`: the file's schema in a dialect, or its prompt rendering (text, not JSON: the
/// flag says which). A file that is not a schema is a usage error (exit 2); a schema the
/// dialect cannot express is an input error (exit 1). Both name where.
fn schema(
    dialect: Option<&str>,
    prompt: bool,
    path: &std::path::Path,
) -> Result<(Output<'static>, bool), Failure> {
    let schema = read_schema_file(path)?;
    if prompt {
        let text = llmout::schema::prompt::render(&schema)
            .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
        let output: Output<'static> =
            Box::new(move |w: &mut dyn Write| w.write_all(text.as_bytes()));
        return Ok((output, false));
    }
    let dialect: llmout::schema::dialect::Dialect = dialect
        .unwrap_or_default()
        .parse()
        .map_err(Failure::usage)?;
    // As text: the rewritten schema is not held whole as a tree beside the schema.
    let out = llmout::schema::dialect::to_dialect_json(&schema, dialect)
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
    drop(schema);
    let output: Output<'static> = Box::new(move |w: &mut dyn Write| w.write_all(out.as_bytes()));
    Ok((output, true))
}

/// `tools`: the envelope of DESIGN.md section 7, with the warnings (unknown tools, arguments
/// renamed, coerced or dropped, calls cut off) and, per call, the error when its arguments could
/// not be recovered (a required argument missing: nothing is invented). A reply without calls is
/// content, not an error. With `--tools`, arguments are recovered against the definitions'
/// schemas.
struct Tools {
    /// The definitions, each tool's schema compiled once for every reply.
    defs: Option<llmout::tools::ToolSet<'static>>,
}

impl Tools {
    fn new(path: Option<&std::path::Path>) -> Result<Self, Failure> {
        let Some(path) = path else {
            return Ok(Tools { defs: None });
        };
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
        Ok(Tools {
            defs: Some(llmout::tools::ToolSet::new(defs)),
        })
    }
}

impl Answers for Tools {
    /// The calls are kept as their JSON while the reply is read ([`llmout::tools::parse_compact`])
    /// and written one by one: a reply of many calls takes about its calls' text in memory.
    /// The reply's text is freed once read: nothing printed needs it.
    fn answer<'a>(&'a self, input: &'a mut Input) -> Result<Output<'a>, Failure> {
        let r = llmout::tools::parse_compact(&std::mem::take(&mut input.text));
        let input = &*input;
        Ok(Box::new(move |w: &mut dyn Write| {
            write_tools(w, &r, self.defs.as_ref(), input.invalid_utf8.as_ref())
        }))
    }
}

/// The envelope as DESIGN.md section 7 prints it: `content`, each call (checked against the
/// definitions, if any, with its `error` where its arguments could not be recovered),
/// `needs_more_work`, then the warnings (the note about the input, the reader's, each call's
/// check's). For those, a call is checked again rather than its warnings held; but for a
/// call with large arguments, whose check (not its warnings: they are read again from the
/// arguments' text) is made once and held.
fn write_tools(
    w: &mut dyn Write,
    r: &llmout::tools::CompactResponse,
    defs: Option<&llmout::tools::ToolSet<'_>>,
    input: Option<&Value>,
) -> std::io::Result<()> {
    write_tools_holding(w, r, defs, input, HELD_WARNINGS)
}

/// How much of the calls' warnings, as written, is held while the calls are written, so that
/// each call is checked once (see [`Held`]).
const HELD_WARNINGS: usize = 16 << 20;

/// [`write_tools`], holding at most about `budget` bytes of the calls' warnings.
fn write_tools_holding(
    w: &mut dyn Write,
    r: &llmout::tools::CompactResponse,
    defs: Option<&llmout::tools::ToolSet<'_>>,
    input: Option<&Value>,
    budget: usize,
) -> std::io::Result<()> {
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, w);
    let w = &mut buffered;
    let schemas = defs.map_or_else(Vec::new, |defs| large_schemas(r, defs));
    let large: Vec<(usize, Checked)> = (schemas.iter())
        .map(|(i, schema)| (*i, check_large(r, *i, schema)))
        .collect();
    w.write_all(b"{\"content\":")?;
    serde_json::to_writer(&mut *w, &r.content)?;
    w.write_all(b",\"tool_calls\":[")?;
    let mut held = Held {
        text: Vec::new(),
        first: true,
        upto: 0,
        budget,
    };
    for i in 0..r.len() {
        if i > 0 {
            w.write_all(b",")?;
        }
        match defs {
            Some(defs) => checked_call(r, i, defs, &large, |checked| {
                checked.write(w)?;
                held.take(i, checked)
            })?,
            None => r.write_call(i, w)?,
        }
    }
    w.write_all(b"],\"needs_more_work\":")?;
    serde_json::to_writer(&mut *w, &r.needs_more_work)?;
    w.write_all(b",\"warnings\":[")?;
    if let Some(input) = input {
        serde_json::to_writer(&mut *w, input)?;
    }
    let mut first = input.is_none();
    for found in &r.warnings {
        write_element(w, &mut first, &WarningOut::from(found))?;
    }
    if let Some(defs) = defs {
        if !held.text.is_empty() {
            if !std::mem::take(&mut first) {
                w.write_all(b",")?;
            }
            w.write_all(&held.text)?;
        }
        // The calls whose warnings were not held, checked again.
        for i in held.upto..r.len() {
            checked_call(r, i, defs, &large, |checked| {
                checked.for_each_warning(|found| {
                    write_element(&mut *w, &mut first, &WarningOut::from(&found))
                })
            })?;
        }
    }
    w.write_all(b"]}")?;
    w.flush()
}

/// The warnings of the first calls, written as the warnings array writes them, kept while
/// the calls are written: the warnings come after the calls, and a call checked once for
/// both is checked in half the time. Taken in order, up to a large call (whose warnings
/// are read again from its text, never held) or until they take `budget` bytes; the calls
/// after those are checked again for their warnings.
struct Held {
    /// The warnings, comma-separated.
    text: Vec<u8>,
    /// Whether `text` holds none yet.
    first: bool,
    /// The calls before this one have their warnings in `text`.
    upto: usize,
    budget: usize,
}

impl Held {
    /// Takes call `index`'s warnings, where the calls before it had theirs taken.
    fn take(&mut self, index: usize, checked: &Checked<'_>) -> std::io::Result<()> {
        if self.upto != index
            || self.text.len() >= self.budget
            || matches!(checked, Checked::Large { .. })
        {
            return Ok(());
        }
        checked.for_each_warning(|found| {
            write_element(&mut self.text, &mut self.first, &WarningOut::from(&found))
        })?;
        self.upto = index + 1;
        Ok(())
    }
}

/// A call's arguments this long or longer are checked from their text, item by item where
/// their shape allows ([`llmout::tools::check_arguments`]); shorter ones are read back as a
/// map and checked whole ([`llmout::tools::check_call`]), which is faster for them.
const LARGE_ARGUMENTS: usize = ITEM_BY_ITEM;

/// The schemas of the tools of the calls whose arguments are large, compiled, with the
/// calls' indices: these calls are checked once, for the calls and for the warnings
/// ([`check_large`]).
fn large_schemas<'s>(
    r: &llmout::tools::CompactResponse,
    defs: &'s llmout::tools::ToolSet<'_>,
) -> Vec<(usize, &'s llmout::schema::Schema)> {
    (0..r.len())
        // (A call held as its value is checked as one: its JSON is never made.)
        .filter(|&i| r.held_call(i).is_none())
        .filter_map(|i| {
            let parts = r
                .parts(i)
                .filter(|p| p.arguments.len() >= LARGE_ARGUMENTS)?;
            Some((i, defs.schema(parts.name)?.ok()?))
        })
        .collect()
}

/// Call `index`'s large arguments checked against `schema`, its tool's.
fn check_large<'a>(
    r: &'a llmout::tools::CompactResponse,
    index: usize,
    schema: &'a llmout::schema::Schema,
) -> Checked<'a> {
    let Some(parts) = r.parts(index) else {
        return Checked::Missing;
    };
    let at = format!("/tool_calls/{index}/arguments");
    let mut checked = llmout::tools::check_arguments(parts.arguments, schema);
    if let llmout::large::Large::Whole(r) = &mut checked {
        r.error = r.error.take().map(|e| e.at_prefix(&at));
    }
    Checked::Large { parts, checked, at }
}

/// Call `index` of `r` checked against `defs`, handed to `f`: as `large` has it (by index),
/// or checked now.
fn checked_call<T>(
    r: &llmout::tools::CompactResponse,
    index: usize,
    defs: &llmout::tools::ToolSet<'_>,
    large: &[(usize, Checked<'_>)],
    f: impl FnOnce(&Checked<'_>) -> std::io::Result<T>,
) -> std::io::Result<T> {
    use llmout::tools::ToolCall;
    if let Ok(k) = large.binary_search_by_key(&index, |(i, _)| *i) {
        return f(&large[k].1);
    }
    if let Some(call) = r.held_call(index) {
        // Held as its value (its JSON would be far longer): checked where it is, its JSON
        // never made.
        let mut warnings = Vec::new();
        let (recovered, error) = defs.check_unchanged(index, call, &mut warnings);
        return f(&Checked::Held {
            call,
            recovered,
            warnings,
            error,
        });
    }
    let Some(parts) = r.parts(index) else {
        return f(&Checked::Missing);
    };
    if parts.arguments.len() >= LARGE_ARGUMENTS && defs.get(parts.name).is_none() {
        // No such tool: `check_call` says so from the name alone; the arguments are as
        // given (and not read back).
        let mut warnings = Vec::new();
        let mut named = ToolCall {
            id: None,
            name: parts.name.to_owned(),
            arguments: serde_json::Map::new(),
        };
        defs.check_call(index, &mut named, &mut warnings);
        return f(&Checked::Unknown { parts, warnings });
    }
    let Some(mut call) = r.call(index) else {
        // (Arguments `serde_json` does not read back as a map, nested past its limit: as
        // given, unchecked.)
        return f(&Checked::Unchecked(parts));
    };
    let mut warnings = Vec::new();
    let error = defs.check_call(index, &mut call, &mut warnings);
    f(&Checked::Whole {
        call,
        warnings,
        error,
    })
}

/// A call checked against the definitions, as `checked_call` finds it.
enum Checked<'a> {
    /// No call there.
    Missing,
    /// Not read back: as given, unchecked.
    Unchecked(llmout::tools::CallParts<'a>),
    /// Read back as a map and checked ([`llmout::tools::check_call`]).
    Whole {
        call: llmout::tools::ToolCall,
        warnings: Vec<llmout::Warning>,
        error: Option<llmout::Error>,
    },
    /// Held as its value by the response, checked where it is: its arguments recovered, or
    /// as given where `recovered` is `None`.
    Held {
        call: &'a llmout::tools::ToolCall,
        recovered: Option<serde_json::Map<String, Value>>,
        warnings: Vec<llmout::Warning>,
        error: Option<llmout::Error>,
    },
    /// Large arguments of a tool with no definition, as given.
    Unknown {
        parts: llmout::tools::CallParts<'a>,
        warnings: Vec<llmout::Warning>,
    },
    /// Large arguments, checked from their text (an error already under `at`, the
    /// arguments' path; the warnings put under it as they are read).
    Large {
        parts: llmout::tools::CallParts<'a>,
        checked: llmout::large::Large<'a>,
        at: String,
    },
}

impl Checked<'_> {
    /// Writes the call as the CLI prints it: `{"id", "name", "arguments"}`, and its `error`
    /// where its arguments could not be recovered (then they are as given).
    fn write<W: Write>(&self, w: &mut W) -> std::io::Result<()> {
        use llmout::large::Large;
        let (id, name, error) = match self {
            Checked::Missing => return Ok(()),
            Checked::Whole { call, error, .. } => (call.id.as_deref(), call.name.as_str(), error),
            Checked::Held { call, error, .. } => (call.id.as_deref(), call.name.as_str(), error),
            Checked::Unknown { parts, .. } | Checked::Unchecked(parts) => {
                (parts.id, parts.name, &None)
            }
            Checked::Large { parts, checked, .. } => {
                let error = match checked {
                    Large::Whole(r) => &r.error,
                    _ => &None,
                };
                (parts.id, parts.name, error)
            }
        };
        w.write_all(b"{\"id\":")?;
        serde_json::to_writer(&mut *w, &id)?;
        w.write_all(b",\"name\":")?;
        serde_json::to_writer(&mut *w, name)?;
        w.write_all(b",\"arguments\":")?;
        match self {
            Checked::Missing => {}
            Checked::Whole { call, .. } => serde_json::to_writer(&mut *w, &call.arguments)?,
            Checked::Held {
                call, recovered, ..
            } => serde_json::to_writer(&mut *w, recovered.as_ref().unwrap_or(&call.arguments))?,
            Checked::Unknown { parts, .. } | Checked::Unchecked(parts) => {
                w.write_all(parts.arguments.as_bytes())?
            }
            Checked::Large { parts, checked, .. } => match checked {
                Large::Whole(r) => match (&r.value, &r.error) {
                    (Some(value @ Value::Object(_)), None) => {
                        serde_json::to_writer(&mut *w, value)?
                    }
                    _ => w.write_all(parts.arguments.as_bytes())?,
                },
                Large::Items(items) if items.around().is_some() => items.write_json(&mut *w)?,
                Large::Members(items) => items.write_json(&mut *w)?,
                // The arguments recovered to an array (a wrapper taken off): no object, kept
                // as given, as `check_call` keeps them.
                Large::Items(_) => w.write_all(parts.arguments.as_bytes())?,
            },
        }
        if let Some(e) = error {
            w.write_all(b",\"error\":")?;
            serde_json::to_writer(&mut *w, &ErrorOut::of(e))?;
        }
        w.write_all(b"}")
    }

    /// Calls `f` with each warning of the check, in order: none where the arguments are
    /// kept as given (an error, or no object), as [`llmout::tools::check_call`] gives them.
    fn for_each_warning(
        &self,
        mut f: impl FnMut(llmout::Warning) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        use llmout::large::Large;
        match self {
            Checked::Missing | Checked::Unchecked(_) => Ok(()),
            Checked::Whole { warnings, .. }
            | Checked::Held { warnings, .. }
            | Checked::Unknown { warnings, .. } => warnings.iter().cloned().try_for_each(f),
            Checked::Large { checked, at, .. } => {
                let under = |mut w: llmout::Warning| {
                    w.path.insert_str(0, at);
                    f(w)
                };
                match checked {
                    Large::Whole(r) => match (&r.value, &r.error) {
                        (Some(Value::Object(_)), None) => {
                            r.warnings.iter().cloned().try_for_each(under)
                        }
                        _ => Ok(()),
                    },
                    Large::Items(items) if items.around().is_none() => Ok(()),
                    Large::Items(items) | Large::Members(items) => items.for_each_warning(under),
                }
            }
        }
    }
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
        /// Whatever the pieces the compact text arrives in.
        #[test]
        fn pretty_writes_what_serde_json_pretty_writes(v in value(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6)) {
            use std::io::Write;
            let compact = v.to_string();
            let mut at: Vec<usize> = cuts.iter().map(|c| c.index(compact.len() + 1)).collect();
            at.push(0);
            at.push(compact.len());
            at.sort_unstable();
            let mut out = Vec::new();
            let mut p = super::Pretty::new(&mut out);
            for w in at.windows(2) {
                p.write_all(&compact.as_bytes()[w[0]..w[1]]).unwrap();
            }
            prop_assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string_pretty(&v).unwrap());
        }

        /// `Exact` reads what `Value` reads, from any text: the value, or the same error.
        #[test]
        fn exact_reads_what_value_reads(v in value(), cut in any::<prop::sample::Index>()) {
            let text = v.to_string();
            let read = |t: &str| serde_json::from_str::<super::Exact>(t).map(|e| e.0).map_err(|e| e.to_string());
            prop_assert_eq!(read(&text), Ok(v));
            let end = (0..=cut.index(text.len() + 1)).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            let cut = &text[..end];
            prop_assert_eq!(read(cut), serde_json::from_str::<Value>(cut).map_err(|e| e.to_string()));
        }
    }

    #[test]
    fn exact_reads_numbers_duplicates_and_depth_as_value_does() {
        for text in [
            r#"{"a": 1, "b": [2, -3, 4.5e300, 18446744073709551615, -9223372036854775808], "a": {"c": null}}"#,
            "0.1",
            "1e400",
            "-0.0",
            "123456789012345678901234567890",
            r#""\ud83d\ude00 \u0000""#,
            r#"{"a": 1,}"#,
            &"[".repeat(200),
        ] {
            let exact = serde_json::from_str::<super::Exact>(text)
                .map(|e| e.0)
                .map_err(|e| e.to_string());
            let value = serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
            assert_eq!(exact, value, "{text}");
            if let Ok(v) = exact {
                assert_eq!(v.to_string(), value.unwrap().to_string(), "{text}");
            }
        }
    }

    #[test]
    fn a_call_held_as_its_value_is_checked_where_it_is() {
        use llmout::tools::{parse_compact, parse_with_tools, ToolDef};
        let defs: Vec<ToolDef> = serde_json::from_value(serde_json::json!([
            {"name": "log", "parameters": {"type": "object", "properties": {
                "line": {"type": "string"}, "n": {"type": "integer"}}, "required": ["line"]}},
            {"name": "short", "parameters": {"type": "object", "properties": {
                "line": {"type": "string", "maxLength": 3}}, "required": ["line"]}},
        ]))
        .unwrap();
        // Raw control characters: JSON six times as long, so each call is held as a value.
        let raw = "\u{1}".repeat(20_000);
        let reply = format!(
            "<tool_call>{{\"name\": \"log\", \"arguments\": {{\"line\": \"{raw}\", \"n\": \"3\"}}}}</tool_call>\n\
             <tool_call>{{\"name\": \"log\", \"arguments\": {{\"n\": 1}}}}</tool_call>\n\
             <tool_call>{{\"name\": \"short\", \"arguments\": {{\"line\": \"{raw}\"}}}}</tool_call>\n\
             <tool_call>{{\"name\": \"nope\", \"arguments\": {{\"line\": \"{raw}\"}}}}</tool_call>"
        );
        let r = parse_compact(&reply);
        let held: Vec<bool> = (0..4).map(|i| r.held_call(i).is_some()).collect();
        assert_eq!(held, [true, false, true, true]);
        let mut out = Vec::new();
        let tools = llmout::tools::ToolSet::new(&defs[..]);
        super::write_tools(&mut out, &r, Some(&tools), None).unwrap();
        let out: Value = serde_json::from_slice(&out).unwrap();
        let expected = parse_with_tools(&reply, &defs);
        for (i, call) in expected.tool_calls.iter().enumerate() {
            let printed = &out["tool_calls"][i];
            assert!(
                printed["arguments"] == Value::Object(call.arguments.clone()),
                "{i}"
            );
            assert_eq!(printed["name"], call.name.as_str());
        }
        assert_eq!(out["tool_calls"][0]["arguments"]["n"], 3);
        let paths: Vec<&str> = (out["warnings"].as_array().unwrap().iter())
            .map(|w| w["path"].as_str().unwrap())
            .collect();
        let expected_paths: Vec<&str> = expected.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(paths, expected_paths);
        // The reader's (raw control characters in a string), then the checks'.
        let reader = [
            "/tool_calls/0/arguments/line",
            "/tool_calls/2/arguments/line",
        ];
        assert_eq!(paths[..2], reader);
        assert_eq!(
            paths[2..],
            [
                "/tool_calls/3/arguments/line",
                "/tool_calls/0/arguments/n",
                "/tool_calls/3/name"
            ]
        );
        // The errors: the missing line, the line too long (kept as given).
        let errors: Vec<&Value> = (0..4)
            .map(|i| &out["tool_calls"][i]["error"]["path"])
            .collect();
        assert_eq!(errors[1], "/tool_calls/1/arguments/line");
        assert_eq!(errors[2], "/tool_calls/2/arguments/line");
        assert!(errors[0].is_null() && errors[3].is_null());
        assert_eq!(expected.errors.len(), 2);
    }

    #[test]
    fn the_calls_warnings_are_the_same_however_many_are_held() {
        use llmout::tools::{parse_compact, ToolDef};
        let defs: Vec<ToolDef> = serde_json::from_value(serde_json::json!([
            {"name": "read", "parameters": {"type": "object", "properties": {
                "line": {"type": "integer"}, "path": {"type": "string"}}, "required": ["path"]}},
            {"name": "save", "parameters": {"type": "object", "properties": {
                "rows": {"type": "array", "items": {"type": "object", "properties": {
                    "id": {"type": "integer"}}}}}}},
        ]))
        .unwrap();
        let call = |body: String| format!("<tool_call>{body}</tool_call>\n");
        let read = |i: usize| {
            call(format!(
                r#"{{"name": "read", "arguments": {{"line": "{i}", "path": "f{i}"}}}}"#
            ))
        };
        // Calls with warnings (a coerced line), one with an error (no path), one of a tool
        // with no definition, and a large one (checked from its text, its warnings read
        // again) with a coerced id, between them.
        let rows: Vec<String> = (0..90_000).map(|i| format!(r#"{{"id": "{i}"}}"#)).collect();
        let mut reply = String::new();
        for i in 0..3 {
            reply.push_str(&read(i));
        }
        reply.push_str(&call(
            r#"{"name": "read", "arguments": {"line": 1}}"#.to_owned(),
        ));
        reply.push_str(&call(r#"{"name": "nope", "arguments": {}}"#.to_owned()));
        reply.push_str(&call(format!(
            r#"{{"name": "save", "arguments": {{"rows": [{}]}}}}"#,
            rows.join(", ")
        )));
        for i in 3..6 {
            reply.push_str(&read(i));
        }
        let r = parse_compact(&reply);
        assert!(r.parts(5).unwrap().arguments.len() >= super::LARGE_ARGUMENTS);
        let written = |r: &llmout::tools::CompactResponse, budget: usize| {
            let mut out = Vec::new();
            super::write_tools_holding(
                &mut out,
                r,
                Some(&llmout::tools::ToolSet::new(&defs[..])),
                None,
                budget,
            )
            .unwrap();
            String::from_utf8(out).unwrap()
        };
        // Nothing held is every call checked again for its warnings.
        let again = written(&r, 0);
        let out: Value = serde_json::from_str(&again).unwrap();
        let warnings = out["warnings"].as_array().unwrap();
        // 6 coerced lines, 90 000 coerced ids, the unknown tool; the missing path is the
        // call's error.
        assert_eq!(warnings.len(), 6 + 90_000 + 1);
        assert_eq!(
            out["tool_calls"][3]["error"]["path"],
            "/tool_calls/3/arguments/path"
        );
        // Held until the budget is spent (two calls' warnings), or up to the large call.
        for budget in [150, usize::MAX] {
            assert!(written(&r, budget) == again, "{budget}");
        }
        // All held: no call checked again.
        let small: String = (0..4).map(read).collect();
        let r = parse_compact(&small);
        assert_eq!(written(&r, usize::MAX), written(&r, 0));
        assert_eq!(written(&r, 0).matches("coerced").count(), 4);
    }
}
