//! Size limits shared by the build and the server.
//!
//! They bound what one tool or one conversation can cost a client: a
//! descriptor is sent on every listing, and a pin set travels with every call
//! of a pinned conversation.

/// The largest descriptor, in bytes of its served JSON text.
pub const MAX_DESCRIPTOR_BYTES: usize = 1024 * 1024;

/// The most tools one conversation may pin.
pub const MAX_PINS: usize = 256;

/// The longest tool name a pin may hold, in bytes.
pub const MAX_PIN_NAME_BYTES: usize = 128;

/// Checks a descriptor's served text against [`MAX_DESCRIPTOR_BYTES`].
pub fn check_descriptor_size(name: &str, text: &str) -> Result<(), String> {
    if text.len() > MAX_DESCRIPTOR_BYTES {
        Err(format!(
            "the descriptor of tool `{name}` is {} bytes, more than the {MAX_DESCRIPTOR_BYTES} bytes (1 MiB) a descriptor may take; shorten its description or simplify its schemas",
            text.len()
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_descriptor_of_exactly_one_mebibyte_is_accepted_and_one_byte_more_is_refused() {
        let fits = "x".repeat(MAX_DESCRIPTOR_BYTES);
        assert!(check_descriptor_size("t", &fits).is_ok());
        let err = check_descriptor_size("t", &format!("{fits}x")).unwrap_err();
        assert!(
            err.starts_with("the descriptor of tool `t` is 1048577 bytes"),
            "{err}"
        );
    }
}
