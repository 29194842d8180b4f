//! Shared code of the billing example.
