//! Every mistake in a `#[tool]` attribute or signature is a compile error on
//! the offending token.

#[test]
fn attribute_and_signature_mistakes_fail_at_the_offending_token() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
