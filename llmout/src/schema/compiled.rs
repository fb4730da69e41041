//! The compiled view of a JSON schema.
use serde_json::Value;
/// A compiled schema.
#[derive(Debug, Clone)]
pub struct Schema;
impl Schema {
    /// Compiles.
    pub fn compile(_v: &Value) -> Result<Schema, crate::Error> { Ok(Schema) }
    /// Accepts anything.
    pub fn any() -> Schema { Schema }
}
