//! The trait every tool-call family implements, and the registry that [`parse`](super::parse),
//! [`Stream`](super::Stream) and the marker scan share.
//!
//! A family is one module under `tools/`: its markers, how it reads a whole reply, and how a
//! call of it is followed while it arrives (what comes after a call's opener: a name, then
//! JSON arguments, parameters, a JSON body of calls, pythonic calls, or text read once its
//! closer arrives). Adding a family is a new module and a line in [`FAMILIES`].

use std::ops::Range;

use super::params::ParamStyle;
use super::stream::{find_any, hold_back_any};
use super::{
    apertus, cohere, deepseek, dsml, function_call, function_calls, function_gemma, gemma,
    gigachat, granite, harmony, hermes, hy_v3, internlm, invoke, jamba, kimi, lfm2, llama, longcat,
    minicpm, minimax, minimax_m3, mistral, phi4, python_start, qwen_coder, seed_oss, step3,
    ui_tars,
};
use crate::{ToolCall, Warning, WarningKind};

/// What a family's reader found: calls, the byte ranges of the text they took, warnings.
#[derive(Default)]
pub(crate) struct Found {
    pub calls: super::calls::Calls,
    pub taken: Vec<Range<usize>>,
    pub warnings: Vec<Warning>,
    /// The text of calls that were no calls (cut off, unreadable): content, even inside a
    /// wrapper that is taken.
    pub kept: Vec<Range<usize>>,
    pub needs_more_work: Option<bool>,
    /// Content given by an envelope, replacing the text outside the calls.
    pub content: Option<Option<String>>,
}

impl Found {
    /// A call read from JSON, and what reading its arguments changed, said as warnings at
    /// its place.
    pub fn push_call(&mut self, call: ToolCall, notes: super::read::ArgNotes) {
        let index = self.calls.len();
        self.warnings.extend(notes.warnings(index));
        self.calls.push(call);
    }

    /// The calls of `other` (read apart, as the first of a reply) and their warnings, after
    /// these: each warning's call numbered as its call is here.
    pub fn append_calls(&mut self, other: Found) {
        let base = self.calls.len();
        for mut w in other.warnings {
            if let Some(rest) = w.path.strip_prefix("/tool_calls/") {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                if let Ok(i) = rest[..digits].parse::<usize>() {
                    w.path = format!("/tool_calls/{}{}", base + i, &rest[digits..]);
                }
            }
            self.warnings.push(w);
        }
        self.calls.extend(other.calls.into_vec());
    }

    /// [`push_call`](Self::push_call) for each of `calls`, in order.
    pub fn push_calls(
        &mut self,
        calls: impl IntoIterator<Item = (ToolCall, super::read::ArgNotes)>,
    ) {
        for (call, notes) in calls {
            self.push_call(call, notes);
        }
    }

    /// A call that is no call (`why`: cut off, unreadable): its text, `text`, stays content,
    /// even inside a wrapper that is taken, and a warning says so.
    pub fn drop_call(&mut self, text: Range<usize>, why: &str) {
        self.kept.push(text);
        self.warnings.push(Warning::new(
            WarningKind::ItemDropped,
            format!("/tool_calls/{}", self.calls.len()),
            format!("{why}; its text is kept as content"),
        ));
    }
}

/// A call whose name is known.
#[derive(Debug, Clone)]
pub(crate) struct Named {
    pub id: Option<String>,
    pub name: String,
}

impl Named {
    pub fn new(name: impl Into<String>, id: Option<String>) -> Self {
        Named {
            id,
            name: name.into(),
        }
    }
}

/// What comes after a call's opener, as a family's streaming reader sees it. Offsets are
/// byte offsets in the visible text.
pub(crate) enum Head {
    /// More text is needed; once the head is longer than [`MAX_HEAD`](super::MAX_HEAD) the
    /// call is read only when it ends.
    Wait,
    /// More text is needed, whatever the head's length (the family bounded it itself).
    Hold,
    /// JSON holding the calls themselves (a call, an array of calls, an envelope) starts here.
    Body(usize),
    /// A named call whose JSON arguments start here.
    Args(Named, usize),
    /// A named call whose parameters, written in `style`, start here.
    Params(Named, &'static ParamStyle, usize),
    /// Pythonic calls start here.
    Python(usize),
    /// A call (named, when its name is known already) whose arguments are shown once its
    /// closer has arrived, when its text, from its opener, is read with the family's reader.
    Whole(Option<Named>),
    /// Not a call: go on after its closer, from here.
    Skip(usize),
    /// A wrapper: look for the calls inside it from here.
    Seek(usize),
    /// Text the live view does not follow, from here up to the call's closer or the next call
    /// (read then as the call `.1`, when its name is known).
    Stall(usize, Option<Named>),
}

/// One tool-call format: how it is detected, read whole, and followed while it arrives.
pub(crate) trait Family: Sync {
    /// The markers that select the family: the earliest marker of any family in the visible
    /// text decides (at one position, the first family in [`FAMILIES`]).
    fn markers(&self) -> &'static [&'static str];

