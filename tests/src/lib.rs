//! Support code of fusion's integration tests (the tests themselves live in `tests/`).

pub mod wire;
