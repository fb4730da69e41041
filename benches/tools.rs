//! Tool-call parsing throughput (issues 8 and 17): replies of 1 000 calls in twenty-two families;
//! `tools::Stream` (issue 7) on replies of about 1 MB fed in 10-byte chunks, against one
//! `parse` of the same text (linear: a small constant times it); and hostile input aimed at
//! every family (markers without closers, thousands of markers, markers inside JSON strings
//! and reasoning), `parse` and the stream each at 256 KiB and 1 MiB: linear time is the same
//! throughput at both sizes.
//!
//! Run: `cargo bench --bench tools`. Results are in BENCHMARKS.md.

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/common/chunks.rs"]
mod chunks;
use chunks::chunks;

fn replies() -> Vec<(&'static str, String)> {
    let n = 1_000;
    let hermes: String = (0..n)
        .map(|i| format!("<tool_call>\n{{\"name\": \"read_file\", \"arguments\": {{\"path\": \"src/{i}.rs\", \"lines\": [1, 20]}}}}\n</tool_call>\n"))
        .collect();
    let invoke: String = (0..n)
        .map(|i| format!("<invoke name=\"search\">\n<parameter name=\"query\">item {i} \"quoted\"</parameter>\n<parameter name=\"limit\">5</parameter>\n</invoke>\n"))
        .collect();
    let mistral: String = (0..n)
        .map(|i| format!("[TOOL_CALLS]get_time[ARGS]{{\"tz\": \"UTC+{i}\"}}"))
        .collect();
    let dsml: String = (0..n)
        .map(|i| format!("<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">City {i}</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n"))
        .collect();
    let minimax: String = (0..n)
        .map(|i| format!("<invoke name=\"read_file\">\n<parameter name=\"path\">src/{i}.rs</parameter>\n</invoke>\n"))
        .collect();
    let seed: String = (0..n)
        .map(|i| format!("<seed:tool_call>\n<function=grep>\n<parameter=pattern>\nfn f{i}\n</parameter>\n</function>\n</seed:tool_call>\n"))
        .collect();
    let hy: String = (0..n)
        .map(|i| format!("<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>City {i}</arg_value>\n</tool_call>\n"))
        .collect();
    let kimi: String = (0..n)
        .map(|i| format!("<|tool_call_begin|>functions.get_time:{i}<|tool_call_argument_begin|>{{\"tz\": \"UTC+{i}\"}}<|tool_call_end|>"))
        .collect();
    let harmony: String = (0..n)
        .map(|i| format!("<|start|>assistant to=functions.lookup<|channel|>commentary json<|message|>{{\"id\": {i}}}<|call|>"))
        .collect();
    let gemma: String = (0..n)
        .map(|i| {
            format!("<|tool_call>call:search{{query:<|\"|>item {i}<|\"|>,limit:5}}<tool_call|>")
        })
        .collect();
    let lfm2: String = (0..n)
        .map(|i| format!("get_weather(city=\"City {i}\", days=3)"))
        .collect::<Vec<_>>()
        .join(", ");
    let hy3: String = (0..n)
        .map(|i| format!("<tool_call:opensource>get_weather<tool_sep:opensource>\n<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>City {i}</arg_value:opensource>\n</tool_call:opensource>\n"))
        .collect();
    let ns = "]<]minimax[>[";
    let m3: String = (0..n)
        .map(|i| format!("{ns}\n<invoke name=\"create\">{ns}\n<id>{i}{ns}</id>{ns}\n<tags>{ns}<item>a{ns}</item>{ns}<item>b \"{i}\"{ns}</item>{ns}</tags>\n{ns}</invoke>\n"))
        .collect();
    let command_r: Vec<String> = (0..n)
        .map(|i| format!("{{\"tool_name\": \"internet_search\", \"parameters\": {{\"query\": \"item {i}\"}}}}"))
        .collect();
    let apertus: Vec<String> = (0..n)
        .map(|i| format!("{{\"get_weather\": {{\"city\": \"City {i}\"}}}}"))
        .collect();
    let function_gemma: String = (0..n)
        .map(|i| format!("<start_function_call>call:search{{query:<escape>item {i}<escape>,limit:5}}<end_function_call>"))
        .collect();
    let olmo3: String = (0..n)
        .map(|i| format!("get_weather(city=\"City {i}\", days=3)\n"))
        .collect();
    let step3: String = (0..n)
        .map(|i| format!("<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\"><steptml:parameter name=\"city\">City {i}</steptml:parameter></steptml:invoke><｜tool_call_end｜>"))
        .collect();
    let minicpm: String = (0..n)
        .map(|i| {
            format!(
                "<function name=\"get_weather\"><param name=\"city\">City {i}</param></function>\n"
            )
        })
        .collect();
    let longcat: String = (0..n)
        .map(|i| format!("<longcat_tool_call>{{\"name\": \"lookup\", \"arguments\": {{\"id\": {i}}}}}</longcat_tool_call>\n"))
        .collect();
    let glm: String = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                "<tool_call>get_time</tool_call>\n".to_owned()
            } else {
                format!("<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>City {i}</arg_value>\n</tool_call>\n")
            }
        })
        .collect();
    let llama: String = (0..n)
        .map(|i| format!("{{\"name\": \"lookup\", \"parameters\": {{\"id\": {i}}}}}"))
        .collect::<Vec<_>>()
        .join("; ");
    let fenced: String = (0..n)
        .map(|i| {
            format!(
                "```json\n{{\"name\": \"lookup\", \"arguments\": {{\"id\": {i}}}}}\n```\nNext:\n"
            )
        })
        .collect();
    vec![
        ("hermes", format!("I'll read them all.\n{hermes}")),
        (
            "anthropic_invoke",
            format!("<function_calls>\n{invoke}</function_calls>"),
        ),
        ("mistral", mistral),
        (
            "deepseek_dsml",
            format!("<｜DSML｜function_calls>\n{dsml}</｜DSML｜function_calls>"),
        ),
        (
            "minimax_m2",
            format!("<minimax:tool_call>\n{minimax}</minimax:tool_call>"),
        ),
        ("seed_oss", seed),
        ("hy_v3", format!("<tool_calls>\n{hy}</tool_calls>")),
        (
            "kimi",
            format!("<|tool_calls_section_begin|>{kimi}<|tool_calls_section_end|>"),
        ),
        ("harmony", harmony),
        ("gemma", gemma),
        (
            "lfm2",
            format!("<|tool_call_start|>[{lfm2}]<|tool_call_end|>"),
        ),
        (
            "llama3_json_after_prose",
            format!("Looking them up. {llama}"),
        ),
        ("json_call_per_fence", format!("Looking them up.\n{fenced}")),
        (
            "hy3_suffixed",
            format!("<think:opensource>Many.</think:opensource><tool_calls:opensource>\n{hy3}</tool_calls:opensource>"),
        ),
        (
            "minimax_m3_spaced",
            format!("<mm:think>Many.</mm:think>{ns}\n<tool_call>\n{m3}{ns}\n</tool_call>"),
        ),
        (
            "command_r_action",
            format!("Plan: look them up.\nAction: ```json\n[{}]\n```", command_r.join(",\n")),
        ),
        (
            "apertus",
            format!("<|tools_prefix|>[{}]<|tools_suffix|>", apertus.join(", ")),
        ),
        ("function_gemma", function_gemma),
        (
            "olmo3",
            format!("<function_calls>\n{olmo3}</function_calls>"),
        ),
        (
            "step3",
            format!("<｜tool_calls_begin｜>{step3}<｜tool_calls_end｜>"),
        ),
        ("minicpm", minicpm),
        ("longcat", longcat),
        ("glm_with_zero_argument_calls", glm),
    ]
}

