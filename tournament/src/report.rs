//! Game reports (4.01.02, 4.01.07) and their validation.
//!
//! A [`Report`] is what judges filled in; [`validate`] turns it into a [`ValidReport`], the only
//! form standings accept, or lists every problem found, each naming the game, the player and the
//! field so the judge knows which line of which Game Report to fix.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::adjudication::{self, Adjudication, AdjudicationError, AdjudicationSeat};
use crate::history::MAX_TABLE;
use crate::options::{OptionsError, RulingOptions, TableFallback};
use crate::player::PlayerName;
use crate::ruleset::Ruleset;
use crate::tiebreakers::{Category, Tiebreakers};
use dune::faction::Faction;
use dune::win_type::WinType;

/// Most win attempts in a game: one per player per turn (ruling 6), ten turns.
pub const MAX_WIN_ATTEMPTS: u32 = 10;
/// A faction has twenty force tokens.
pub const MAX_FORCES: u32 = 20;
/// The largest hand, the Harkonnen's (2.05.07).
pub const MAX_CARDS: u32 = 8;
/// A faction's own leaders.
pub const OWN_LEADERS: u32 = 5;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub ruleset: Ruleset,
    #[serde(default)]
    pub options: RulingOptions,
    pub games: Vec<GameReport>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameReport {
    pub round: u32,
    pub table: u32,
    pub ended: Ending,
    pub seats: Vec<SeatReport>,
    /// The player the head judge drew when an adjudication tie survives every category and the
    /// event settles such ties by a draw (ruling 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_draw: Option<PlayerName>,
}

/// How the game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// A victory at a Mentat Pause before the last turn.
    Win,
    /// The clock (4.01.08) stopped it with no winner: adjudicated (4.01.09).
    Time,
    /// The last turn was played; the end-game rules (1.09.05) name the winner if nobody won
    /// at its Mentat Pause.
    Turns,
}

impl Ending {
    pub fn code(self) -> &'static str {
        match self {
            Ending::Win => "win",
            Ending::Time => "time",
            Ending::Turns => "turns",
        }
    }

    pub fn from_code(code: &str) -> Option<Ending> {
        [Ending::Win, Ending::Time, Ending::Turns]
            .into_iter()
            .find(|e| e.code() == code)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatReport {
    pub player: PlayerName,
    pub faction: Faction,
    /// The ally's faction at this table.
    pub ally: Option<Faction>,
    pub result: Option<WinType>,
    #[serde(flatten)]
    pub tiebreakers: Tiebreakers,
}

/// A report that passed validation, games in (round, table) order, clock-ended games
/// adjudicated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidReport {
    ruleset: Ruleset,
    options: RulingOptions,
    games: Vec<ScoredGame>,
}

impl ValidReport {
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }
    pub fn options(&self) -> &RulingOptions {
        &self.options
    }
    pub fn games(&self) -> &[ScoredGame] {
        &self.games
    }
}

/// A validated game with its final results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredGame {
    round: u32,
    table: u32,
    ended: Ending,
    seats: Vec<SeatReport>,
    allies: Vec<Option<usize>>,
    results: Vec<Option<WinType>>,
    adjudication: Option<Adjudication>,
}

impl ScoredGame {
    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn table(&self) -> u32 {
        self.table
    }
    pub fn ended(&self) -> Ending {
        self.ended
    }
    pub fn seats(&self) -> &[SeatReport] {
        &self.seats
    }
    /// The ally's seat index, per seat.
    pub fn allies(&self) -> &[Option<usize>] {
        &self.allies
    }
    /// Per seat: the reported result, or Adjudicated for adjudication's winners.
    pub fn results(&self) -> &[Option<WinType>] {
        &self.results
    }
    pub fn adjudication(&self) -> Option<&Adjudication> {
        self.adjudication.as_ref()
    }
}

/// One problem in a report, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportError {
    /// `None` for the report's options, which belong to no game.
    pub game: Option<GameRef>,
    pub player: Option<PlayerName>,
    /// The report field at fault (`"result"`, `"ally"`, `"forces"`, …).
    pub field: Option<&'static str>,
    pub problem: Problem,
}

