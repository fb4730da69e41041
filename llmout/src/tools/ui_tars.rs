//! UI-TARS: `Thought: …` then `Action: click(start_box='(1,2)')` lines. Actions are pythonic
//! calls; the thought is content. `Action:` is also an English word: a reply whose `Action:`
//! lines hold no call is read as if it had no marker.

use super::family::{Family, Found, Head};
use super::json;
use super::outside;
use super::pythonic::pythonic;
use super::stream::window;

pub(crate) struct UiTars;

impl Family for UiTars {
    fn markers(&self) -> &'static [&'static str] {
        &["Action:"]
    }

    fn read(&self, t: &str, found: &mut Found) {
        let mut at = 0;
        while let Some(i) = t.get(at..).and_then(|s| s.find("Action:")) {
            let start = at + i;
            let body_start = start + "Action:".len();
            let rest = t.get(body_start..).unwrap_or_default();
            // The action runs to the end of its line, or to the next `Action:`.
            let line_end = rest.find('\n').unwrap_or(rest.len());
            let end = body_start + line_end;
            if let Some(calls) = pythonic(&rest[..line_end]) {
                found.calls.extend(calls);
                found.taken.push(start..end);
            }
            at = end.max(start + 1);
        }
        if found.calls.is_empty() {
            found.taken.clear();
            json::read(t, found);
            return;
        }
        if let Some(content) = outside(t, &found.taken, &found.kept, &[]) {
            let content = content
                .strip_prefix("Thought:")
                .unwrap_or(&content)
                .trim()
                .to_owned();
            found.content = Some((!content.is_empty()).then_some(content));
        }
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        if window(v, head).trim_start().is_empty() {
            return Head::Wait;
        }
        Head::Python(head)
    }
}