fn tools(c: &mut Criterion) {
    let mut g = c.benchmark_group("tools");
    for (name, text) in replies() {
        assert_eq!(
            llmout::tools::parse(&text).tool_calls.len(),
            1_000,
            "{name}"
        );
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, t| {
            b.iter(|| llmout::tools::parse(black_box(t)))
        });
    }
    g.finish();
}

/// Replies of about 1 MB with one large call (a file written through a tool) and many
/// small ones.
fn big_replies() -> Vec<(&'static str, String)> {
    let content: String = (0..12_000)
        .map(|i| format!("    let line_{i} = \"value {i}\";\n"))
        .collect();
    let json_content = serde_json::to_string(&content).unwrap();
    let small: String = (0..2_000)
        .map(|i| format!("<tool_call>{{\"name\": \"read\", \"arguments\": {{\"path\": \"f{i}.rs\"}}}}</tool_call>\n"))
        .collect();
    vec![
        (
            "hermes_json",
            format!("Writing it.\n<tool_call>{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"a.rs\", \"content\": {json_content}}}}}</tool_call>\n{small}"),
        ),
        (
            "anthropic_params",
            format!("Writing it.\n<invoke name=\"write_file\">\n<parameter name=\"path\">a.rs</parameter>\n<parameter name=\"content\">{content}</parameter>\n</invoke>"),
        ),
    ]
}

