//! What a program needs is at the crate root; the pipeline's stages are under
//! `llmout::advanced` (and not at the root: `tests/ui/stages-are-advanced.rs`).

use llmout::{
    CallInProgress, Dialect, FieldState, LlmOutput, Partial, Policy, RepairKind, Stream, ToolCall,
    ToolCallResponse, ToolDef, ToolStream, WarningKind,
};

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
struct Point {
    x: i32,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
#[allow(dead_code)]
enum Tool {
    GetTime { tz: String },
}

#[test]
fn common_types_are_at_the_root() {
    assert_eq!(
        Point::schema_for(Dialect::OpenAiStrict).unwrap()["additionalProperties"],
        false
    );
    let r: ToolCallResponse =
        llmout::tools::parse("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>");
    let call: &ToolCall = &r.tool_calls[0];
    assert_eq!(call.name, "f");
    let defs: Vec<ToolDef> = llmout::tools::definitions::<Tool>();
    assert_eq!(defs[0].name, "GetTime");

    let mut s = ToolStream::new();
    s.push("<tool_call>{\"name\": \"g\", \"arguments\": {\"a\": 1");
    let current: CallInProgress<'_> = s.current().unwrap();
    assert_eq!(current.name, Some("g"));
    assert_eq!(current.state("/a"), FieldState::InProgress);

    let mut p = Stream::<Point>::new();
    p.push("{\"x\": 4 ");
    let partial: &Partial = p.partial();
    assert_eq!(partial.get("/x"), Some(&serde_json::json!(4)));
    assert_eq!(p.finish().value, Some(Point { x: 4 }));

    let r = llmout::repair_text("[1,]", &Default::default()).unwrap();
    assert_eq!(
        r.warnings[0].kind,
        WarningKind::Repaired(RepairKind::TrailingComma)
    );
    assert_eq!("no-invent".parse::<Policy>(), Ok(Policy::NoInvent));
}

#[test]
fn the_stages_are_under_advanced() {
    let c = llmout::advanced::extract::candidates("Here: {\"a\": 1}");
    assert_eq!(c.last().unwrap().text, "{\"a\": 1}");
    let schema = llmout::schema::Schema::compile(&serde_json::json!({"type": "integer"})).unwrap();
    let r =
        llmout::advanced::recover::recover(serde_json::json!("4"), &schema, &Default::default())
            .unwrap();
    assert_eq!((r.value, r.cost), (serde_json::json!(4), 1));
    let llmout::advanced::schema::Kind::Integer { .. } = schema.node(schema.root()).kind else {
        panic!("an integer node");
    };
}
