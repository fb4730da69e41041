//! The `tools` module docs list every family with an example reply: each example, as the docs
//! show it, must give a call, so the table cannot drift from what `parse` reads.

/// The rows of the family table in `llmout/src/tools/mod.rs`, split into cells.
fn rows() -> Vec<Vec<String>> {
    let source = include_str!("../llmout/src/tools/mod.rs");
    source
        .lines()
        .filter_map(|l| l.strip_prefix("//! | "))
        .filter(|l| !l.starts_with("family |"))
        .map(|l| {
            // Cells are separated by `|` not escaped as `\|`.
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
            cells.iter().map(|c| c.trim().to_owned()).collect()
        })
        .collect()
}

/// The first code span of `cell`, with `\n` read as a line break.
fn first_code(cell: &str) -> Option<String> {
    let start = cell.find('`')? + 1;
    let end = start + cell[start..].find('`')?;
    Some(cell[start..end].replace("\\n", "\n"))
}

#[test]
fn every_family_in_the_table_has_an_example_that_gives_a_call() {
    let rows = rows();
    assert!(rows.len() >= 32, "{} rows", rows.len());
    for row in rows {
        assert_eq!(row.len(), 3, "{row:?}");
        let example = first_code(&row[2]).unwrap_or_else(|| panic!("no example: {row:?}"));
        let r = llmout::tools::parse(&example);
        assert!(
            !r.tool_calls.is_empty(),
            "{}: {example:?} gives no call",
            row[0]
        );
    }
}
