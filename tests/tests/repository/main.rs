//! Checks on the repository itself rather than on the toolkit's behaviour: every file it reads
//! is found from this crate's manifest directory, so the tests run from any working directory.

mod citations;
