//! What can be wrong with a report, in words that name the rule or ruling it breaks.

use std::fmt;

use dune::{Faction, WinType, rule};

use super::{Ending, ReportField};
use crate::options::OptionsError;
use crate::player::PlayerName;
use crate::ruleset::Ruleset;
use crate::tiebreakers::Category;

/// One problem in a report, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportError {
    /// `None` for the report's options, which belong to no game.
    pub game: Option<GameRef>,
    /// The player of the seat at fault, for people reading the message.
    pub player: Option<PlayerName>,
    /// The report field at fault; a seat's field names the seat's position.
    pub field: ReportField,
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
        write!(f, ", field {}: {}", self.field, self.problem)
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
    LastTurnOutOfRange {
        last_turn: u32,
        max: u32,
    },
    TurnsEndedEarly {
        last_turn: u32,
        max: u32,
    },
    NotDealt {
        dealt: Faction,
        reported: Faction,
    },
    SeatMissing,
    AttemptAfterLastTurn {
        turn: u32,
        last_turn: u32,
    },
    /// A stronghold victory whose winner (with the ally, for an allied one) controls fewer
    /// strongholds than it takes.
    TooFewStrongholds {
        win: WinType,
        have: u32,
        partner: Option<PlayerName>,
    },
    /// The table's players control more strongholds between them than there are.
    StrongholdsOverTable {
        total: u32,
        max: u32,
    },
    /// A win decided at the end of the last turn while a player (or alliance) met a stronghold
    /// victory at that Mentat Pause, which would have won first.
    StrongholdWinAtEnd {
        win: WinType,
        have: u32,
        partner: Option<PlayerName>,
    },
    /// A Bene Gesserit Prediction win without the prediction recorded.
    PredictionMissing,
    PredictionWithoutBg,
    PredictionNotAtTable {
        faction: Faction,
    },
    PredictionOfBg,
    PredictionTurnOutOfRange {
        turn: u32,
        max: u32,
    },
    /// The prediction names another turn than the one the game was won in.
    PredictionWrongTurn {
        turn: u32,
        last_turn: u32,
    },
    /// The predicted faction did not meet a stronghold victory's requirement.
    PredictionNotMet {
        faction: Faction,
        have: u32,
        partner: Option<PlayerName>,
    },
    /// The predicted faction won by strongholds in the predicted turn: the Bene Gesserit wins.
    PredictionCameTrue {
        faction: Faction,
        turn: u32,
        win: WinType,
    },
}

/// Strongholds an unallied player controls to win (1.09.02.01).
pub const SOLO_STRONGHOLDS: u32 = 3;
/// Strongholds an alliance controls between its members to win (1.09.02.02, 1.10.02.01).
pub const ALLIED_STRONGHOLDS: u32 = 4;
/// Strongholds the Ecaz alliance controls to win by the Ecaz special victory (000 2.11.21, the
/// original text), reported as an Allied Stronghold Victory.
pub const ECAZ_ALLIED_STRONGHOLDS: u32 = 3;

/// "2 strongholds, controlled alone" / "3 strongholds, controlled with the ally Bob".
fn holding(have: u32, partner: &Option<PlayerName>) -> String {
    match partner {
        None => format!("{have} strongholds, controlled alone"),
        Some(p) => format!("{have} strongholds, controlled together with the ally {p}"),
    }
}

