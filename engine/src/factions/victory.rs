//! The order in which the Mentat Pause checks every victory of the rulebooks (1.09, rulings.md
//! 7), in one place: [`ORDER`]. Each faction's own check is its hook
//! ([`super::FactionRules::special_victory`]), called here at its place and nowhere else, so a
//! faction added later plugs its special victory in by adding one line to the table.
//!
//! The order, every Mentat Pause:
//! 1. the Bene Gesserit prediction (2.02.03): the predicted faction only has to *qualify* for a
//!    stronghold victory in the predicted turn, so it is checked first (ruling 7);
//! 2. the stronghold victory (1.09.02), the first qualifier in storm order winning (1.09.03,
//!    4.01.13). The factions' rules change what counts here, not when: a stronghold Ecaz and its
//!    ally share (000 2.11.20 original), the Ecaz alliance's three co-occupied strongholds (000
//!    2.11.21 original) — see [`super::FactionRules::controls_shared`] and
//!    [`super::FactionRules::stronghold_requirement`];
//!
//! and at the end of the last turn, when nobody has won (1.09.05):
//! 3. the Fremen special victory (2.04.09; with their ally, 2.04.12), checked before the Guild's
//!    since both fire when nobody has won (ruling 7); the factions it names in Tuek's Sietch
//!    include those whose own chapter adds themselves (Richese, 000 2.10.18:
//!    [`super::FactionRules::bars_special_victory`]); without the Guild the Fremen win by default;
//! 4. the Spacing Guild special victory (2.06.08; with their ally, 2.06.11);
//! 5. the End Game victory: the most strongholds occupied (1.09.05).

use dune::{Faction, WinType};

use crate::replay::{Replay, WinResult};

/// When a step of [`ORDER`] is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moment {
    /// At every Mentat Pause, before the stronghold victory.
    BeforeStronghold,
    /// At the end of the last turn, when nobody has won (1.09.05).
    AtEnd,
}

/// One step of the Mentat Pause's victory check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A faction's own victory, checked only when it plays.
    Special(Faction, Moment),
    /// The stronghold victory (1.09.02-1.09.03), with every faction's changes to control and
    /// to the requirement.
    Stronghold,
    /// The End Game victory (1.09.05): the most strongholds occupied, all who tie.
    EndGame,
}

/// Ruling 7's order, with every faction of the full rulebook that has a victory of its own. A
/// faction with a special victory adds its line at its place (and its hook,
/// `FactionRules::special_victory`).
pub(crate) const ORDER: &[Step] = &[
    // 2.02.03: before the stronghold victory.
    Step::Special(Faction::BeneGesserit, Moment::BeforeStronghold),
    // 1.09.02-1.09.03 (Ecaz 000 2.11.20-2.11.21 original: control and requirement hooks).
    Step::Stronghold,
    // 2.04.09 (2.04.12, 4.01.19; Richese 000 2.10.18), or the Fremen's default victory
    // without the Guild (1.09.05).
    Step::Special(Faction::Fremen, Moment::AtEnd),
    // 2.06.08 (2.06.11).
    Step::Special(Faction::SpacingGuild, Moment::AtEnd),
    // 1.09.05.
    Step::EndGame,
];

/// What a faction's victory check may ask.
pub(crate) struct VictoryCheck<'a> {
    /// Does this faction meet the stronghold requirement now, alone or allied (with every
    /// faction's changes to control and requirement)?
    pub qualifies: &'a dyn Fn(Faction) -> bool,
}

impl Replay {
    /// The winner of this Mentat Pause, if any: [`ORDER`] walked top to bottom.
    pub(crate) fn victory_in_order(
        &self,
        control: &[(dune::Stronghold, Faction)],
    ) -> Option<WinResult> {
        let last_turn = self.st.turn >= self.st.options.max_turns;
        let qualifies = |f: Faction| self.meets_stronghold_requirement(f, control);
        for step in ORDER {
            match *step {
                Step::Special(f, moment) => {
                    if !self.st.plays(f) || (moment == Moment::AtEnd && !last_turn) {
                        continue;
                    }
                    debug_assert!(super::rules(f).has_special_victory(), "{f}");
                    let check = VictoryCheck {
                        qualifies: &qualifies,
                    };
                    if let Some(w) = super::rules(f).special_victory(self, &check) {
                        return Some(w);
                    }
                }
                Step::Stronghold => {
                    if let Some(first) = self.stronghold_qualifiers(control).into_iter().next() {
                        return Some(first);
                    }
                }
                Step::EndGame if last_turn => return Some(self.end_game_victory()),
                Step::EndGame => {}
            }
        }
        None
    }

