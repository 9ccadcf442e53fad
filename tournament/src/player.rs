//! Player names: the identity that links draws, reports and standings.

use std::borrow::Borrow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Longest name accepted; a badge name, not an essay.
pub const MAX_NAME_CHARS: usize = 100;

/// A player's name as the event knows it: trimmed, non-empty, without control characters.
/// Names compare exactly (case matters), because two entrants may differ only by case.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerName(String);

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a player name is empty")]
    Empty,
    #[error("player name {:?} contains a control character", preview(.0))]
    Control(String),
    #[error("player name {:?} is longer than {MAX_NAME_CHARS} characters", preview(.0))]
    TooLong(String),
}

/// The start of a refused name, enough to recognise it: a message never repeats a whole
/// 100 KB paste back to whoever sent it.
fn preview(name: &str) -> String {
    const SHOWN: usize = 40;
    if name.chars().count() <= SHOWN {
        name.to_owned()
    } else {
        name.chars().take(SHOWN).chain(['…']).collect()
    }
}

impl PlayerName {
    pub fn parse(text: &str) -> Result<PlayerName, NameError> {
        let name = text.trim();
        if name.is_empty() {
            return Err(NameError::Empty);
        }
        if name.chars().any(char::is_control) {
            return Err(NameError::Control(name.to_owned()));
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(NameError::TooLong(name.to_owned()));
        }
        Ok(PlayerName(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Borrow<str> for PlayerName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for PlayerName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Serialize for PlayerName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for PlayerName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        PlayerName::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(PlayerName::parse("  Alice \r").unwrap().as_str(), "Alice");
        assert_eq!(PlayerName::parse(" \t"), Err(NameError::Empty));
        assert!(matches!(
            PlayerName::parse("a\u{7}b"),
            Err(NameError::Control(_))
        ));
        assert!(matches!(
            PlayerName::parse(&"x".repeat(101)),
            Err(NameError::TooLong(_))
        ));
        assert!(PlayerName::parse(&"é".repeat(100)).is_ok());
    }

    #[test]
    fn a_refused_name_is_not_repeated_whole() {
        let message = PlayerName::parse(&"x".repeat(100_000))
            .unwrap_err()
            .to_string();
        assert!(message.len() < 120, "{message}");
        assert!(message.contains("xxx…"), "{message}");
    }
}
