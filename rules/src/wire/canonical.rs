//! Canonical JSON (RFC 8785, the JSON Canonicalization Scheme).
//!
//! Fingerprints hash canonical bytes, never a serializer's text, because key
//! order and number spelling vary between serializers (and between builds of
//! serde_json with different features). JCS fixes both, and any language can
//! reproduce it, which is what lets a client recompute a fingerprint from the
//! manifest.

use serde_json::Value;

/// The RFC 8785 canonical form of `value`, as UTF-8 bytes.
pub fn canonical_json(value: &Value) -> Vec<u8> {
    // A `Value` holds only finite numbers and valid strings, which are exactly
    // what JCS can encode, so this conversion has no failing input; the
    // fallback keeps the signature free of an error no caller could act on.
    serde_json_canonicalizer::to_vec(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(text: &str) -> String {
        let value: Value = serde_json::from_str(text).unwrap();
        String::from_utf8(canonical_json(&value)).unwrap()
    }

    #[test]
    fn the_rfc_8785_example_of_section_3_2_2_is_reproduced_byte_for_byte() {
        let input = r#"{
          "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
          "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
          "literals": [null, true, false]
        }"#;
        assert_eq!(
            canonical(input),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    #[test]
    fn keys_are_sorted_by_utf16_code_units_as_in_section_3_2_3() {
        let input = r#"{
          "\u20ac": "Euro Sign",
          "\r": "Carriage Return",
          "\ufb33": "Hebrew Letter Dalet With Dagesh",
          "1": "One",
          "\ud83d\ude00": "Emoji: Grinning Face",
          "\u0080": "Control",
          "\u00f6": "Latin Small Letter O With Diaeresis"
        }"#;
        assert_eq!(
            canonical(input),
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\"\u{1f600}\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}"
        );
    }

    #[test]
    fn numbers_follow_the_ecmascript_rules_of_appendix_b() {
        let cases: &[(u64, &str)] = &[
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for &(bits, expected) in cases {
            let value = Value::from(f64::from_bits(bits));
            let text = String::from_utf8(canonical_json(&value)).unwrap();
            assert_eq!(text, expected, "{bits:#018x}");
        }
    }

    #[test]
    fn whitespace_is_removed_and_nested_objects_are_sorted() {
        assert_eq!(
            canonical(r#"{ "b": [ 1, { "d": 1, "c": 2 } ], "a": "x" }"#),
            r#"{"a":"x","b":[1,{"c":2,"d":1}]}"#
        );
    }
}