    /// 1.09.05: the most strongholds occupied wins, all who tie; Solo or Allied in the full
    /// format (rulings.md 7).
    fn end_game_victory(&self) -> WinResult {
        let occupied = |f: Faction| {
            dune::Stronghold::ALL
                .iter()
                .filter(|&&s| s != dune::Stronghold::ShieldWall && self.st.occupies(f, s))
                .count()
        };
        let best = self.st.in_play.iter().map(occupied).max().unwrap_or(0);
        let factions: Vec<Faction> = self
            .st
            .in_play
            .iter()
            .filter(|&f| occupied(f) == best)
            .collect();
        let allied = factions
            .iter()
            .any(|&f| self.st.ally(f).is_some_and(|a| factions.contains(&a)));
        WinResult {
            factions,
            kind: self.st.options.ruleset.end_game(allied),
            turn: self.st.turn,
        }
    }
}

/// The win types each step can give, for the derived report and the pages: every kind of
/// victory the Mentat Pause decides, by the step that decides it.
pub fn win_types() -> Vec<(&'static str, Vec<WinType>)> {
    vec![
        (
            "Bene Gesserit prediction (2.02.03)",
            vec![WinType::BgPrediction],
        ),
        (
            "stronghold victory (1.09.02; Ecaz's three co-occupied strongholds, 000 2.11.21 original)",
            vec![WinType::SoloStronghold, WinType::AlliedStronghold],
        ),
        (
            "Fremen special victory (2.04.09), or their default victory without the Guild (1.09.05)",
            vec![
                WinType::SoloFremenSpecial,
                WinType::AlliedFremenSpecial,
                WinType::SoloDefault,
                WinType::AlliedDefault,
            ],
        ),
        (
            "Spacing Guild special victory (2.06.08)",
            vec![WinType::SoloDefault, WinType::AlliedDefault],
        ),
        (
            "End Game victory (1.09.05)",
            vec![
                WinType::EndGame,
                WinType::SoloEndGame,
                WinType::AlliedEndGame,
            ],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prediction_comes_first_and_the_end_game_last() {
        assert_eq!(
            ORDER.first(),
            Some(&Step::Special(
                Faction::BeneGesserit,
                Moment::BeforeStronghold
            ))
        );
        assert_eq!(ORDER.last(), Some(&Step::EndGame));
        let at = |s: Step| ORDER.iter().position(|&x| x == s);
        // Ruling 7: the Fremen's before the Guild's, both after the stronghold victory.
        assert!(at(Step::Stronghold) < at(Step::Special(Faction::Fremen, Moment::AtEnd)));
        assert!(
            at(Step::Special(Faction::Fremen, Moment::AtEnd))
                < at(Step::Special(Faction::SpacingGuild, Moment::AtEnd))
        );
    }

    #[test]
    fn every_faction_in_the_order_has_a_victory_of_its_own() {
        for step in ORDER {
            if let Step::Special(f, _) = step {
                assert!(
                    super::super::rules(*f).has_special_victory(),
                    "{f} is in the victory order without a special victory"
                );
            }
        }
        // And every faction with a special victory is in the order.
        for f in Faction::ALL {
            if super::super::rules(f).has_special_victory() {
                assert!(
                    ORDER
                        .iter()
                        .any(|s| matches!(s, Step::Special(g, _) if *g == f)),
                    "{f} has a special victory the Mentat Pause never checks"
                );
            }
        }
    }

    #[test]
    fn every_win_type_of_both_points_lists_but_adjudication_is_decided_here() {
        let listed: Vec<WinType> = win_types().into_iter().flat_map(|(_, v)| v).collect();
        for w in WinType::ALL {
            assert_eq!(listed.contains(&w), w != WinType::Adjudicated, "{w:?}");
        }
    }
}
