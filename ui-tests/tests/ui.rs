//! Compile-fail cases of `#[derive(Presenter)]`: one mistake family per file, named
//! `<attribute>-<mistake>.rs`, each with the exact compiler output in its `.stderr`.
//!
//! Regenerate after an intended change with `TRYBUILD=overwrite cargo test -p fusion-ui-tests`,
//! then review every changed `.stderr`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
