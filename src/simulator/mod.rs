//! The simulator: the whole interface over an in-memory world (simulator.md).
