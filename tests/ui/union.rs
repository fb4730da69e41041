use llmout::LlmOutput;

#[derive(LlmOutput)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
