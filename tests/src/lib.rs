//! Integration tests of fusion live in `tests/`.
