//! The shape many families share: each call an element whose parameters are elements inside
//! it (`<invoke name="f"><parameter name="p">v</parameter></invoke>` and its kin), the calls
//! maybe inside a wrapper (`<minimax:tool_call>…</minimax:tool_call>`). Each such family is a
//! value of [`XmlCalls`] in its own module.

use super::family::{Family, Found, Head, Named};
use super::params::{name_at, read_calls, CallSyntax};
use super::read::take_wrappers;
use super::stream::window;

/// A family whose calls are elements of one [`CallSyntax`], maybe inside wrappers.
pub(crate) struct XmlCalls {
    /// What selects the family.
    pub markers: &'static [&'static str],
    /// The wrappers around the calls, opener and closer.
    pub wrappers: &'static [(&'static str, &'static str)],
    /// How a call is written.
    pub call: CallSyntax,
    /// For the stream: the openers of the wrappers and of a call.
    pub openers: &'static [&'static str],
    /// For the stream: what closes a call or a wrapper.
    pub closers: &'static [&'static str],
    /// Markers dropped from the content.
    pub strip: &'static [&'static str],
}

impl Family for XmlCalls {
    fn markers(&self) -> &'static [&'static str] {
        self.markers
    }

    fn read(&self, t: &str, found: &mut Found) {
        let first = found.taken.len();
        if read_calls(t, 0..t.len(), &self.call, found) == 0 {
            return;
        }
        take_wrappers(t, first, self.wrappers, found);
    }

    fn strip(&self) -> &'static [&'static str] {
        self.strip
    }

    fn openers(&self) -> &'static [&'static str] {
        self.openers
    }

    fn closers(&self) -> &'static [&'static str] {
        self.closers
    }

    fn head(&self, v: &str, start: usize, head: usize) -> Head {
        let opener = &v[start..head];
        if self.wrappers.iter().any(|(open, _)| opener == *open) {
            return Head::Seek(head);
        }
        let Some((name, after, _)) = name_at(self.call.name, window(v, head)) else {
            return Head::Wait;
        };
        // A JSON object in place of the parameters is the arguments (see `read_calls`).
        let rest = window(v, head + after);
        let body = rest.trim_start();
        match body.as_bytes().first() {
            None => Head::Wait,
            Some(b'{') => Head::Args(
                Named::new(name, None),
                head + after + rest.len() - body.len(),
            ),
            Some(_) => Head::Params(Named::new(name, None), self.call.style, head + after),
        }
    }
}