    /// Reads every call in the visible text `t` (the whole reply, reasoning left out).
    fn read(&self, t: &str, found: &mut Found);

    /// Section markers around the calls, dropped from the content.
    fn strip(&self) -> &'static [&'static str] {
        &[]
    }

    /// The openers of the family's calls, for the streaming reader.
    fn openers(&self) -> &'static [&'static str] {
        self.markers()
    }

    /// The markers that may close a call (or its block of calls).
    fn closers(&self) -> &'static [&'static str] {
        &[]
    }

    /// What follows the opener that starts at `start` in `v` and ends at `head`.
    fn head(&self, v: &str, start: usize, head: usize) -> Head;

    /// Where a call read whole ([`Head::Whole`]), opened at `start` in `v`, ends: `Ok(end)`
    /// once what ends it has arrived (searched from `from`), else `Err(resume)`, where to
    /// search from when more text has come. By default, after the earliest of the
    /// [`closers`](Family::closers); a family whose closers are known only from its opener
    /// (a token suffix) or are written with white space inside finds them itself.
    fn whole_end(&self, v: &str, start: usize, from: usize) -> Result<usize, usize> {
        let _ = start;
        let closers = self.closers();
        match find_any(v, from, closers) {
            Some((at, len)) => Ok(at + len),
            None => Err(hold_back_any(v, closers).max(from)),
        }
    }

    /// Whether a call read whole ([`Head::Whole`]) opens with JSON in whose strings the
    /// family's markers are text, as its reader finds them (with
    /// [`json_elements`](super::read::json_elements)): the stream then looks for the closer
    /// after that JSON.
    fn json_whole(&self) -> bool {
        false
    }

    /// Whether this family's marker, which ends at `after` in `t`, opens calls: `Some(false)`
    /// makes it text (the scan for markers goes on past it), `None` says the text ends before
    /// that can be told (only when `complete` is false: `t` is not the whole reply yet). Every
    /// marker opens calls, but for a family whose marker is also a word (UI-TARS's `Action:`).
    fn opens(&self, t: &str, after: usize, complete: bool) -> Option<bool> {
        let _ = (t, after, complete);
        Some(true)
    }

    /// Whether the next call may follow a call directly, with no opener of its own (JSON values
    /// after one marker, separated by `;`, commas or newlines).
    fn values_follow(&self) -> bool {
        false
    }
}

/// Every family with markers, in the order that breaks ties between markers at one position.
/// A reply with none of their markers is read by [`json`](super::json) (JSON or pythonic
/// calls, or plain content).
pub(crate) static FAMILIES: &[&dyn Family] = &[
    &function_calls::FunctionCalls,
    &invoke::Invoke,
    &hermes::Hermes,
    &qwen_coder::QwenCoder,
    &mistral::Mistral,
    &llama::PythonTag,
    &deepseek::DeepSeek,
    &kimi::Kimi,
    &granite::GRANITE,
    &jamba::Jamba,
    &phi4::PHI4,
    &internlm::INTERNLM,
    &harmony::Harmony,
    &gemma::Gemma,
    &python_start::PythonStart,
    &ui_tars::UiTars,
    &dsml::DSML,
    &minimax::MINIMAX_M2,
    &step3::STEP3,
    &minicpm::MINICPM,
    &seed_oss::SEED_OSS,
    &longcat::LongCat,
    &function_call::FunctionCall,
    &cohere::COHERE,
    &apertus::Apertus,
    &gigachat::GIGACHAT,
    &function_gemma::FunctionGemma,
    &lfm2::Lfm2,
    &minimax_m3::MinimaxM3,
    &hy_v3::HyV3,
];

/// Every family's markers, indexed by their first two bytes: the scan for the earliest marker
/// looks at each byte once and tries only the markers that begin with that byte and the next
/// (text full of `<` tries none).
struct MarkerIndex {
    /// The markers in registry order, each with its family.
    markers: Vec<(&'static str, &'static dyn Family)>,
    /// Whether some marker begins with these two bytes.
    pair: Box<[[bool; 256]; 256]>,
    /// The markers beginning with each first byte, in registry order.
    by_first: Vec<Vec<usize>>,
    longest: usize,
}

