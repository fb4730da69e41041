//! The family table of the `tools` module docs (`llmout/src/tools/mod.rs`), read by the
//! tests that hold the docs to what `parse`, the stream and the CLI do.

/// One row of the table: the family, its markers, its example replies (cells as written).
pub struct Row {
    pub family: String,
    pub markers: String,
    pub examples: String,
}

/// The rows of the table in `source` (the text of `llmout/src/tools/mod.rs`), each split into
/// its three cells (`\|` is a `|` inside a cell).
pub fn rows(source: &str) -> Vec<Row> {
    source
        .lines()
        .filter_map(|l| l.strip_prefix("//! | "))
        .filter(|l| !l.starts_with("family |"))
        .map(|l| {
            let mut cells = vec![String::new()];
            let mut chars = l.trim_end_matches(" |").chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if chars.peek() == Some(&'|') => {
                        chars.next();
                        cells.last_mut().unwrap().push('|');
                    }
                    '|' => cells.push(String::new()),
                    c => cells.last_mut().unwrap().push(c),
                }
            }
            assert_eq!(cells.len(), 3, "a row of three cells: {l}");
            let mut cells = cells.into_iter().map(|c| c.trim().to_owned());
            Row {
                family: cells.next().unwrap(),
                markers: cells.next().unwrap(),
                examples: cells.next().unwrap(),
            }
        })
        .collect()
}

/// The length of the run of backticks `s` starts with.
fn run(s: &str) -> usize {
    s.len() - s.trim_start_matches('`').len()
}

/// The code spans of `cell`, in order, each with `\n` read as a line break. A span opened by
/// a run of backticks ends at the next run as long (Markdown's rule), and one opened by more
/// than one backtick loses a space of padding on each side.
pub fn code_spans(cell: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut rest = cell;
    while let Some(open) = rest.find('`') {
        let ticks = run(&rest[open..]);
        let body = &rest[open + ticks..];
        let mut at = 0;
        let close = loop {
            let Some(next) = body[at..].find('`') else {
                break None;
            };
            let n = run(&body[at + next..]);
            if n == ticks {
                break Some(at + next);
            }
            at += next + n;
        };
        let Some(close) = close else { break };
        let mut span = &body[..close];
        if ticks > 1 {
            span = span
                .strip_prefix(' ')
                .and_then(|s| s.strip_suffix(' '))
                .unwrap_or(span);
        }
        spans.push(span.replace("\\n", "\n"));
        rest = &body[close + ticks..];
    }
    spans
}
