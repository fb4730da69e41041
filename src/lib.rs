//! Workspace root package: owns examples/, tests/ and benches/.
