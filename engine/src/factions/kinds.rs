//! Kinds of force: what one token of a faction is worth, by that faction's chapter.
//!
//! Every faction has twenty tokens (glossary "Force"). Most are plain forces; some factions
//! have a second kind printed on some of them (starred: the Sardaukar 2.03.08, the Fedaykin
//! 2.04.18, the Ixians' Cyborgs 000 2.07.09, whose plain forces are Suboids 2.07.14), and some
//! tokens have a second side (the Bene Gesserit's advisors 2.02.10; the Free Traders' Smugglers
//! 000 2.13). The state keeps a count per kind on every territory piece, in reserve and in the
//! tanks ([`crate::state::Stack`], [`crate::state::Forces`]); a faction's [`ForceKinds`], in its
//! sheet, says what each kind is worth, and the phases read it from there:
//!
//! - the battle wheel ([`crate::battle::wheel`]): [`KindRules::worth`], [`KindRules::spiced`],
//!   [`KindRules::versus`];
//! - revival ([`KindRules::revival`]), movement ([`KindRules::moves`]) and collection
//!   ([`KindRules::collects`]);
//! - who occupies, fights and controls ([`KindRules::fights`]).
//!
//! Losses are tokens: the winner loses the tokens it dialled, whatever they are worth (ruling
//! 26), so a kind "worth two in taking losses" (the Cyborgs, 2.07.09) is lost as the one token
//! dialled, and a kind needs no separate loss value.

use dune::{Faction, Rule, rule};

/// Which of a faction's tokens: the plain side, the starred ones, or a token turned to its
/// second side. The three slots of [`crate::state::Stack`]: `normal`, `starred`, `advisors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ForceKind {
    /// Plain forces (the Ixians' Suboids; the Bene Gesserit's fighters).
    Plain,
    /// Forces printed with a star (Sardaukar, Fedaykin, Cyborgs).
    Starred,
    /// A two-sided token turned to its second side (advisors; Smugglers).
    Flipped,
}

impl ForceKind {
    pub const ALL: [ForceKind; 3] = [ForceKind::Plain, ForceKind::Starred, ForceKind::Flipped];
}

/// What a kind's value is about, for citing the rule that sets it (a faction may state each in
/// its own rule: the Cyborgs' revival 000 2.07.10, movement 2.07.12, collection 2.07.13;
/// `FactionRules::cite`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    Worth,
    Revival,
    Moves,
    Collects,
}

/// What one token of a kind is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindRules {
    /// What judges call one token ("force", "Sardaukar", "Cyborg", "advisor").
    pub name: &'static str,
    /// Strength on the battle wheel in half points (2 = one force, 1.07.04.01): in the Basic
    /// game, and in the Advanced game when supported by spice (1.13.04).
    pub worth: u8,
    /// In the Advanced game a token not supported by spice counts half its worth
    /// (1.13.04.01). `false`: spice changes nothing (Battle Hardened 2.04.21: always full;
    /// the Suboids 000 2.07.23: always half).
    pub spiced: bool,
    /// Worth against one opponent when the faction's rule says so (the Sardaukar count one
    /// force against the Fremen, 2.03.09): the opponent, the worth in half points, the rule.
    pub versus: Option<(Faction, u8, Rule)>,
    /// Spice to revive one token beyond the free revivals (1.05.01.02: 2).
    pub revival: u8,
    /// Territories a group of only this kind moves without ornithopters (1.06.05.03: 1).
    pub moves: u8,
    /// Spice one token collects outside Arrakeen and Carthag (1.08.03: 2).
    pub collects: u8,
    /// Occupies, fights, collects and controls (advisors do none of it, 2.02.12).
    pub fights: bool,
    /// The kind exists only in the Advanced game (1.13.00: the Sardaukar and the Fedaykin are
    /// Advanced abilities); in the Basic game those tokens are plain forces.
    pub advanced_only: bool,
    /// The rule that gives the kind what differs from a plain force.
    pub rule: Rule,
}

impl KindRules {
    /// A plain force: one on the wheel, halved unspiced, 2 to revive, one territory, 2 spice.
    pub const FORCE: KindRules = KindRules {
        name: "force",
        worth: 2,
        spiced: true,
        versus: None,
        revival: 2,
        moves: 1,
        collects: 2,
        fights: true,
        advanced_only: false,
        rule: rule!("1.07.04.01"),
    };

    /// Worth on the wheel against `opponent`, in half points, supported or not.
    pub fn worth_against(&self, opponent: Faction) -> u8 {
        match self.versus {
            Some((g, w, _)) if g == opponent => w,
            _ => self.worth,
        }
    }
}

/// A faction's kinds of force: the plain kind, the starred one with how many tokens carry the
/// star, and the second side of two-sided tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForceKinds {
    pub plain: KindRules,
    /// The starred kind and how many of the twenty tokens are starred.
    pub starred: Option<(u8, KindRules)>,
    /// The second side of the faction's tokens, when they have one.
    pub flipped: Option<KindRules>,
}

impl ForceKinds {
    /// Twenty plain forces.
    pub const PLAIN: ForceKinds = ForceKinds {
        plain: KindRules::FORCE,
        starred: None,
        flipped: None,
    };

    /// The rules of one kind; a kind the faction does not have is a plain force.
    pub fn of(&self, kind: ForceKind) -> &KindRules {
        match kind {
            ForceKind::Plain => &self.plain,
            ForceKind::Starred => self.starred.as_ref().map_or(&self.plain, |(_, k)| k),
            ForceKind::Flipped => self.flipped.as_ref().unwrap_or(&self.plain),
        }
    }

    /// Starred tokens among the twenty in this game (none in the Basic game for an Advanced
    /// kind).
    pub fn starred_count(&self, advanced: bool) -> u8 {
        match self.starred {
            Some((n, k)) if advanced || !k.advanced_only => n,
            _ => 0,
        }
    }

    /// The rules of the starred kind in this game: `None` when the faction has none, or in the
    /// Basic game for an Advanced kind (the tokens are plain forces there).
    pub fn starred_in(&self, advanced: bool) -> Option<&KindRules> {
        self.starred
            .as_ref()
            .filter(|(_, k)| advanced || !k.advanced_only)
            .map(|(_, k)| k)
    }

    /// The faction's tokens have a second side (advisors, Smugglers).
    pub fn two_sided(&self) -> bool {
        self.flipped.is_some()
    }
}
