//! The hardening properties (forging, redaction, input) and the regression tests of the bugs
//! they found. One test binary for them, so the tests link once.

mod harden_forging;
mod harden_input;
mod harden_presenter;
mod harden_redaction;
mod harden_regressions;
mod harden_support;