/// Round and table number of a game, as the report gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameRef {
    pub round: u32,
    pub table: u32,
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {}, table {}", self.round, self.table)
    }
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.game {
            Some(game) => write!(f, "{game}")?,
            None => f.write_str("report")?,
        }
        if let Some(player) = &self.player {
            write!(f, ", player {player}")?;
        }
        if let Some(field) = self.field {
            write!(f, ", field {field}")?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl std::error::Error for ReportError {}

/// Every problem found in a report, in report order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportErrors(pub Vec<ReportError>);

impl fmt::Display for ReportErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ReportErrors {}

/// What is wrong. The messages cite the rule or ruling that the report breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    Options(OptionsError),
    ZeroNumber,
    DuplicateGame,
    TableSize {
        size: usize,
        four_allowed: bool,
    },
    PlayerTwiceAtTable,
    PlayerTwiceInRound {
        other_table: u32,
    },
    FactionNotInRuleset {
        faction: Faction,
        ruleset: Ruleset,
    },
    FactionTwice {
        faction: Faction,
        other: PlayerName,
    },
    AllyIsSelf,
    AllyAbsent {
        ally: Faction,
    },
    AllyNotMutual {
        ally: Faction,
        ally_player: PlayerName,
        their_ally: Option<Faction>,
        own: Faction,
    },
    WinTypeNotInRuleset {
        win: WinType,
        ruleset: Ruleset,
    },
    AdjudicatedReported,
    ResultOnTimeGame {
        win: WinType,
    },
    NoWinner {
        ended: Ending,
    },
    MixedResults {
        win: WinType,
        other: WinType,
        other_player: PlayerName,
    },
    NeedsAlly {
        win: WinType,
    },
    SoloButAllied {
        win: WinType,
        ally: Faction,
    },
    AllyResultDiffers {
        win: WinType,
        ally_player: PlayerName,
        ally_result: Option<WinType>,
    },
    TooManyWinners {
        win: WinType,
        count: usize,
    },
    WrongFaction {
        win: WinType,
    },
    NeedsGuild {
        win: WinType,
    },
    EndGameWithGuildOrFremen {
        win: WinType,
    },
    WrongEnding {
        win: WinType,
        ended: Ending,
    },
    TooLarge {
        category: Category,
        value: u32,
        max: u32,
    },
    NeedsJudgeDraw {
        tied: Vec<PlayerName>,
    },
    JudgeDrawNotTied {
        drawn: PlayerName,
        tied: Vec<PlayerName>,
    },
    JudgeDrawUnknown {
        drawn: PlayerName,
    },
    JudgeDrawNotAdjudicated,
}

fn names(list: &[PlayerName]) -> String {
    let parts: Vec<&str> = list.iter().map(PlayerName::as_str).collect();
    parts.join(", ")
}

