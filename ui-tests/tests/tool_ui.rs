//! Compile-fail cases of `#[derive(Tool)]`: one mistake family per file.

#[test]
fn tool_derive_mistakes() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/tool/*.rs");
}
