//! Tokens that lie on the board and act later: Ecaz's ambassadors (000 2.11) and Moritani's
//! terror tokens (000 2.12).
//!
//! Both are modelled once, as a [`Token`]: a kind, an owner, a place and a face. The replay moves
//! them (`crate::factions::ecaz`, `crate::factions::moritani`), the per-turn summary shows the
//! ones on the board to a page ([`TokenView`]), and a face-down token's kind is shown only to a
//! judge replaying the audited log: an observer (public mode) sees that a token lies there, not
//! which one.

use std::fmt;

use dune::Faction;

use crate::board::{Piece, Sector, Territory};

/// Moritani's terror tokens (000 2.12.13), by their symbol. The original and revised texts name
/// two of them differently and give some of them other effects (see `factions::moritani`); the
/// token is the same piece of cardboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Terror {
    /// Spiked hexagon: Assassination (original), Hostage (revised) (2.12.13.01).
    Assassination,
    /// Mushroom cloud (2.12.13.02).
    Atomics,
    /// Dagger with a spice symbol (2.12.13.03).
    Extortion,
    /// Hand with spice and treachery symbols (2.12.13.04).
    Robbery,
    /// Cracked gear (2.12.13.05).
    Sabotage,
    /// Two ornithopters: Sneak Attack (original), Ambush (revised) (2.12.13.06).
    SneakAttack,
    /// Silhouette: Duke Vidal (revised only, 2.12.13.07).
    DukeVidal,
}

impl Terror {
    /// The six tokens of the original text, then the seventh of the revised one (2.12.05).
    pub const ALL: [Terror; 7] = [
        Terror::Assassination,
        Terror::Atomics,
        Terror::Extortion,
        Terror::Robbery,
        Terror::Sabotage,
        Terror::SneakAttack,
        Terror::DukeVidal,
    ];

    /// The DGN name (`Assassination`, `SneakAttack`, …).
    pub fn code(self) -> &'static str {
        match self {
            Terror::Assassination => "Assassination",
            Terror::Atomics => "Atomics",
            Terror::Extortion => "Extortion",
            Terror::Robbery => "Robbery",
            Terror::Sabotage => "Sabotage",
            Terror::SneakAttack => "SneakAttack",
            Terror::DukeVidal => "DukeVidal",
        }
    }

    /// Reads a DGN name; the revised text's names (`Hostage`, `Ambush`) name the same tokens.
    pub fn from_code(code: &str) -> Option<Terror> {
        match code {
            "Hostage" => Some(Terror::Assassination),
            "Ambush" => Some(Terror::SneakAttack),
            _ => Terror::ALL.into_iter().find(|t| t.code() == code),
        }
    }

    /// The rule that states the token's effect (000 2.12.13.xx).
    pub fn rule(self) -> dune::Rule {
        match self {
            Terror::Assassination => dune::rule!("2.12.13.01"),
            Terror::Atomics => dune::rule!("2.12.13.02"),
            Terror::Extortion => dune::rule!("2.12.13.03"),
            Terror::Robbery => dune::rule!("2.12.13.04"),
            Terror::Sabotage => dune::rule!("2.12.13.05"),
            Terror::SneakAttack => dune::rule!("2.12.13.06"),
            Terror::DukeVidal => dune::rule!("2.12.13.07"),
        }
    }
}

impl fmt::Display for Terror {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// An Ecaz ambassador showing a faction's symbol (2.11.16).
    Ambassador(Faction),
    /// A terror token; `None` when the log does not say which (it is placed face down, and a
    /// published log seals it).
    Terror(Option<Terror>),
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenKind::Ambassador(x) => write!(f, "the {x} ambassador"),
            TokenKind::Terror(Some(t)) => write!(f, "the {t} terror token"),
            TokenKind::Terror(None) => f.write_str("a terror token"),
        }
    }
}

