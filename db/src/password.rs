//! Passwords: argon2id through the password-hash API, always off the async runtime.

use std::{fmt, sync::OnceLock};

use argon2::{
    Argon2,
    password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng},
};

/// A password as typed. It has no `Display`, and its `Debug` hides it, so it cannot reach a log
/// by accident.
#[derive(Clone)]
pub struct Password(String);

pub const MIN_LEN: usize = 10;
pub const MAX_LEN: usize = 256;

impl Password {
    /// Any text, for checking a sign-in; length rules apply only to new passwords.
    pub fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// A password someone is choosing: long enough to resist guessing, short enough to hash fast.
    pub fn new_choice(text: impl Into<String>) -> Result<Self, String> {
        let text = text.into();
        let chars = text.chars().count();
        if chars < MIN_LEN {
            return Err(format!(
                "Choose a password of at least {MIN_LEN} characters."
            ));
        }
        if chars > MAX_LEN {
            return Err(format!(
                "Choose a password of at most {MAX_LEN} characters."
            ));
        }
        Ok(Self(text))
    }

    fn expose(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(<hidden>)")
    }
}

/// Hashes on the blocking pool: argon2 takes tens of milliseconds of CPU by design.
pub async fn hash(password: Password) -> Result<String, PasswordError> {
    tokio::task::spawn_blocking(move || hash_blocking(&password))
        .await
        .map_err(|_| PasswordError::Internal)?
}

fn hash_blocking(password: &Password) -> Result<String, PasswordError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.expose(), &salt)
        .map(|h| h.to_string())
        .map_err(|_| PasswordError::Internal)
}

/// Verifies against a stored hash, or against a fixed dummy when the account does not exist, so
/// the answer takes as long either way and timing does not reveal who has an account.
pub async fn verify(password: Password, stored: Option<String>) -> Result<bool, PasswordError> {
    tokio::task::spawn_blocking(move || {
        let (phc, real) = match stored {
            Some(phc) => (phc, true),
            None => (dummy_hash().to_owned(), false),
        };
        let parsed = PasswordHash::new(&phc).map_err(|_| PasswordError::Internal)?;
        let ok = Argon2::default()
            .verify_password(password.expose(), &parsed)
            .is_ok();
        Ok(ok && real)
    })
    .await
    .map_err(|_| PasswordError::Internal)?
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        hash_blocking(&Password::new("mentat dummy password, never valid"))
            .unwrap_or_else(|_| String::new())
    })
}

#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error("the password could not be processed; try again")]
    Internal,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let phc = hash(Password::new("correct horse battery"))
            .await
            .expect("hash");
        assert!(phc.starts_with("$argon2id$"));
        assert!(
            verify(Password::new("correct horse battery"), Some(phc.clone()))
                .await
                .expect("verify")
        );
        assert!(
            !verify(Password::new("wrong horse battery"), Some(phc))
                .await
                .expect("verify")
        );
    }

    #[tokio::test]
    async fn an_unknown_account_never_verifies() {
        assert!(
            !verify(Password::new("mentat dummy password, never valid"), None)
                .await
                .expect("verify")
        );
    }

    #[test]
    fn debug_hides_the_password_and_choices_are_checked() {
        assert_eq!(
            format!("{:?}", Password::new("hunter2hunter2")),
            "Password(<hidden>)"
        );
        assert!(Password::new_choice("short").is_err());
        assert!(Password::new_choice("long enough now").is_ok());
    }
}
