//! `llmout._native`: the Rust half of the Python package `llmout`.
//!
//! Thin over the llmout crate: each function takes the reply as a `str`, runs the library with
//! the GIL released, and turns the result into Python objects shaped as the `llmout` CLI prints
//! them. The Python half (`llmout/__init__.py`) adds the json_repair-compatible calls, Pydantic
//! models and the result class. Batch forms run the replies on scoped threads; a reply that
//! fails gives its exception instance in its slot.

use std::sync::atomic::{AtomicUsize, Ordering};

use llmout::schema::Schema;
use llmout::tools::{ToolCallResponse, ToolDef, ToolSet};
use llmout::{Options, Policy, Warning};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde_json::{json, Value};

mod pyjson;

/// The text of a reply: a `str`, else a `TypeError` that says what was given. A `str` with lone
/// surrogates cannot be UTF-8: Python's own `UnicodeEncodeError` (a `ValueError`) says where.
fn text_of(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    match obj.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => {
            let hint = if obj.is_instance_of::<pyo3::types::PyBytes>() {
                " (decode it first, e.g. reply.decode(\"utf-8\", \"replace\"))"
            } else {
                ""
            };
            let type_name = obj.get_type().name()?;
            Err(PyTypeError::new_err(format!(
                "a reply must be a str, not {type_name}{hint}"
            )))
        }
    }
}

/// The threads a batch runs on: `threads`, else `$LLMOUT_THREADS`, else one per core.
fn thread_count(threads: Option<usize>) -> usize {
    threads
        .or_else(|| std::env::var("LLMOUT_THREADS").ok()?.trim().parse().ok())
        .or_else(|| std::thread::available_parallelism().ok().map(Into::into))
        .unwrap_or(1)
        .max(1)
}

/// `f` over `items` on `threads` threads (the calling one and `threads - 1` scoped ones), each
/// taking the next run of [`RUN`] items left; the results in the items' order.
fn run_all<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads.min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(RUN, Ordering::Relaxed);
            let Some(run) = items.get(start..).filter(|r| !r.is_empty()) else {
                return done;
            };
            let run = &run[..run.len().min(RUN)];
            done.extend(run.iter().enumerate().map(|(k, item)| (start + k, f(item))));
        }
    };
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mine = work();
        let others = handles.into_iter().map(|handle| {
            // A panic in llmout is a bug; pass it on as the panic it is.
            handle
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        });
        for done in std::iter::once(mine).chain(others.collect::<Vec<_>>()) {
            for (i, r) in done {
                slots[i] = Some(r);
            }
        }
    });
    slots
        .into_iter()
        .map(|r| r.expect("every item is run"))
        .collect()
}

/// How many items a thread of [`run_all`] takes at a time: few enough that the threads end
/// together, enough that they rarely meet on the shared counter.
const RUN: usize = 16;

/// A batch: each item's text, `f` on every text with the GIL released, and the results
/// turned into Python objects by `to_py`; an item that is no text, or for which `to_py` fails,
/// gets its exception instance.
fn batch<'py, R: Send>(
    py: Python<'py>,
    replies: &Bound<'py, PyAny>,
    threads: Option<usize>,
    f: impl Fn(&str) -> R + Sync,
    to_py: impl Fn(Python<'py>, R) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    if replies.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "replies must be a list (or any iterable) of str, not one str",
        ));
    }
    let texts: Vec<PyResult<String>> = replies
        .try_iter()?
        .map(|item| item.and_then(|i| text_of(&i)))
        .collect();
    let threads = thread_count(threads);
    let results = py.detach(|| run_all(&texts, threads, |t| t.as_ref().ok().map(|t| f(t))));
    let out = PyList::empty(py);
    for (text, result) in texts.into_iter().zip(results) {
        let item = match (text, result) {
            (Err(e), _) => e.into_value(py).into_any().into_bound(py),
            (Ok(_), Some(r)) => {
                to_py(py, r).unwrap_or_else(|e| e.into_value(py).into_any().into_bound(py))
            }
            (Ok(_), None) => unreachable!("a text is always run"),
        };
        out.append(item)?;
    }
    Ok(out)
}

/// A JSON value as Python objects (`dict`, `list`, `str`, `int`, `float`, `bool`, `None`).
fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => PyInt::new(py, i).into_any(),
            (None, Some(u)) => PyInt::new(py, u).into_any(),
            _ => PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// An error as the CLI prints it: `{"kind", "path", "message", "violations"?}`.
