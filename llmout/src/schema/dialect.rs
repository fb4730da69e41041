//! Provider dialects of a schema (OpenAI strict, Anthropic, Gemini).