fn index() -> &'static MarkerIndex {
    static INDEX: std::sync::OnceLock<MarkerIndex> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let markers: Vec<(&'static str, &'static dyn Family)> = FAMILIES
            .iter()
            .flat_map(|f| f.markers().iter().map(move |m| (*m, *f)))
            .collect();
        let mut pair = Box::new([[false; 256]; 256]);
        let mut by_first = vec![Vec::new(); 256];
        for (i, (m, _)) in markers.iter().enumerate() {
            // Every marker is at least two bytes long.
            let b = m.as_bytes();
            pair[usize::from(b[0])][usize::from(b[1])] = true;
            by_first[usize::from(b[0])].push(i);
        }
        let longest = markers.iter().map(|(m, _)| m.len()).max().unwrap_or(2);
        MarkerIndex {
            markers,
            pair,
            by_first,
            longest,
        }
    })
}

/// What the scan for the earliest marker came to.
pub(crate) enum Detected {
    /// A marker at this offset, of this family.
    At(usize, &'static dyn Family),
    /// A marker at this offset whose family cannot tell yet whether it opens calls (the text
    /// is still arriving): nothing before it is a marker.
    Pending(usize),
    /// No marker.
    None,
}

/// The earliest marker in `t` from `from` that opens calls ([`Family::opens`]): its offset
/// and its family (at one position, the first family in [`FAMILIES`]). `complete`: `t` is the
/// whole reply.
pub(crate) fn detect(t: &str, from: usize, complete: bool, quoted: &mut Quoted) -> Detected {
    let ix = index();
    let b = t.as_bytes();
    let start = from.min(b.len());
    for (i, w) in b[start..].windows(2).enumerate() {
        let (c0, c1) = (usize::from(w[0]), usize::from(w[1]));
        if !ix.pair[c0][c1] {
            continue;
        }
        let at = start + i;
        let candidates = ix.by_first[c0].iter().map(|&k| ix.markers[k]);
        let mut in_string = None;
        for (m, family) in candidates {
            if !b[at..].starts_with(m.as_bytes()) {
                continue;
            }
            if *in_string.get_or_insert_with(|| quoted.in_string(b, at)) {
                // A marker a string of the reply's JSON quotes is its text.
                break;
            }
            match family.opens(t, at + m.len(), complete) {
                Some(true) => return Detected::At(at, family),
                Some(false) => {}
                None => return Detected::Pending(at),
            }
        }
    }
    Detected::None
}

/// Where a reply opens with JSON or a pythonic list (`{`, `[` first), the strings of that
/// value, in which a family's marker is text (`[echo(text="use <tool_call> tags")]`, a JSON
/// call whose argument quotes one): read once, forward, up to each marker the scan meets.
/// Prose quotes nothing (a quote in it may be an inch or an apostrophe), nor does anything
/// after the value closes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Quoted {
    strings: crate::extract::Strings,
    /// How far `strings` has read.
    read: usize,
    /// Whether the text opens with a bracket: `None` until its first byte that is not white
    /// space has come.
    opens: Option<bool>,
}

impl Quoted {
    /// Whether `t[at]`, at or after what was read before, lies inside a string of the value
    /// the text opens with. (Asked only where a marker is found: kept out of `detect`'s loop
    /// over every byte, which is faster without it.)
    #[inline(never)]
    fn in_string(&mut self, t: &[u8], at: usize) -> bool {
        if self.opens.is_none() {
            let lead = t.iter().take_while(|c| c.is_ascii_whitespace()).count();
            self.opens = t.get(lead).map(|c| matches!(c, b'{' | b'['));
        }
        if self.opens != Some(true) || self.strings.emptied() {
            return false;
        }
        if let Some(bytes) = t.get(self.read..at) {
            self.strings.read(bytes);
            self.read = at;
        }
        !self.strings.emptied() && self.strings.in_string()
    }
}

/// The length of the longest marker of any family.
pub(crate) fn longest_marker() -> usize {
    index().longest
}

/// The earliest position from `from` where one of `markers` starts, and which one (the first
/// in order at that position). One pass over the bytes that tries only the markers beginning
/// with the byte at hand: no searcher is set up per marker.
pub(crate) fn scan_for<'m>(
    v: &str,
    from: usize,
    markers: impl Iterator<Item = &'m str> + Clone,
) -> Option<(usize, usize)> {
    let b = v.as_bytes();
    let mut first = [false; 256];
    for m in markers.clone() {
        if let Some(&c) = m.as_bytes().first() {
            first[usize::from(c)] = true;
        }
    }
    let start = from.min(b.len());
    b[start..].iter().enumerate().find_map(|(i, &c)| {
        if !first[usize::from(c)] {
            return None;
        }
        let at = start + i;
        markers
            .clone()
            .position(|m| b[at..].starts_with(m.as_bytes()))
            .map(|k| (at, k))
    })
}