fn error_json(e: &llmout::Error) -> Value {
    let mut out = json!({"kind": e.kind().name(), "path": e.path(), "message": e.to_string()});
    if !e.violations().is_empty() {
        out["violations"] = e.violations().iter().map(violation_json).collect();
    }
    out
}

fn violation_json(v: &llmout::Violation) -> Value {
    json!({
        "path": v.path(), "keyword": v.keyword(), "expected": v.expected(),
        "found": v.found(), "message": v.message(),
    })
}

/// The exception for `e`: `llmout.LlmoutError` with its kind, path, expected, found and
/// violations (as dicts).
fn error_to_py(py: Python<'_>, e: &llmout::Error) -> PyErr {
    let made = (|| {
        let class = py.import("llmout._errors")?.getattr("LlmoutError")?;
        let violations: Value = e.violations().iter().map(violation_json).collect();
        let args = (
            e.to_string(),
            e.kind().name(),
            e.path(),
            e.expected(),
            e.found(),
            to_py(py, &violations)?,
        );
        Ok::<_, PyErr>(PyErr::from_value(class.call1(args)?))
    })();
    made.unwrap_or_else(|failed| failed)
}

/// Warnings as `[{"kind", "path", "message"}]`.
fn warnings_json(warnings: &[Warning]) -> Value {
    warnings
        .iter()
        .map(|w| json!({"kind": w.kind.name(), "path": w.path, "message": w.message}))
        .collect()
}

fn repair_json_one(text: &str, ensure_ascii: bool) -> Result<String, llmout::Error> {
    let compact = llmout::repair_json(text, &Options::default())?.json;
    Ok(pyjson::reformat(&compact, ensure_ascii))
}

/// The reply's JSON as `json.dumps` writes it (`", "` and `": "` between items, floats as
/// Python prints them, non-ASCII escaped with `ensure_ascii`); `LlmoutError` when there is none.
#[pyfunction]
#[pyo3(signature = (text, ensure_ascii = true))]
fn repair_json(py: Python<'_>, text: &Bound<'_, PyAny>, ensure_ascii: bool) -> PyResult<String> {
    let text = text_of(text)?;
    py.detach(|| repair_json_one(&text, ensure_ascii))
        .map_err(|e| error_to_py(py, &e))
}

/// [`repair_json`] over many replies; a failed reply's slot holds its exception.
#[pyfunction]
#[pyo3(signature = (texts, ensure_ascii = true, threads = None))]
fn repair_json_many<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    ensure_ascii: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    batch(
        py,
        texts,
        threads,
        |t| repair_json_one(t, ensure_ascii),
        |py, r| match r {
            Ok(s) => Ok(PyString::new(py, &s).into_any()),
            Err(e) => Err(error_to_py(py, &e)),
        },
    )
}

/// The reply's value and its warnings: `(value, [{"kind", "path", "message"}])`.
#[pyfunction]
fn repair<'py>(py: Python<'py>, text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let text = text_of(text)?;
    let r = py
        .detach(|| llmout::repair_text(&text, &Options::default()))
        .map_err(|e| error_to_py(py, &e))?;
    (
        to_py(py, &r.value)?,
        to_py(py, &warnings_json(&r.warnings))?,
    )
        .into_pyobject(py)
        .map(Bound::into_any)
}

/// A schema given as JSON text, compiled; an `LlmoutError` of kind `invalid_schema` when it is
/// not one llmout can use.
fn compile(py: Python<'_>, schema: &str) -> PyResult<Schema> {
    let value: Value = serde_json::from_str(schema)
        .map_err(|e| PyValueError::new_err(format!("the schema is not JSON: {e}")))?;
    Schema::compile(&value).map_err(|e| error_to_py(py, &e))
}

fn policy_of(policy: &str) -> PyResult<Options> {
    let policy: Policy = policy.parse().map_err(PyValueError::new_err)?;
    Ok(Options::default().policy(policy))
}

/// One parse result as `(value, warnings, recovered)`, or its `LlmoutError`.
fn parsed_to_py<'py>(
    py: Python<'py>,
    r: llmout::ValidationResult<Value>,
) -> PyResult<Bound<'py, PyAny>> {
    match (r.value, r.error) {
        (Some(value), None) => (
            to_py(py, &value)?,
            to_py(py, &warnings_json(&r.warnings))?,
            r.recovered,
        )
            .into_pyobject(py)
            .map(Bound::into_any),
        (_, Some(e)) => Err(error_to_py(py, &e)),
        (None, None) => Err(PyValueError::new_err(
            "llmout returned no value and no error",
        )),
    }
}

