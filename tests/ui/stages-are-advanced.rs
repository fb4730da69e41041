// The pipeline's stages are not at the crate root: they are in `llmout::advanced`.
use llmout::extract::candidates;
use llmout::recover::recover;
use llmout::sanitize::sanitize;
use llmout::schema::Kind;

fn main() {}
