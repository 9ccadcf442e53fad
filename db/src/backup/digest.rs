//! The backup file's integrity digest: SHA-256 over the file's content in canonical form, so
//! that any changed value (a force count, a name, a seat) makes the digest disagree, while the
//! JSON's spacing and key order (a file shown with `jq .` and saved again) do not.
//!
//! Canonical form: the JSON value without its top-level `digest` field, written compactly with
//! every object's keys in byte order and strings escaped as `serde_json` escapes them. Numbers
//! are written as `serde_json` writes the value it read, so `1.50` and `1.5` are the same
//! number and the same content.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// How the digest is written in the file: `sha256:` and 64 lowercase hex digits.
pub const PREFIX: &str = "sha256:";

/// The digest of `content` (a backup as a JSON value; a top-level `digest` is left out).
pub fn of(content: &Value) -> String {
    let mut bytes = Vec::new();
    canonical(content, true, &mut bytes);
    let hash = Sha256::digest(&bytes);
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("{PREFIX}{hex}")
}

fn canonical(value: &Value, top: bool, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map
                .keys()
                .filter(|k| !(top && k.as_str() == "digest"))
                .collect();
            keys.sort();
            out.push(b'{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                scalar(&Value::String(key.clone()), out);
                out.push(b':');
                if let Some(v) = map.get(key) {
                    canonical(v, false, out);
                }
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical(item, false, out);
            }
            out.push(b']');
        }
        other => scalar(other, out),
    }
}

fn scalar(value: &Value, out: &mut Vec<u8>) {
    // Writing a string, number, bool or null into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_and_key_order_do_not_change_the_digest_but_a_value_does() {
        let a: Value =
            serde_json::from_str(r#"{"b": [1, {"y": 2, "x": "é"}], "a": null}"#).unwrap();
        let b: Value =
            serde_json::from_str("{\"a\":null,\n  \"b\":[1,{\"x\":\"\\u00e9\",\"y\":2}]}").unwrap();
        assert_eq!(of(&a), of(&b));
        let c: Value =
            serde_json::from_str(r#"{"b": [1, {"y": 3, "x": "é"}], "a": null}"#).unwrap();
        assert_ne!(of(&a), of(&c));
        let with: Value = serde_json::from_str(
            r#"{"digest": "sha256:00", "b": [1, {"y": 2, "x": "é"}], "a": null}"#,
        )
        .unwrap();
        assert_eq!(of(&a), of(&with), "the digest field itself is left out");
        assert!(of(&a).starts_with(PREFIX));
        assert_eq!(of(&a).len(), PREFIX.len() + 64);
    }
}