/// The reply recovered against a JSON schema (given as JSON text):
/// `(value, warnings, recovered)`, or `LlmoutError`.
#[pyfunction]
#[pyo3(signature = (text, schema, policy = "lenient"))]
fn parse<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    schema: &str,
    policy: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let text = text_of(text)?;
    let (schema, options) = (compile(py, schema)?, policy_of(policy)?);
    let r = py.detach(|| llmout::from_llm_with_compiled(&text, &schema, &options));
    parsed_to_py(py, r)
}

/// [`parse`] over many replies, the schema compiled once; a failed reply's slot holds its
/// exception. A schema that is not one raises, as it concerns every reply.
#[pyfunction]
#[pyo3(signature = (texts, schema, policy = "lenient", threads = None))]
fn parse_many<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    schema: &str,
    policy: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let (schema, options) = (compile(py, schema)?, policy_of(policy)?);
    batch(
        py,
        texts,
        threads,
        |t| llmout::from_llm_with_compiled(t, &schema, &options),
        parsed_to_py,
    )
}

/// Tool definitions given as JSON text (a list of `{"name", "parameters"}`), each schema
/// checked as the CLI checks them.
fn tool_defs(py: Python<'_>, defs: Option<&str>) -> PyResult<Option<ToolSet<'static>>> {
    let Some(defs) = defs else { return Ok(None) };
    let defs: Vec<ToolDef> = serde_json::from_str(defs).map_err(|e| {
        PyValueError::new_err(format!("tools is not a list of tool definitions: {e}"))
    })?;
    for (i, def) in defs.iter().enumerate() {
        llmout::schema::validate(&def.parameters)
            .map_err(|e| error_to_py(py, &e.at_prefix(&format!("/{i}/parameters"))))?;
    }
    Ok(Some(ToolSet::new(defs)))
}

/// The calls in `text`, checked against `defs` where given: each tool's schema compiled
/// once for every reply ([`ToolSet`]).
fn tools_one(text: &str, defs: Option<&ToolSet<'_>>) -> ToolCallResponse {
    match defs {
        None => llmout::tools::parse(text),
        Some(defs) => defs.parse(text),
    }
}

/// The envelope `llmout tools` prints: `{"content", "tool_calls", "needs_more_work",
/// "warnings"}`, each call `{"id", "name", "arguments"}` and `"error"` where its arguments
/// could not be recovered.
fn envelope(r: &ToolCallResponse) -> Value {
    let calls: Vec<Value> = r
        .tool_calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let mut out = json!({"id": call.id, "name": call.name, "arguments": call.arguments});
            if let Some(e) = r.call_error(i) {
                out["error"] = error_json(e);
            }
            out
        })
        .collect();
    json!({
        "content": r.content,
        "tool_calls": calls,
        "needs_more_work": r.needs_more_work,
        "warnings": warnings_json(&r.warnings),
    })
}

/// The tool calls in a reply, as [`envelope`].
#[pyfunction]
#[pyo3(signature = (text, tools = None))]
fn tools<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    tools: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let text = text_of(text)?;
    let defs = tool_defs(py, tools)?;
    let r = py.detach(|| envelope(&tools_one(&text, defs.as_ref())));
    to_py(py, &r)
}

/// [`tools`] over many replies.
#[pyfunction]
#[pyo3(signature = (texts, tools = None, threads = None))]
fn tools_many<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    tools: Option<&str>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let defs = tool_defs(py, tools)?;
    batch(
        py,
        texts,
        threads,
        |t| envelope(&tools_one(t, defs.as_ref())),
        |py, r| to_py(py, &r),
    )
}

/// The threads a batch runs on when none are given: `$LLMOUT_THREADS`, else one per core.
#[pyfunction]
fn default_threads() -> usize {
    thread_count(None)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(repair_json, m)?)?;
    m.add_function(wrap_pyfunction!(repair_json_many, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many, m)?)?;
    m.add_function(wrap_pyfunction!(tools, m)?)?;
    m.add_function(wrap_pyfunction!(tools_many, m)?)?;
    m.add_function(wrap_pyfunction!(default_threads, m)?)?;
    Ok(())
}