fn streaming(c: &mut Criterion) {
    let mut g = c.benchmark_group("tools_stream");
    g.sample_size(10);
    for (name, text) in big_replies() {
        let expected = llmout::tools::parse(&text).tool_calls;
        let mut s = llmout::tools::Stream::new();
        for chunk in text.as_bytes().chunks(10) {
            s.push(std::str::from_utf8(chunk).unwrap());
        }
        assert_eq!(s.calls(), &expected[..], "{name}");
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::new("parse_once", name), &text, |b, t| {
            b.iter(|| llmout::tools::parse(black_box(t)))
        });
        g.bench_with_input(BenchmarkId::new("push_10_bytes", name), &text, |b, t| {
            b.iter(|| {
                let mut s = llmout::tools::Stream::new();
                for chunk in t.as_bytes().chunks(10) {
                    s.push(std::str::from_utf8(chunk).unwrap());
                    black_box(s.current().map(|c| c.name));
                }
                s
            })
        });
    }
    g.finish();
}

/// Inputs of `n` bytes aimed at each place the tools stream could scan twice: heads that never
/// end, openers without calls, whitespace, unclosed reasoning, a very long JSON string. The
/// test suite checks them for correctness (tests/tools_stream.rs); here they are timed.
pub fn adversarial(n: usize) -> Vec<(&'static str, String)> {
    vec![
        ("invoke_no_gt", "<invoke name=\"x\"".repeat(n / 16)),
        (
            "params_no_gt",
            format!(
                "<invoke name=\"f\">{}",
                "<parameter name=\"p\"".repeat(n / 22)
            ),
        ),
        ("tool_call_openers", "<tool_call>".repeat(n / 11)),
        (
            "spaces_after_marker",
            format!("<|python_tag|>{}", " ".repeat(n)),
        ),
        ("python_open_parens", format!("[f({}", "(".repeat(n))),
        (
            "mistral_many",
            "[TOOL_CALLS]f[ARGS]{\"a\": 1}".repeat(n / 24),
        ),
        ("think_unclosed", format!("<think>{}", "<".repeat(n))),
        ("lt_soup", "<".repeat(n)),
        (
            "json_string",
            format!(
                "{{\"name\": \"f\", \"arguments\": {{\"a\": \"{}\"}}}}",
                "x".repeat(n)
            ),
        ),
        (
            "dsml_invoke_no_gt",
            "<｜DSML｜invoke name=\"x\"".repeat(n / 24),
        ),
        (
            "minimax_wrappers",
            "<minimax:tool_call><invoke name=\"f\"></invoke></minimax:tool_call>".repeat(n / 62),
        ),
        (
            "minimax_m3_open_elements",
            format!(
                "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"f\">{}",
                "]<]minimax[>[<a>".repeat(n / 16)
            ),
        ),
        ("seed_think_openers", "<seed:think>".repeat(n / 12)),
        ("function_call_openers", "<function_call>".repeat(n / 15)),
        (
            "gemma_open_brackets",
            format!("<|tool_call>call:f{{a:{}", "[".repeat(n)),
        ),
        (
            "hy_v3_open_calls",
            format!("<tool_calls>{}", "<tool_call>f<tool_sep>".repeat(n / 21)),
        ),
        (
            "json_calls_after_prose",
            format!(
                "Go. {}",
                "{\"name\": \"a\", \"parameters\": {}}; ".repeat(n / 34)
            ),
        ),
        (
            "pythonic_no_bracket",
            format!("[{}", "f(a=1), ".repeat(n / 8)),
        ),
        (
            "harmony_role_headers",
            "<|start|>assistant to=functions.f".repeat(n / 32),
        ),
        (
            "hy3_open_calls",
            format!(
                "<tool_calls:opensource>{}",
                "<tool_call:opensource>f<tool_sep:opensource>".repeat(n / 44)
            ),
        ),
        (
            "hy3_suffix_never_closed",
            format!("<tool_call:{}", "y".repeat(n)),
        ),
        (
            "think_suffixed_openers",
            "<think:opensource>".repeat(n / 18),
        ),
        (
            "minimax_m3_tag_never_closed",
            format!("]<]minimax[>[<{}", "z".repeat(n)),
        ),
        (
            "minimax_m3_tokens_and_spaces",
            format!(
                "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"f\">{}",
                "]<]minimax[>[ \n".repeat(n / 16)
            ),
        ),
        ("action_fences", "Action: ```json\n[".repeat(n / 18)),
        (
            "action_calls_left_open",
            "Action: get_user(\n".repeat(n / 18),
        ),
        ("action_words", "Action: maybe ".repeat(n / 14)),
        // The mention check (a call the text gives as an example) reads a bounded window
        // before each value, and the stream looks for a value's opening in new text only.
        (
            "backticked_prose_after_example",
            format!("For example, {}", "run `ls` now ".repeat(n / 13)),
        ),
        (
            "mentioned_calls",
            "For example: `{\"name\": \"f\", \"arguments\": {}}`\n".repeat(n / 46),
        ),
        ("every_marker", {
            let all: String = MARKERS.concat();
            all.repeat(n / all.len())
        }),
        (
            "markers_in_a_json_string",
            format!(
                "<tool_call>{{\"name\": \"f\", \"arguments\": {{\"a\": \"{}\"}}}}</tool_call>",
                MARKERS.concat().replace('"', "\\\"").repeat(n / 600)
            ),
        ),
        (
            "calls_in_reasoning",
            format!(
                "<think>{}</think>Done.",
                "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>".repeat(n / 50)
            ),
        ),
        (
            "calls_in_unclosed_reasoning",
            format!(
                "<think>{}",
                "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>".repeat(n / 50)
            ),
        ),
    ]
}

