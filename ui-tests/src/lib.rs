//! Compile-fail cases of fusion live in `tests/ui/`.
