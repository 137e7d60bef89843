//! Every schema the build script baked for the corpus equals what schemars
//! makes of the same types, with schemars' default settings.

#[test]
fn every_baked_schema_of_the_corpus_equals_schemars_with_default_settings() {
    let compared = tooltable::testing::assert_schemas_match(&tooltable_corpus::TOOLS);
    println!("compared the input and output schemas of {compared} tools with schemars");
    assert!(
        compared >= 80,
        "the corpus must hold at least 80 tools, but holds {compared}"
    );
}