/// The allied counterpart of a solo type and back, for "did you mean" hints.
fn counterpart(win: WinType) -> Option<WinType> {
    Some(match win {
        WinType::SoloStronghold => WinType::AlliedStronghold,
        WinType::AlliedStronghold => WinType::SoloStronghold,
        WinType::SoloFremenSpecial => WinType::AlliedFremenSpecial,
        WinType::AlliedFremenSpecial => WinType::SoloFremenSpecial,
        WinType::SoloEndGame => WinType::AlliedEndGame,
        WinType::AlliedEndGame => WinType::SoloEndGame,
        WinType::SoloDefault => WinType::AlliedDefault,
        WinType::AlliedDefault => WinType::SoloDefault,
        _ => return None,
    })
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Options(e) => write!(f, "{e}"),
            Problem::ZeroNumber => f.write_str("rounds and tables are numbered from 1"),
            Problem::DuplicateGame => f.write_str("this round and table is reported twice"),
            Problem::TableSize { size, four_allowed } => write!(
                f,
                "{size} players at the table; tables seat 6 or 5{} (4.01.01{})",
                if *four_allowed { ", or 4" } else { "" },
                if *four_allowed { ", ruling 1" } else { "" }
            ),
            Problem::PlayerTwiceAtTable => f.write_str("the player sits at this table twice"),
            Problem::PlayerTwiceInRound { other_table } => {
                write!(
                    f,
                    "the player also sits at table {other_table} in this round"
                )
            }
            Problem::FactionNotInRuleset { faction, ruleset } => write!(
                f,
                "{faction} ({}) is not a faction of ruleset {ruleset} (rulings.md, Rulesets)",
                faction.name()
            ),
            Problem::FactionTwice { faction, other } => write!(
                f,
                "{faction} is also played by {other}; each faction sits once per table (0.08)"
            ),
            Problem::AllyIsSelf => f.write_str("a player cannot be their own ally (1.10)"),
            Problem::AllyAbsent { ally } => {
                write!(f, "ally {ally} is not played at this table (1.10)")
            }
            Problem::AllyNotMutual {
                ally,
                ally_player,
                their_ally,
                own,
            } => {
                match their_ally {
                    Some(theirs) => write!(
                        f,
                        "ally {ally} ({ally_player}) names {theirs} as ally, not {own}"
                    )?,
                    None => write!(f, "ally {ally} ({ally_player}) names no ally")?,
                }
                f.write_str("; an alliance is mutual (1.10)")
            }
            Problem::WinTypeNotInRuleset { win, ruleset } => {
                write!(f, "{win} is not on the points list of {ruleset} (4.01.10)")?;
                match win {
                    WinType::EndGame => f.write_str("; use SEG or AEG"),
                    WinType::SoloEndGame | WinType::AlliedEndGame => f.write_str("; use EG"),
                    _ => Ok(()),
                }
            }
            Problem::AdjudicatedReported => f.write_str(
                "ADJ is not reported: report the game with ended \"time\" and no results, and \
                 Mentat adjudicates it (4.01.09)",
            ),
            Problem::ResultOnTimeGame { win } => write!(
                f,
                "result {win} on a game stopped by the clock: such a game carries no results and \
                 is adjudicated (4.01.09); a game won in the extra 30 minutes (4.01.08) has ended \
                 \"win\""
            ),
            Problem::NoWinner { ended } => write!(
                f,
                "the game has ended \"{}\" but no player has a result{}",
                ended.code(),
                if *ended == Ending::Turns {
                    "; the end-game rules always name a winner (1.09.05)"
                } else {
                    ""
                }
            ),
            Problem::MixedResults {
                win,
                other,
                other_player,
            } => write!(
                f,
                "{win} here but {other} for {other_player}; a table has one kind of win (1.09)"
            ),
            Problem::NeedsAlly { win } => {
                write!(f, "{win} ({}) needs an ally", win.name())?;
                match counterpart(*win) {
                    Some(solo) => {
                        write!(f, "; an unallied winner scores {solo} (4.01.10, ruling 7)")
                    }
                    None => f.write_str(" (4.01.10, ruling 7)"),
                }
            }
            Problem::SoloButAllied { win, ally } => {
                write!(
                    f,
                    "{win} ({}) is a solo win but the player is allied with {ally}",
                    win.name()
                )?;
                match counterpart(*win) {
                    Some(allied) => write!(f, "; allies win together as {allied} (1.10, ruling 7)"),
                    None => f.write_str(" (1.10, ruling 7)"),
                }
            }
            Problem::AllyResultDiffers {
                win,
                ally_player,
                ally_result,
            } => {
                match ally_result {
                    Some(theirs) => write!(f, "{win}, but the ally {ally_player} has {theirs}")?,
                    None => write!(f, "{win}, but the ally {ally_player} has no result")?,
                }
                f.write_str("; both allies share an allied win (1.10, 4.01.10)")
            }
            Problem::TooManyWinners { win, count } => write!(
                f,
                "{count} players have {win}; {} (1.09)",
                if win.is_allied() {
                    "it goes to exactly one alliance"
                } else {
                    "it has exactly one winner"
                }
            ),
            Problem::WrongFaction { win } => f.write_str(match win {
                WinType::BgPrediction => "BGP is won by the Bene Gesserit alone (2.02.03)",
                WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial => {
                    "the Fremen special is won by the Fremen and their ally (2.04.09, 2.04.12)"
                }
                _ => {
                    "a Default Victory is the Guild's (2.06.08), or the Fremen's when the Guild is \
                     not at the table (1.09.05, ruling 7)"
                }
            }),
            Problem::NeedsGuild { win } => write!(
                f,
                "{win}: the Fremen special applies only with the Guild at the table (2.04.09)"
            ),
            Problem::EndGameWithGuildOrFremen { win } => write!(
                f,
                "{win}: an End Game Victory happens only with neither the Guild nor the Fremen at \
                 the table (1.09.05, ruling 7); otherwise it is a Default Victory or the Fremen \
                 special"
            ),
            Problem::WrongEnding { win, ended } => write!(
                f,
                "{win} is decided at the end of the last turn (1.09.05), but the game has ended \
                 \"{}\"; use ended \"turns\"",
                ended.code()
            ),
            Problem::TooLarge {
                category,
                value,
                max,
            } => {
                let why = match category {
                    Category::WinAttempts => "one per turn over at most 10 turns, ruling 6",
                    Category::Strongholds => "the strongholds of the ruleset",
                    Category::Forces => "a faction has 20 forces",
                    Category::Cards => "the largest hand is 8 cards, 2.05.07",
                    Category::Leaders => "own leaders, plus captured ones for HK and TL, ruling 12",
                    Category::Spice => "",
                };
                write!(
                    f,
                    "{value} {} is more than the possible {max} ({why}; {})",
                    category.label(),
                    category.rule()
                )
            }
            Problem::NeedsJudgeDraw { tied } => write!(
                f,
                "the adjudication leaves {} tied in every category; record the head judge's draw \
                 in judge_draw (4.01.09, ruling 9)",
                names(tied)
            ),
            Problem::JudgeDrawNotTied { drawn, tied } => write!(
                f,
                "{drawn} is not among the players tied after adjudication ({}) (4.01.09, ruling 9)",
                names(tied)
            ),
            Problem::JudgeDrawUnknown { drawn } => {
                write!(f, "{drawn} does not sit at this table")
            }
            Problem::JudgeDrawNotAdjudicated => f.write_str(
                "a judge's draw settles only a tied adjudication of a game stopped by the clock \
                 (4.01.09, ruling 9)",
            ),
        }
    }
}

