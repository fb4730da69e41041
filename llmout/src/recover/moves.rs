//! Following a path through the moves recovery made ([`Recovered::remap`], and back):
//! linear in the moves that touch the path, however many there are in all.
//!
//! [`Recovered::remap`]: super::Recovered::remap

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// From this many moves on, the moves that may touch a path are looked up by its prefixes
/// ([`MoveIndex`]); below, each is compared with the path.
const INDEXED: usize = 8;

/// The moves of a [`Recovered`](super::Recovered) by their pointers, built the first time a
/// path is followed through more than [`INDEXED`] of them. A reply of many records, each
/// with a renamed key and a fix of the parser's, has as many moves as warnings to follow
/// through them: compared with every move, that was quadratic (a 7 MB reply took minutes).
/// A cache, no part of the value: equal to any other, and empty when cloned.
#[derive(Default)]
pub(crate) struct MoveIndex(OnceLock<Box<Index>>);

/// The moves by their pointers' hashes: a path's prefixes are hashed in one pass over it
/// ([`Index::prefixes`]), where hashing each prefix as a key would read the path again for
/// each of its levels (deep paths under long keys, followed through a move at each level,
/// made that cubic). A hash found is checked against the pointer it stands for.
struct Index {
    hasher: RandomState,
    /// The moves' positions by the hash of their `from` pointer, ascending.
    from: HashMap<u64, Vec<usize>>,
    /// By the hash of their `to` pointer.
    to: HashMap<u64, Vec<usize>>,
}

impl Index {
    fn new(moves: &[(String, String)]) -> Self {
        let mut index = Index {
            hasher: RandomState::new(),
            from: HashMap::new(),
            to: HashMap::new(),
        };
        for (i, (from, to)) in moves.iter().enumerate() {
            let (from, to) = (index.hash(from), index.hash(to));
            index.from.entry(from).or_default().push(i);
            index.to.entry(to).or_default().push(i);
        }
        index
    }

    /// A pointer's hash, its bytes written as [`prefixes`](Self::prefixes) writes them.
    fn hash(&self, pointer: &str) -> u64 {
        let mut h = self.hasher.build_hasher();
        h.write(pointer.as_bytes());
        h.finish()
    }

    /// `path`'s prefixes ([`prefixes`]), each with its hash, hashed as the path is read once
    /// (a hasher's state, cloned at each `/`, goes on from where the last prefix ended).
    fn prefixes<'p>(&self, path: &'p str) -> impl Iterator<Item = (&'p str, u64)> + 'p {
        let mut h = self.hasher.build_hasher();
        let mut done = 0;
        path.match_indices('/')
            .map(|(i, _)| i)
            .chain(std::iter::once(path.len()))
            .map(move |end| {
                h.write(&path.as_bytes()[done..end]);
                done = end;
                (&path[..end], h.clone().finish())
            })
    }
}

impl Clone for MoveIndex {
    fn clone(&self) -> Self {
        MoveIndex::default()
    }
}

impl PartialEq for MoveIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for MoveIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MoveIndex")
    }
}

