//! The pipeline.
use crate::*;
/// Repaired JSON.
#[derive(Debug, Clone)]
pub struct Repaired { /// value
 pub value: serde_json::Value, /// warnings
 pub warnings: Vec<Warning> }
/// Repairs.
pub fn repair_text(_raw: &str, _o: &Options) -> Result<Repaired, Error> { todo!() }
/// Runtime schema entry.
pub fn from_llm_with_schema(_raw: &str, _schema: &serde_json::Value, _o: &Options) -> ValidationResult<serde_json::Value> { todo!() }
pub(crate) fn from_llm_typed<T: LlmOutput>(_raw: &str, _o: &Options) -> ValidationResult<T> { todo!() }
/// Recovers an already-parsed value against a runtime schema (no extraction or repair).
pub fn recover_with_schema(_value: serde_json::Value, _schema: &serde_json::Value, _o: &Options) -> ValidationResult<serde_json::Value> { todo!() }
