//! Recovery of a top-level array one item at a time: what [`recover`](super::recover) does to
//! each item of an array against a schema whose root is `{"type": "array", "items": …}`, for a
//! caller that reads the items one by one and does not hold the array (see
//! [`crate::large`]).

use std::borrow::Cow;

use serde_json::Value;

use super::{push_index, Recovered, Walker};
use crate::schema::{Array, Kind, NodeId, Schema};
use crate::{Error, Options};

/// Recovers the items of a top-level array in order, each as [`recover`](super::recover)
/// recovers it inside the whole array: the same value, warnings (paths from the root, `/0/…`),
/// moves and cost.
pub(crate) struct Items<'s> {
    walker: Walker<'s>,
    items: NodeId,
    next: usize,
}

impl<'s> Items<'s> {
    /// `None` unless `schema`'s root is an array whose every item has one schema and nothing
    /// else is asked of the array (no tuple, no length bounds, no check of the whole array
    /// such as `uniqueItems`), or any value (`{}`, which keeps an array as it is, as it keeps
    /// each item): recovering such an array is recovering each item where it is.
    pub(crate) fn new(schema: &'s Schema, options: &Options) -> Option<Self> {
        if schema.checks(schema.root()).next().is_some() {
            return None;
        }
        let root = schema.resolve(schema.root());
        let items = match &schema.node(root).kind {
            Kind::Array(Array {
                items: Some(items),
                prefix,
                min_items: None,
                max_items: None,
            }) if prefix.is_empty() => items,
            Kind::Any => &root,
            _ => return None,
        };
        let mut walker = Walker::new(schema, options);
        // The array's own frame, as `Walker::value` counts it at the root.
        walker.frames = 1;
        walker.peak_frames = 1;
        Some(Items {
            walker,
            items: *items,
            next: 0,
        })
    }

    /// Whether an item that cannot be recovered is dropped ([`Options::drop_invalid_items`]):
    /// the items after it move, which recovering them one by one does not follow.
    pub(crate) fn drops_items(&self) -> bool {
        self.walker.drop_items
    }

    /// The constraints the items recovered so far break ([`Error::invalid`] with all of them,
    /// as [`recover`](super::recover) gives it for the whole array), if any.
    pub(crate) fn violations(&self) -> Option<Error> {
        let v = &self.walker.violations;
        (!v.is_empty()).then(|| Error::invalid(v.clone()))
    }

    /// Recovers the next item. The constraints it breaks are kept for
    /// [`violations`](Self::violations).
    pub(crate) fn next(&mut self, item: Value) -> Result<Recovered, Error> {
        let w = &mut self.walker;
        w.path.clear();
        push_index(&mut w.path, self.next);
        self.next += 1;
        w.wrapped = false;
        let r = w.value(Cow::Owned(item), self.items, 1);
        let cost = u32::try_from(std::mem::take(&mut w.cost)).unwrap_or(u32::MAX);
        let warnings = std::mem::take(&mut w.warnings);
        let moves = std::mem::take(&mut w.moves);
        let as_text = std::mem::take(&mut w.as_text);
        Ok(Recovered {
            value: r?,
            warnings,
            cost,
            moves,
            as_text,
        })
    }
}