/// Whether `pointer` is `path` or a prefix of it that ends before a `/`.
fn leads_to(pointer: &str, path: &str) -> bool {
    path.strip_prefix(pointer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// `path` and its prefixes that end before a `/`, the empty one first: the pointers of
/// the values it is in, and its own.
pub(crate) fn prefixes(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/')
        .map(|(i, _)| &path[..i])
        .chain(std::iter::once(path))
}

/// A move's pointers: where it takes a path from, and to (going `back`, the other way).
fn ends(m: &(String, String), back: bool) -> (&str, &str) {
    if back {
        (&m.1, &m.0)
    } else {
        (&m.0, &m.1)
    }
}

/// `path` followed through `moves` (`(from, to)` pointers, in the order made): each move
/// whose `from` leads to the path as it is then puts the rest of it under `to`. With
/// `back`, undone: the moves in reverse, from `to` to `from`.
pub(crate) fn follow(
    moves: &[(String, String)],
    index: &MoveIndex,
    path: &str,
    back: bool,
) -> String {
    let mut path = path.to_owned();
    if moves.len() <= INDEXED {
        let mut step = |m: &(String, String)| {
            let (old, new) = ends(m, back);
            if leads_to(old, &path) {
                path = format!("{new}{}", &path[old.len()..]);
            }
        };
        if back {
            moves.iter().rev().for_each(&mut step);
        } else {
            moves.iter().for_each(&mut step);
        }
        return path;
    }
    let index = index.0.get_or_init(|| Box::new(Index::new(moves)));
    let by = if back { &index.to } else { &index.from };
    // The moves still to make: from `next` on; going back, those before `next`.
    let mut next = if back { moves.len() } else { 0 };
    loop {
        // The first of them (going back, the last) whose pointer leads to the path.
        let mut found: Option<usize> = None;
        for (prefix, hash) in index.prefixes(&path) {
            let Some(at) = by.get(&hash) else {
                continue;
            };
            // (Of the moves with that hash, those whose pointer is the prefix.)
            let is = |&&i: &&usize| ends(&moves[i], back).0 == prefix;
            let k = at.partition_point(|&i| i < next);
            let i = if back {
                match at[..k].iter().rev().find(is) {
                    Some(&i) => i,
                    None => continue,
                }
            } else {
                match at[k..].iter().find(is) {
                    Some(&i) => i,
                    None => continue,
                }
            };
            found = Some(match found {
                Some(f) if back => f.max(i),
                Some(f) => f.min(i),
                None => i,
            });
        }
        let Some(i) = found else {
            return path;
        };
        let (old, new) = ends(&moves[i], back);
        path = format!("{new}{}", &path[old.len()..]);
        next = if back { i } else { i + 1 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every move compared with the path, as [`follow`] does below [`INDEXED`] moves.
    fn each(moves: &[(String, String)], path: &str, back: bool) -> String {
        let mut path = path.to_owned();
        let mut step = |(from, to): &(String, String)| {
            let (at, new) = if back { (to, from) } else { (from, to) };
            if leads_to(at, &path) {
                path = format!("{new}{}", &path[at.len()..]);
            }
        };
        if back {
            moves.iter().rev().for_each(&mut step);
        } else {
            moves.iter().for_each(&mut step);
        }
        path
    }

    fn pointer() -> impl Strategy<Value = String> {
        proptest::collection::vec(proptest::sample::select(vec!["a", "b", "0", "A", ""]), 0..4)
            .prop_map(|keys| keys.iter().map(|k| format!("/{k}")).collect())
    }

    #[test]
    fn moves_are_followed_in_order_and_back() {
        // A key renamed, then the value under it wrapped in an array, then the root's
        // only member taken out of it: more than `INDEXED` moves, most of them elsewhere.
        let mut moves: Vec<(String, String)> = (0..20)
            .map(|i| (format!("/r/{i}/ID"), format!("/r/{i}/id")))
            .collect();
        moves.push(("/R".into(), "/r".into()));
        moves.push(("/r/3/id".into(), "/r/3/id/0".into()));
        moves.push(("/r".into(), String::new()));
        let index = MoveIndex::default();
        assert_eq!(follow(&moves, &index, "/R/3/id", false), "/3/id/0");
        assert_eq!(follow(&moves, &index, "/r/3/ID/x", false), "/3/id/0/x");
        assert_eq!(follow(&moves, &index, "/Rx", false), "/Rx");
        assert_eq!(follow(&moves, &index, "/3/id/0", true), "/R/3/id");
        assert_eq!(follow(&moves, &index, "", false), "");
        for path in ["/R/3/id", "/r/3/ID/x", "/Rx", "/3/id/0", "", "/r/19/ID"] {
            for back in [false, true] {
                assert_eq!(follow(&moves, &index, path, back), each(&moves, path, back));
            }
        }
    }

    #[test]
    fn a_paths_prefixes_hash_as_each_one_alone() {
        let index = Index::new(&[]);
        for path in ["", "/", "/a", "/a/bc/", "/éé/~0/~1x/0", "//x"] {
            let hashed: Vec<(&str, u64)> = index.prefixes(path).collect();
            let each: Vec<(&str, u64)> = prefixes(path).map(|p| (p, index.hash(p))).collect();
            assert_eq!(hashed, each, "{path:?}");
        }
    }

    proptest! {
        /// Looked up by the path's prefixes: what comparing it with every move gives.
        #[test]
        fn the_index_follows_as_every_move_compared(
            moves in proptest::collection::vec((pointer(), pointer()), 0..30),
            paths in proptest::collection::vec(pointer(), 1..8),
        ) {
            let index = MoveIndex::default();
            for path in &paths {
                for back in [false, true] {
                    prop_assert_eq!(follow(&moves, &index, path, back), each(&moves, path, back));
                }
            }
        }
    }
}