/// An opener of every family, for the hostile input made of all of them.
const MARKERS: &[&str] = &[
    "<function_calls>",
    "<invoke name=\"f\">",
    "<tool_call>",
    "<function=f>",
    "[TOOL_CALLS]",
    "<|python_tag|>",
    "<｜tool▁calls▁begin｜>",
    "<|tool_calls_section_begin|>",
    "<|tool_call|>",
    "<tool_calls>",
    "functools[",
    "<|action_start|><|plugin|>",
    "<|start|>assistant to=functions.f<|channel|>",
    "<|tool_call>call:f{",
    "<|python_start|>",
    "Action: ",
    "<｜DSML｜function_calls>",
    "<minimax:tool_call>",
    "<｜tool_calls_begin｜>",
    "<function name=\"f\">",
    "<seed:tool_call>",
    "<longcat_tool_call>",
    "<function_call>",
    "<function-call>",
    "<|START_ACTION|>",
    "<|tools_prefix|>",
    "function call<|role_sep|>",
    "<start_function_call>",
    "<|tool_call_start|>",
    "]<]minimax[>[<tool_call>",
    "<tool_calls:opensource>",
    "<tool_call:opensource>",
];

/// `parse` and the stream on every hostile input at two sizes: the same throughput at both
/// is linear time.
fn adversarial_scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("tools_adversarial");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for n in [1 << 18, 1 << 20] {
        for (name, text) in adversarial(n) {
            let size = format!("{name}/{}KiB", n >> 10);
            g.throughput(Throughput::Bytes(text.len() as u64));
            g.bench_with_input(BenchmarkId::new("parse", &size), &text, |b, t| {
                b.iter(|| llmout::tools::parse(black_box(t)))
            });
            g.bench_with_input(BenchmarkId::new("push_10_bytes", &size), &text, |b, t| {
                b.iter(|| {
                    let mut s = llmout::tools::Stream::new();
                    for chunk in chunks(t, 10) {
                        s.push(chunk);
                    }
                    s
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, tools, streaming, adversarial_scaling);
criterion_main!(benches);
