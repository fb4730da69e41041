//! Tool calls: every text format models emit, normalised into one envelope.