/// What a stronghold victory takes, with its rule (and `also`, a rule that leans on it).
fn requirement(allied: bool, also: Option<dune::Rule>) -> String {
    let (need, who, rule) = if allied {
        (
            ALLIED_STRONGHOLDS,
            "an alliance wins by controlling, between its members,",
            rule!("1.09.02.02"),
        )
    } else {
        (
            SOLO_STRONGHOLDS,
            "an unallied player wins by controlling",
            rule!("1.09.02.01"),
        )
    };
    let also = also.map(|r| format!(", {r}")).unwrap_or_default();
    format!("{who} at least {need} strongholds at the Mentat Pause ({rule}{also})")
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
            Problem::LastTurnOutOfRange { last_turn, max } => write!(
                f,
                "the last turn played is a turn from 1 to {max} (0.02, 1.09.05), not {last_turn}"
            ),
            Problem::TurnsEndedEarly { last_turn, max } => write!(
                f,
                "a game that reached the end of the last turn has played turn {max}, not \
                 {last_turn} (1.09.05); a game that stopped earlier ended by a win or the clock"
            ),
            Problem::NotDealt { dealt, reported } => write!(
                f,
                "the faction dealt at this table is {dealt} ({}), not {reported} (0.08)",
                dealt.name()
            ),
            Problem::SeatMissing => f.write_str("sits at this table but has no line in the report"),
            Problem::AttemptAfterLastTurn { turn, last_turn } => write!(
                f,
                "win attempts are recorded for turn {turn}, after the last turn played \
                 ({last_turn}); correct the last turn or that turn's record (4.01.04)"
            ),
            Problem::TooFewStrongholds { win, have, partner } => write!(
                f,
                "{win} ({}) with {}: {}; correct the strongholds or the result",
                win.name(),
                holding(*have, partner),
                requirement(partner.is_some(), None)
            ),
            Problem::StrongholdsOverTable { total, max } => write!(
                f,
                "the players control {total} strongholds between them, but there are {max}: a \
                 stronghold is controlled by one faction alone ({})",
                rule!("4.01.11.02")
            ),
            Problem::StrongholdWinAtEnd { win, have, partner } => write!(
                f,
                "{} at the end of the game make a stronghold victory, which wins before {win} \
                 ({}) is considered ({}): the end-game victories apply only when nobody has won \
                 ({}); correct the strongholds or the result",
                holding(*have, partner),
                win.name(),
                requirement(partner.is_some(), None),
                rule!("1.09.05")
            ),
            Problem::PredictionMissing => write!(
                f,
                "a Bene Gesserit Prediction needs the prediction that came true: record the \
                 faction and turn the Bene Gesserit predicted ({})",
                rule!("2.02.03")
            ),
            Problem::PredictionWithoutBg => write!(
                f,
                "a prediction is recorded, but no one plays the Bene Gesserit at this table ({})",
                rule!("2.02.03")
            ),
            Problem::PredictionNotAtTable { faction } => write!(
                f,
                "the prediction names {faction} ({}), who does not play at this table ({})",
                faction.name(),
                rule!("2.02.03")
            ),
            Problem::PredictionOfBg => write!(
                f,
                "the Bene Gesserit predict another faction's win, not their own ({})",
                rule!("2.02.03")
            ),
            Problem::PredictionTurnOutOfRange { turn, max } => write!(
                f,
                "the predicted turn is a turn from 1 to {max}, not {turn} ({})",
                rule!("2.02.03")
            ),
            Problem::PredictionWrongTurn { turn, last_turn } => write!(
                f,
                "the prediction names turn {turn}, but the game was won at turn {last_turn}: a \
                 prediction wins only in the turn it names ({})",
                rule!("2.02.03")
            ),
            Problem::PredictionNotMet {
                faction,
                have,
                partner,
            } => write!(
                f,
                "the Bene Gesserit predicted {faction}, who ends with {}: the prediction wins \
                 only when the predicted faction meets a stronghold victory, and {}",
                holding(*have, partner),
                requirement(partner.is_some(), Some(rule!("2.02.03")))
            ),
            Problem::PredictionCameTrue { faction, turn, win } => write!(
                f,
                "the Bene Gesserit predicted {faction} to win at turn {turn}, and {faction} won \
                 then ({win}): the Bene Gesserit reveal the prediction and win alone; report BGP \
                 for the Bene Gesserit ({})",
                rule!("2.02.03")
            ),
        }
    }
}
