//! The baked schemas equal what schemars makes of the same types.

#[test]
fn every_baked_schema_equals_schemars() {
    let compared = tooltable::testing::assert_schemas_match(&notes_server::TOOLS);
    assert_eq!(compared, 8);
}