/// Where a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenPlace {
    /// On the map, in one territory piece.
    Board(Piece),
    /// The owner's supply: Ecaz's ambassadors ready to be placed (face up in front of its shield,
    /// 2.11.03), Moritani's terror tokens behind its shield (2.12.05).
    Supply,
    /// Face up in front of the owner's shield: a revealed terror token (Aftermath, 2.12.09).
    Front,
    /// Ecaz's unused ambassadors, face down beside its shield (2.11.03 original).
    Unused,
    /// Used and set aside until the supply is renewed (2.11.07 original) or for good (the
    /// revised Atomics, 2.12.13.02).
    SetAside,
    /// Out of the game (the Bene Gesserit ambassador once used, 2.11.16.02 original).
    Removed,
    /// Counted among the owner's reserves for the shipment about to carry it (a revised Ecaz
    /// ambassador, 2.11.05 revised).
    Reserves,
}

/// A token: what it is, whose it is, where it lies and which face is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    pub kind: TokenKind,
    pub owner: Faction,
    pub place: TokenPlace,
    pub face_up: bool,
}

impl Token {
    /// The territory of a token on the board.
    pub fn territory(&self) -> Option<Territory> {
        match self.place {
            TokenPlace::Board(p) => Some(p.territory()),
            _ => None,
        }
    }

    pub fn is_ambassador(&self) -> bool {
        matches!(self.kind, TokenKind::Ambassador(_))
    }

    pub fn is_terror(&self) -> bool {
        matches!(self.kind, TokenKind::Terror(_))
    }

    /// What an observer may know of the token: its kind when it is face up or `audit` (a judge
    /// reading the sealed log).
    pub fn view(&self, audit: bool) -> Option<TokenView> {
        let TokenPlace::Board(p) = self.place else {
            return None;
        };
        Some(TokenView {
            owner: self.owner,
            territory: p.territory(),
            sector: p.sector(),
            face_up: self.face_up,
            kind: (self.face_up || audit).then_some(self.kind),
        })
    }
}

/// A token on the board as a page shows it: face down ones without their kind unless the log
/// is audited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenView {
    pub owner: Faction,
    pub territory: Territory,
    pub sector: Option<Sector>,
    pub face_up: bool,
    /// `None` for a face-down token an observer cannot identify.
    pub kind: Option<TokenKind>,
}

impl serde::Serialize for TokenView {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("TokenView", 6)?;
        st.serialize_field("owner", &self.owner)?;
        let (kind, of) = match self.kind {
            Some(TokenKind::Ambassador(f)) => ("ambassador", Some(f.code().to_string())),
            Some(TokenKind::Terror(t)) => ("terror", t.map(|t| t.code().to_string())),
            None if self.owner == Faction::Ecaz => ("ambassador", None),
            None => ("terror", None),
        };
        st.serialize_field("kind", kind)?;
        st.serialize_field("of", &of)?;
        st.serialize_field("territory", &self.territory)?;
        st.serialize_field("sector", &self.sector)?;
        st.serialize_field("face_up", &self.face_up)?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terror_names_of_both_texts_read() {
        assert_eq!(Terror::from_code("Hostage"), Some(Terror::Assassination));
        assert_eq!(Terror::from_code("Ambush"), Some(Terror::SneakAttack));
        assert_eq!(Terror::from_code("Atomics"), Some(Terror::Atomics));
        assert_eq!(Terror::from_code("Nope"), None);
        for t in Terror::ALL {
            assert_eq!(Terror::from_code(t.code()), Some(t));
        }
    }

    #[test]
    fn a_face_down_token_hides_its_kind_from_observers() {
        let p = Territory::Arrakeen.pieces()[0];
        let t = Token {
            kind: TokenKind::Terror(Some(Terror::Atomics)),
            owner: Faction::Moritani,
            place: TokenPlace::Board(p),
            face_up: false,
        };
        assert_eq!(t.view(false).and_then(|v| v.kind), None);
        assert_eq!(
            t.view(true).and_then(|v| v.kind),
            Some(TokenKind::Terror(Some(Terror::Atomics)))
        );
        let json = serde_json::to_string(&t.view(false)).unwrap();
        assert!(json.contains("\"kind\":\"terror\""), "{json}");
        assert!(json.contains("\"of\":null"), "{json}");
        let off = Token {
            place: TokenPlace::Supply,
            ..t
        };
        assert!(off.view(true).is_none());
    }
}