/// Checks a report and adjudicates its clock-ended games.
pub fn validate(report: &Report) -> Result<ValidReport, ReportErrors> {
    let mut errors = Vec::new();
    if let Err(e) = report.options.check() {
        errors.push(ReportError {
            game: None,
            player: None,
            field: Some("options"),
            problem: Problem::Options(e),
        });
    }

    let mut seen_games: HashMap<(u32, u32), usize> = HashMap::new();
    let mut seen_players: HashMap<(u32, &str), u32> = HashMap::new();
    let mut games = Vec::with_capacity(report.games.len());
    for game in &report.games {
        let before = errors.len();
        let at = |player: Option<&PlayerName>, field: Option<&'static str>, problem| ReportError {
            game: Some(GameRef {
                round: game.round,
                table: game.table,
            }),
            player: player.cloned(),
            field,
            problem,
        };
        if game.round == 0 {
            errors.push(at(None, Some("round"), Problem::ZeroNumber));
        }
        if game.table == 0 {
            errors.push(at(None, Some("table"), Problem::ZeroNumber));
        }
        if seen_games
            .insert((game.round, game.table), games.len())
            .is_some()
        {
            errors.push(at(None, Some("table"), Problem::DuplicateGame));
        }
        for seat in &game.seats {
            match seen_players.get(&(game.round, seat.player.as_str())) {
                Some(&other) if other != game.table => errors.push(at(
                    Some(&seat.player),
                    Some("player"),
                    Problem::PlayerTwiceInRound { other_table: other },
                )),
                _ => {
                    seen_players.insert((game.round, seat.player.as_str()), game.table);
                }
            }
        }
        check_game(report.ruleset, &report.options, game, &mut errors);
        if errors.len() == before {
            match score(&report.options, game) {
                Ok(scored) => games.push(scored),
                Err(problem) => errors.push(at(None, Some("judge_draw"), problem)),
            }
        }
    }
    if !errors.is_empty() {
        return Err(ReportErrors(errors));
    }
    games.sort_by_key(|g| (g.round, g.table));
    Ok(ValidReport {
        ruleset: report.ruleset,
        options: report.options.clone(),
        games,
    })
}

