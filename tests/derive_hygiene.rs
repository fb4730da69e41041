//! The derive's output compiles cleanly under strict lints, for every shape of input it
//! accepts: generics, each serde enum representation, renames, aliases, flatten, and a
//! renamed `llmout` dependency.
#![deny(
    warnings,
    missing_docs,
    unused_qualifications,
    unused_imports,
    unused_results,
    unused_extern_crates,
    trivial_casts,
    trivial_numeric_casts,
    single_use_lifetimes,
    unreachable_pub,
    non_ascii_idents,
    clippy::all,
    clippy::pedantic
)]
#![allow(dead_code, clippy::struct_field_names)]

extern crate llmout as renamed;

use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

/// A generic page.
#[derive(Deserialize, JsonSchema, LlmOutput)]
pub struct Page<T, const N: usize> {
    /// The page number.
    pub number: u32,
    /// The items.
    #[llmout(alias = "results")]
    pub items: Vec<T>,
    /// The cursor.
    pub next: Option<Box<Page<T, N>>>,
}

/// A generic pair with a where clause.
#[derive(Deserialize, JsonSchema, LlmOutput)]
pub struct Pair<A, B>
where
    A: Clone,
{
    /// First.
    pub first: A,
    /// Second.
    pub second: Box<B>,
}

/// camelCase with serde and llmout aliases.
#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "camelCase")]
pub struct User {
    /// The id.
    #[serde(alias = "uid")]
    #[llmout(no_invent, alias = "user_id")]
    pub user_id: u64,
    /// Flattened metadata.
    #[serde(flatten)]
    pub meta: Meta,
    /// Nested.
    pub friends: Vec<Option<User>>,
}

/// Metadata flattened into [`User`].
#[derive(Deserialize, JsonSchema, LlmOutput)]
pub struct Meta {
    /// When.
    #[llmout(alias = "created")]
    pub created_at: String,
}

/// Externally tagged.
#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "snake_case")]
pub enum External {
    /// Unit.
    #[serde(alias = "none")]
    Nothing,
    /// Struct.
    #[llmout(alias = "pt")]
    Point {
        /// X.
        #[llmout(alias = "x_coord", no_invent)]
        x: i32,
    },
    /// Newtype.
    Wrapped(User),
    /// Tuple.
    Pair(i32, i32),
}

/// Internally tagged.
#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "type")]
pub enum Internal {
    /// Unit.
    A,
    /// Struct.
    B {
        /// X.
        #[llmout(alias = "ex")]
        x: i32,
    },
    /// Newtype of a struct.
    C(Meta),
}

/// Adjacently tagged.
#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    /// Unit.
    #[llmout(alias = "a")]
    A,
    /// Struct.
    B {
        /// X.
        #[llmout(no_invent)]
        x: i32,
    },
}

/// Untagged.
#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(untagged)]
pub enum Untagged {
    /// Struct.
    Point {
        /// X.
        #[llmout(alias = "ex")]
        x: i32,
    },
    /// Number.
    Number(f64),
}

/// Through a renamed dependency.
#[derive(Deserialize, JsonSchema, renamed::LlmOutput)]
#[llmout(crate = "renamed")]
pub struct Renamed {
    /// Text.
    #[llmout(no_invent)]
    pub text: String,
}

/// A transparent newtype.
#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(transparent)]
pub struct Transparent(pub Meta);

/// Unit struct.
#[derive(Deserialize, JsonSchema, LlmOutput)]
pub struct Unit;

#[test]
fn every_derive_has_a_schema() {
    assert_eq!(Page::<User, 2>::schema()["x-aliases"]["results"], "items");
    assert_eq!(Pair::<String, User>::schema()["type"], "object");
    assert_eq!(User::schema()["x-no-invent"][0], "userId");
    assert_eq!(
        External::schema()["oneOf"][0]["x-aliases"]["none"],
        "nothing"
    );
    assert_eq!(Internal::schema()["oneOf"][1]["x-aliases"]["ex"], "x");
    assert_eq!(
        Adjacent::schema()["oneOf"][1]["properties"]["c"]["x-no-invent"][0],
        "x"
    );
    assert_eq!(Untagged::schema()["anyOf"][0]["x-aliases"]["ex"], "x");
    assert_eq!(Renamed::schema()["x-no-invent"][0], "text");
    assert_eq!(Transparent::schema()["x-aliases"]["created"], "created_at");
    assert_eq!(Unit::schema()["type"], "null");
}
