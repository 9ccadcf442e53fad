//! The head judge's choices where the rulebook is silent (rulings.md). Each is stored with the
//! event and with every report that depends on it; the defaults are the listed rulings.

use serde::{Deserialize, Serialize};

/// Ruling options for one event. Serialises to a JSON object with every field; reading one
/// fills missing fields with the defaults and refuses unknown fields (a misspelt option must not
/// silently fall back to its default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RulingOptions {
    /// Ruling 1: what to do when the player count has no split into tables of 6 and 5.
    pub table_fallback: TableFallback,
    /// Ruling 2: the empty player circle at a 5-player table (circles 0-5 counterclockwise
    /// from the Storm Start sector; circle 1 is next to Tuek's Sietch).
    pub five_player_empty_circle: u8,
    /// Ruling 9: what an adjudication tie that survives every category gives.
    pub adjudication_deadlock: AdjudicationDeadlock,
    /// Ruling 13: finals seats.
    pub finals_seats: usize,
    /// How the final table is seated (ruling 13; the rulebooks are silent). Written only when
    /// it is not the default, so reports and files from before the setting read the same.
    #[serde(skip_serializing_if = "FinalSeating::is_default")]
    pub final_seating: FinalSeating,
    /// A test event's rehearsal clock: every table's limit is this many minutes instead of an
    /// hour per player (4.01.08), so a clock can be seen to run out before the real day.
    /// Written only when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rehearsal_minutes: Option<u16>,
    /// The Shield Wall variant (4.02, 4.01.12): the Shield Wall counts as a stronghold once the
    /// fourth worm has appeared. On by default, as the GenCon rulebook plays; off, the map has
    /// one stronghold fewer. Written only when off, so earlier reports and files read the same.
    #[serde(skip_serializing_if = "is_true")]
    pub shield_wall: bool,
}

fn is_true(value: &bool) -> bool {
    *value
}

impl Default for RulingOptions {
    fn default() -> Self {
        RulingOptions {
            table_fallback: TableFallback::Ask,
            five_player_empty_circle: 0,
            adjudication_deadlock: AdjudicationDeadlock::AllSurvivors,
            finals_seats: 6,
            final_seating: FinalSeating::Drawn,
            shield_wall: true,
            rehearsal_minutes: None,
        }
    }
}

impl RulingOptions {
    /// The strongholds a faction can control at the end of a game under `ruleset`: the map's
    /// five, the Shield Wall when its variant is played (4.02), and the full rulebook's extra
    /// ones (`Ruleset::stronghold_count`).
    pub fn strongholds(&self, ruleset: crate::Ruleset) -> u32 {
        ruleset.stronghold_count() - u32::from(!self.shield_wall)
    }

    /// Checks the values serde cannot: the circle must exist, and it cannot be circle 1,
    /// where 0.07 puts seat 1.
    pub fn check(&self) -> Result<(), OptionsError> {
        if let Some(minutes) = self.rehearsal_minutes
            && !(1..=MAX_REHEARSAL_MINUTES).contains(&minutes)
        {
            return Err(OptionsError::RehearsalMinutes(minutes));
        }
        match self.five_player_empty_circle {
            0 | 2..=5 => Ok(()),
            c => Err(OptionsError::EmptyCircle(c)),
        }
    }

    /// A rehearsal's limit for every table, if the event is a test event with a short clock.
    pub fn rehearsal_ms(&self) -> Option<i64> {
        self.rehearsal_minutes.map(|m| i64::from(m) * 60_000)
    }
}

/// Ruling 1's three ways out when 4.01.01 cannot be met, or `Ask` (the default): refuse and show
/// all three, so the head judge decides and nothing is chosen silently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableFallback {
    #[default]
    Ask,
    /// Alternates fill seats up to the next count that splits; the judge adds them by name.
    Alternates,
    /// Allow 4-player tables: as few as possible, then as many sixes as possible.
    FourPlayerTables,
    /// Players the head judge picks sit the round out (0 points, no game).
    Byes,
}