fn check_game(
    ruleset: Ruleset,
    options: &RulingOptions,
    game: &GameReport,
    errors: &mut Vec<ReportError>,
) {
    let at = |player: Option<&PlayerName>, field: Option<&'static str>, problem| ReportError {
        game: Some(GameRef {
            round: game.round,
            table: game.table,
        }),
        player: player.cloned(),
        field,
        problem,
    };
    let seats = &game.seats;
    let four_allowed = options.table_fallback == TableFallback::FourPlayerTables;
    let size_ok = matches!(seats.len(), 5 | 6) || (four_allowed && seats.len() == 4);
    if !size_ok {
        errors.push(at(
            None,
            Some("seats"),
            Problem::TableSize {
                size: seats.len(),
                four_allowed,
            },
        ));
        if seats.len() > MAX_TABLE {
            // Nothing more to learn from an impossible table, and checking every pair of a huge
            // one would take long.
            return;
        }
    }

    for (i, seat) in seats.iter().enumerate() {
        let p = Some(&seat.player);
        if seats[..i].iter().any(|s| s.player == seat.player) {
            errors.push(at(p, Some("player"), Problem::PlayerTwiceAtTable));
        }
        if !ruleset.has_faction(seat.faction) {
            errors.push(at(
                p,
                Some("faction"),
                Problem::FactionNotInRuleset {
                    faction: seat.faction,
                    ruleset,
                },
            ));
        }
        if let Some(other) = seats[..i].iter().find(|s| s.faction == seat.faction) {
            errors.push(at(
                p,
                Some("faction"),
                Problem::FactionTwice {
                    faction: seat.faction,
                    other: other.player.clone(),
                },
            ));
        }
        if let Some(ally) = seat.ally {
            if ally == seat.faction {
                errors.push(at(p, Some("ally"), Problem::AllyIsSelf));
            } else {
                match seats.iter().find(|s| s.faction == ally) {
                    None => errors.push(at(p, Some("ally"), Problem::AllyAbsent { ally })),
                    Some(partner) if partner.ally != Some(seat.faction) => errors.push(at(
                        p,
                        Some("ally"),
                        Problem::AllyNotMutual {
                            ally,
                            ally_player: partner.player.clone(),
                            their_ally: partner.ally,
                            own: seat.faction,
                        },
                    )),
                    Some(_) => {}
                }
            }
        }
        let t = &seat.tiebreakers;
        let table_leaders =
            OWN_LEADERS.saturating_mul(u32::try_from(seats.len()).unwrap_or(u32::MAX));
        let max_leaders = match seat.faction {
            Faction::Harkonnen | Faction::Tleilaxu => table_leaders.max(OWN_LEADERS),
            _ => OWN_LEADERS,
        };
        let limits = [
            (Category::WinAttempts, t.win_attempts, MAX_WIN_ATTEMPTS),
            (
                Category::Strongholds,
                t.strongholds,
                ruleset.stronghold_count(),
            ),
            (Category::Forces, t.forces, MAX_FORCES),
            (Category::Cards, t.cards, MAX_CARDS),
            (Category::Leaders, t.leaders, max_leaders),
        ];
        for (category, value, max) in limits {
            if value > max {
                errors.push(at(
                    p,
                    Some(category.field()),
                    Problem::TooLarge {
                        category,
                        value,
                        max,
                    },
                ));
            }
        }
    }

    if game.judge_draw.is_some() && game.ended != Ending::Time {
        errors.push(at(
            None,
            Some("judge_draw"),
            Problem::JudgeDrawNotAdjudicated,
        ));
    }
    if let Some(drawn) = &game.judge_draw
        && !seats.iter().any(|s| &s.player == drawn)
    {
        errors.push(at(
            None,
            Some("judge_draw"),
            Problem::JudgeDrawUnknown {
                drawn: drawn.clone(),
            },
        ));
    }

    check_results(ruleset, game, errors);
}

