//! The final table (ruling 13) as the pages show it: drawing it from the finals page, and the
//! event's placings once its report is final (`tournament::finals::placings`).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, pool, require_staff},
};

/// The final table's state for the finals page, the standings, the projector and a player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalTableView {
    /// The round the final table is stored as: its page is `/events/{slug}/rounds/{round}`.
    pub round: i32,
    pub begun: bool,
    pub reported: bool,
    /// Empty until the final report is final.
    pub placings: Vec<PlacingView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacingView {
    pub place: usize,
    pub player: String,
    pub player_id: i64,
    pub at_final: bool,
    /// The final game's win, in words, for those who won it.
    pub result: Option<String>,
    pub qualified: usize,
}

impl PlacingView {
    /// Why the player holds this place, in words.
    pub fn basis(&self) -> String {
        match (&self.result, self.at_final) {
            (Some(win), _) => format!("won the final: {win}"),
            (None, true) => format!("final table; {} in qualifying", ordinal(self.qualified)),
            (None, false) => format!("{} in qualifying", ordinal(self.qualified)),
        }
    }
}

impl FinalTableView {
    /// The players of the final game, in their final places.
    pub fn finalists(&self) -> impl Iterator<Item = &PlacingView> {
        self.placings.iter().filter(|p| p.at_final)
    }

    pub fn placing_of(&self, player_id: i64) -> Option<&PlacingView> {
        self.placings.iter().find(|p| p.player_id == player_id)
    }
}

/// 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(feature = "ssr")]
impl From<&db::results::standings::FinalTable> for FinalTableView {
    fn from(t: &db::results::standings::FinalTable) -> Self {
        FinalTableView {
            round: t.round.get(),
            begun: t.begun,
            reported: t.reported,
            placings: t
                .placings
                .iter()
                .map(|p| PlacingView {
                    place: p.place,
                    player: p.player.clone(),
                    player_id: p.player_id.get(),
                    at_final: p.at_final,
                    result: p.result.map(str::to_owned),
                    qualified: p.qualified,
                })
                .collect(),
        }
    }
}

/// The head judge seats the finalists at the final table, then lands on its page.
#[server]
pub async fn draw_final_table(
    slug: String,
    #[server(default)] seed: String,
) -> Result<i32, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    let seed = answer(crate::rounds::parse_seed(Some(&seed)))?;
    let number = answer(db::rounds::start_final(&pool()?, &actor, event.id, seed).await)?;
    crate::server::go_to(&format!("/events/{}/rounds/{number}", event.slug));
    Ok(number.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_english() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .map(ordinal)
            .to_vec();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }

    #[test]
    fn a_placing_says_why() {
        let mut p = PlacingView {
            place: 1,
            player: "Ana".into(),
            player_id: 1,
            at_final: true,
            result: Some("Solo Stronghold Victory".into()),
            qualified: 4,
        };
        assert_eq!(p.basis(), "won the final: Solo Stronghold Victory");
        p.result = None;
        assert_eq!(p.basis(), "final table; 4th in qualifying");
        p.at_final = false;
        assert_eq!(p.basis(), "4th in qualifying");
    }
}
