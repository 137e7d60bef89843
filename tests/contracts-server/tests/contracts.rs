//! Types from a sibling crate are read from its sources: the schemas equal
//! schemars', with the fields the features cargo enables for it.

use serde_json::json;
use tooltable_contracts_server::TOOLS;

#[test]
fn the_schemas_of_types_from_a_sibling_crate_equal_schemars() {
    assert_eq!(tooltable::testing::assert_schemas_match(&TOOLS), 2);
}

#[test]
fn the_sibling_crate_s_fields_follow_the_features_enabled_for_it() {
    let open = TOOLS.get("tickets_open").unwrap().descriptor();
    let properties = &open["inputSchema"]["properties"];
    assert_eq!(
        properties["priority"]["maximum"],
        json!(5),
        "`priority` is enabled by the server: {properties}"
    );
    assert!(
        properties.get("labels").is_some(),
        "`labels` is a default feature: {properties}"
    );
    assert!(
        properties.get("never").is_none(),
        "`never` is never enabled: {properties}"
    );
    assert_eq!(properties["title"]["maxLength"], json!(120), "{properties}");
    assert_eq!(
        properties["related"]["default"],
        json!(10),
        "a default through the sibling's own `crate::` paths: {properties}"
    );
    let output = &open["outputSchema"]["properties"];
    assert!(
        output.get("escalates_to").is_some(),
        "`escalation` is enabled through `priority`: {output}"
    );
}