fn check_results(ruleset: Ruleset, game: &GameReport, errors: &mut Vec<ReportError>) {
    let at = |player: &PlayerName, problem| ReportError {
        game: Some(GameRef {
            round: game.round,
            table: game.table,
        }),
        player: Some(player.clone()),
        field: Some("result"),
        problem,
    };
    let seats = &game.seats;
    let winners: Vec<(&SeatReport, WinType)> = seats
        .iter()
        .filter_map(|s| s.result.map(|w| (s, w)))
        .collect();
    let Some(&(first, win)) = winners.first() else {
        if game.ended != Ending::Time {
            errors.push(ReportError {
                game: Some(GameRef {
                    round: game.round,
                    table: game.table,
                }),
                player: None,
                field: Some("result"),
                problem: Problem::NoWinner { ended: game.ended },
            });
        }
        return;
    };
    let before = errors.len();
    for &(seat, w) in &winners {
        if game.ended == Ending::Time {
            errors.push(at(&seat.player, Problem::ResultOnTimeGame { win: w }));
        } else if w == WinType::Adjudicated {
            errors.push(at(&seat.player, Problem::AdjudicatedReported));
        } else if !ruleset.has_win_type(w) {
            errors.push(at(
                &seat.player,
                Problem::WinTypeNotInRuleset { win: w, ruleset },
            ));
        } else if w != win {
            errors.push(at(
                &seat.player,
                Problem::MixedResults {
                    win: w,
                    other: win,
                    other_player: first.player.clone(),
                },
            ));
        }
    }
    if errors.len() > before {
        return;
    }

    let partner = |seat: &SeatReport| {
        seat.ally.and_then(|a| {
            seats
                .iter()
                .find(|s| s.faction == a && s.faction != seat.faction)
        })
    };
    let present = |f: Faction| seats.iter().any(|s| s.faction == f);
    for &(seat, _) in &winners {
        match (partner(seat), seat.ally) {
            (None, None) if win.is_allied() => {
                errors.push(at(&seat.player, Problem::NeedsAlly { win }))
            }
            (_, Some(ally)) if win.is_solo() => {
                errors.push(at(&seat.player, Problem::SoloButAllied { win, ally }));
            }
            (Some(p), _) if win != WinType::BgPrediction && p.result != Some(win) => {
                errors.push(at(
                    &seat.player,
                    Problem::AllyResultDiffers {
                        win,
                        ally_player: p.player.clone(),
                        ally_result: p.result,
                    },
                ))
            }
            _ => {}
        }
    }
    if errors.len() > before {
        return;
    }

    let single = matches!(
        win,
        WinType::SoloStronghold
            | WinType::BgPrediction
            | WinType::SoloFremenSpecial
            | WinType::SoloDefault
    );
    let one_alliance = matches!(
        win,
        WinType::AlliedStronghold | WinType::AlliedFremenSpecial | WinType::AlliedDefault
    );
    if (single && winners.len() > 1) || (one_alliance && winners.len() > 2) {
        errors.push(at(
            &first.player,
            Problem::TooManyWinners {
                win,
                count: winners.len(),
            },
        ));
    }
    let winner_has = |f: Faction| winners.iter().any(|(s, _)| s.faction == f);
    match win {
        WinType::BgPrediction if !winner_has(Faction::BeneGesserit) => {
            errors.push(at(&first.player, Problem::WrongFaction { win }));
        }
        WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial => {
            if !winner_has(Faction::Fremen) {
                errors.push(at(&first.player, Problem::WrongFaction { win }));
            } else if !present(Faction::SpacingGuild) {
                errors.push(at(&first.player, Problem::NeedsGuild { win }));
            }
        }
        WinType::SoloDefault | WinType::AlliedDefault => {
            let guild_or_fremen = winner_has(Faction::SpacingGuild)
                || (!present(Faction::SpacingGuild) && winner_has(Faction::Fremen));
            if !guild_or_fremen {
                errors.push(at(&first.player, Problem::WrongFaction { win }));
            }
        }
        WinType::EndGame | WinType::SoloEndGame | WinType::AlliedEndGame
            if present(Faction::SpacingGuild) || present(Faction::Fremen) =>
        {
            errors.push(at(&first.player, Problem::EndGameWithGuildOrFremen { win }));
        }
        _ => {}
    }
    let last_turn_only = !matches!(
        win,
        WinType::SoloStronghold | WinType::BgPrediction | WinType::AlliedStronghold
    );
    if last_turn_only && game.ended != Ending::Turns {
        errors.push(at(
            &first.player,
            Problem::WrongEnding {
                win,
                ended: game.ended,
            },
        ));
    }
}

