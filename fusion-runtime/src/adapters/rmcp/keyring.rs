//! The keys that seal a stateless call's `requestState` (SEP-2322), shared by every replica.
//!
//! A stateless server that asks the client for something (an input-required result) hands it a
//! sealed `requestState`; the client's next call may land on any replica behind the load
//! balancer, so every replica must open what any replica sealed. A per-process random key
//! cannot: the keys come from the environment or a file that every replica reads.
//!
//! The text is one key per line (or comma-separated): `ID=SECRET`, the secret at least 32 bytes
//! of high-entropy text. The **first** key signs new states; every listed key opens states.
//! To rotate: put the new key first and keep the old one listed until the states it sealed have
//! expired, then drop it. rmcp's [`RequestStateCodec`] does the sealing (HMAC-SHA256); a state
//! that is tampered with, sealed with a key not listed, or past its time is refused.
//!
//! ```text
//! FUSION_STATE_KEYS="k2=7c0f…(32+ bytes)…,k1=41aa…(32+ bytes)…"
//! ```

use std::fmt;

use ::rmcp::model::RequestStateCodec;

/// The environment variable [`state_keys_from_env`] reads by default.
pub const STATE_KEYS_VAR: &str = "FUSION_STATE_KEYS";

/// Why a keyring could not be read.
#[derive(Debug)]
pub struct KeyringError(String);

impl fmt::Display for KeyringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyringError {}

/// The codec for the keyring `text` (`ID=SECRET` per line or comma; the first signs).
pub fn state_keys(text: &str) -> Result<RequestStateCodec, KeyringError> {
    let mut keys: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in text
        .split([',', '\n'])
        .map(str::trim)
        .filter(|entry| !entry.is_empty() && !entry.starts_with('#'))
    {
        let (id, secret) = entry.split_once('=').ok_or_else(|| {
            KeyringError(format!(
                "a state key is written ID=SECRET; found an entry without `=` (of {} bytes)",
                entry.len()
            ))
        })?;
        let (id, secret) = (id.trim(), secret.trim());
        if secret.len() < RequestStateCodec::MIN_KEY_LENGTH {
            return Err(KeyringError(format!(
                "state key {id:?} is {} bytes; use at least {} bytes of random text",
                secret.len(),
                RequestStateCodec::MIN_KEY_LENGTH
            )));
        }
        keys.push((id.to_owned(), secret.as_bytes().to_vec()));
    }
    let Some((active, _)) = keys.first() else {
        return Err(KeyringError(
            "the state keyring is empty: list at least one ID=SECRET".to_owned(),
        ));
    };
    let active = active.clone();
    RequestStateCodec::new_with_keyring(active, keys)
        .map_err(|error| KeyringError(format!("the state keyring is not usable: {error}")))
}

/// The codec for the keyring in the environment variable `var` (see [`STATE_KEYS_VAR`]), or
/// `None` when it is not set.
pub fn state_keys_from_env(var: &str) -> Result<Option<RequestStateCodec>, KeyringError> {
    match std::env::var(var) {
        Ok(text) => state_keys(&text).map(Some),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => {
            Err(KeyringError(format!("{var} is not valid UTF-8")))
        }
    }
}

/// The codec for the keyring in the file at `path`.
pub fn state_keys_from_file(
    path: impl AsRef<std::path::Path>,
) -> Result<RequestStateCodec, KeyringError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .map_err(|error| KeyringError(format!("cannot read {}: {error}", path.display())))?;
    state_keys(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "old=0123456789abcdef0123456789abcdef";
    const NEW: &str = "new=fedcba9876543210fedcba9876543210";

    #[test]
    fn the_first_key_signs_and_every_key_opens() {
        let before = state_keys(OLD).expect("a keyring");
        let sealed = before.seal(b"state");
        let rotated = state_keys(&format!("{NEW}\n{OLD}")).expect("a keyring");
        assert_eq!(rotated.open(&sealed).ok().as_deref(), Some(&b"state"[..]));
        let fresh = rotated.seal(b"state");
        assert!(
            before.open(&fresh).is_err(),
            "the old replica lacks the new key"
        );
        let dropped = state_keys(NEW).expect("a keyring");
        assert!(
            dropped.open(&sealed).is_err(),
            "a dropped key no longer opens"
        );
        let mut tampered = fresh.clone();
        tampered.pop();
        tampered.push(if fresh.ends_with('A') { 'B' } else { 'A' });
        assert!(rotated.open(&tampered).is_err());
    }

    #[test]
    fn bad_keyrings_are_explained() {
        for (text, says) in [
            ("", "empty"),
            ("k1", "ID=SECRET"),
            ("k1=short", "at least 32 bytes"),
        ] {
            let error = state_keys(text)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(error.contains(says), "{text:?}: {error}");
        }
    }
}