/// How the finalists take their places at the final table. The rulebooks do not say; the
/// event decides (ruling 13 leaves the finals to the event).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalSeating {
    /// Seats drawn (0.07) and factions dealt (0.08) as in every round.
    #[default]
    Drawn,
    /// The finalists choose in qualifying order: the best qualifier first. Mentat seats them in
    /// that order (the head judge records another choice of seat by a swap before play begins)
    /// and leaves the factions to be picked at the table, in the same order, and reported.
    QualifyingOrder,
}

impl FinalSeating {
    pub fn is_default(&self) -> bool {
        *self == FinalSeating::default()
    }
}

/// Ruling 9's last step, when candidates from different alliances are still tied after the
/// sixth category of 4.01.09.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdjudicationDeadlock {
    /// Every survivor and their allies get an Adjudicated victory.
    #[default]
    AllSurvivors,
    /// The head judge draws one survivor; the report records the draw.
    JudgeDraw,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error(
        "five_player_empty_circle = {0}: the circles are 0-5 and circle 1 holds seat 1 (0.07, ruling 2)"
    )]
    EmptyCircle(u8),
    #[error(
        "rehearsal_minutes = {0}: a rehearsal clock runs 1 to 120 minutes per table (or leave it empty)"
    )]
    RehearsalMinutes(u16),
}

/// The longest rehearsal clock: two hours, still shorter than any real table's limit.
pub const MAX_REHEARSAL_MINUTES: u16 = 120;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_listed_rulings_and_round_trip() {
        let o = RulingOptions::default();
        assert_eq!(o.finals_seats, 6);
        assert_eq!(o.five_player_empty_circle, 0);
        let json = serde_json::to_string(&o).unwrap();
        assert_eq!(
            json,
            r#"{"table_fallback":"ask","five_player_empty_circle":0,"adjudication_deadlock":"all_survivors","finals_seats":6}"#
        );
        let back: RulingOptions = serde_json::from_str(&json).unwrap();
        assert_eq!(back, o);
        let partial: RulingOptions = serde_json::from_str(r#"{"finals_seats":5}"#).unwrap();
        assert_eq!(partial.finals_seats, 5);
        assert_eq!(partial.final_seating, FinalSeating::Drawn);
        let chosen = RulingOptions {
            final_seating: FinalSeating::QualifyingOrder,
            ..RulingOptions::default()
        };
        let json = serde_json::to_string(&chosen).unwrap();
        assert!(
            json.ends_with(r#""final_seating":"qualifying_order"}"#),
            "{json}"
        );
        assert_eq!(
            serde_json::from_str::<RulingOptions>(&json).unwrap(),
            chosen
        );
        assert!(serde_json::from_str::<RulingOptions>(r#"{"finals":5}"#).is_err());
        let no_wall: RulingOptions = serde_json::from_str(r#"{"shield_wall":false}"#).unwrap();
        assert!(!no_wall.shield_wall && o.shield_wall);
        assert_eq!(no_wall.strongholds(crate::Ruleset::Gc2133), 5);
        assert_eq!(o.strongholds(crate::Ruleset::Gc2133), 6);
        assert!(
            serde_json::to_string(&no_wall)
                .unwrap()
                .ends_with(r#""shield_wall":false}"#)
        );
        let rehearsal: RulingOptions = serde_json::from_str(r#"{"rehearsal_minutes":3}"#).unwrap();
        assert_eq!(rehearsal.rehearsal_ms(), Some(180_000));
        assert!(rehearsal.check().is_ok());
        assert!(
            RulingOptions {
                rehearsal_minutes: Some(0),
                ..RulingOptions::default()
            }
            .check()
            .is_err()
        );
        assert!(
            RulingOptions {
                five_player_empty_circle: 1,
                ..o.clone()
            }
            .check()
            .is_err()
        );
        assert!(
            RulingOptions {
                five_player_empty_circle: 6,
                ..o
            }
            .check()
            .is_err()
        );
    }
}