/// Resolves allies and, for a clock-ended game, adjudicates. Runs on a game that passed
/// [`check_game`].
fn score(options: &RulingOptions, game: &GameReport) -> Result<ScoredGame, Problem> {
    let seats = &game.seats;
    let allies: Vec<Option<usize>> = seats
        .iter()
        .map(|seat| {
            seat.ally.and_then(|a| {
                seats
                    .iter()
                    .position(|s| s.faction == a && s.faction != seat.faction)
            })
        })
        .collect();
    let mut results: Vec<Option<WinType>> = seats.iter().map(|s| s.result).collect();
    let mut adjudication = None;
    if game.ended == Ending::Time {
        let adj_seats: Vec<AdjudicationSeat> = seats
            .iter()
            .zip(&allies)
            .map(|(s, &ally)| AdjudicationSeat {
                ally,
                tiebreakers: s.tiebreakers,
            })
            .collect();
        let drawn = game
            .judge_draw
            .as_ref()
            .and_then(|d| seats.iter().position(|s| &s.player == d));
        let to_names = |idx: &[usize]| -> Vec<PlayerName> {
            idx.iter()
                .filter_map(|&i| seats.get(i))
                .map(|s| s.player.clone())
                .collect()
        };
        let adj = adjudication::adjudicate(&adj_seats, options.adjudication_deadlock, drawn)
            .map_err(|e| match (e, &game.judge_draw) {
                (AdjudicationError::DrawNotTied { tied, .. }, Some(drawn)) => {
                    Problem::JudgeDrawNotTied {
                        drawn: drawn.clone(),
                        tied: to_names(&tied),
                    }
                }
                (AdjudicationError::NeedsDraw(tied), _)
                | (AdjudicationError::DrawNotTied { tied, .. }, None) => Problem::NeedsJudgeDraw {
                    tied: to_names(&tied),
                },
            })?;
        for &w in &adj.winners {
            if let Some(r) = results.get_mut(w) {
                *r = Some(WinType::Adjudicated);
            }
        }
        adjudication = Some(adj);
    }
    Ok(ScoredGame {
        round: game.round,
        table: game.table,
        ended: game.ended,
        seats: seats.clone(),
        allies,
        results,
        adjudication,
    })
}

#[cfg(test)]
mod tests {
    use super::Ending;

    #[test]
    fn ending_codes_round_trip() {
        for e in [Ending::Win, Ending::Time, Ending::Turns] {
            assert_eq!(Ending::from_code(e.code()), Some(e));
        }
        assert_eq!(Ending::from_code("draw"), None);
    }
}
