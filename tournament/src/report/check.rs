//! Every rule about a report's content: the table's size and factions (4.01.01, 0.08), allies
//! (1.10), the kind of win and who may win it (1.09, 2.02.03, 2.04.09, 2.06.08, 4.01.10,
//! ruling 7), what each win requires of the end values (strongholds 1.09.02.01, 1.09.02.02;
//! nobody holding a stronghold victory when the end-game rules decide, 1.09.05; the Bene
//! Gesserit's prediction, 2.02.03), the last turn (0.02, 1.09.05), the tiebreaker values'
//! limits (4.01.11, 4.02, ruling 12), and the adjudication of a game stopped by the clock
//! (4.01.09, ruling 9).

use std::collections::HashMap;

use dune::{Faction, WinType};

use super::problem::{ALLIED_STRONGHOLDS, ECAZ_ALLIED_STRONGHOLDS, SOLO_STRONGHOLDS};
use super::{
    Ending, GameRef, GameReport, MAX_CARDS, MAX_FORCES, MAX_TURNS, MAX_WIN_ATTEMPTS, OWN_LEADERS,
    PredictionField, Problem, Report, ReportError, ReportErrors, ReportField, ScoredGame,
    SeatField, SeatReport, ValidReport,
};
use crate::adjudication::{self, AdjudicationError, AdjudicationSeat};
use crate::history::MAX_TABLE;
use crate::options::{RulingOptions, TableFallback};
use crate::player::PlayerName;
use crate::ruleset::Ruleset;
use crate::tiebreakers::Category;

/// A problem at a field of one game, before it is given the game's round and table.
pub(crate) type Found = (ReportField, Problem);

/// Checks a report and adjudicates its clock-ended games.
pub fn validate(report: &Report) -> Result<ValidReport, ReportErrors> {
    let mut errors = Vec::new();
    if let Err(e) = report.options.check() {
        errors.push(ReportError {
            game: None,
            player: None,
            field: ReportField::Options,
            problem: Problem::Options(e),
        });
    }

    let mut seen_games: HashMap<(u32, u32), usize> = HashMap::new();
    let mut seen_players: HashMap<(u32, &str), u32> = HashMap::new();
    let mut games = Vec::with_capacity(report.games.len());
    for game in &report.games {
        let mut found: Vec<Found> = Vec::new();
        if game.round == 0 {
            found.push((ReportField::Round, Problem::ZeroNumber));
        }
        if game.table == 0 {
            found.push((ReportField::Table, Problem::ZeroNumber));
        }
        if seen_games
            .insert((game.round, game.table), games.len())
            .is_some()
        {
            found.push((ReportField::Table, Problem::DuplicateGame));
        }
        for (i, seat) in game.seats.iter().enumerate() {
            match seen_players.get(&(game.round, seat.player.as_str())) {
                Some(&other) if other != game.table => found.push((
                    ReportField::Seat(i, SeatField::Player),
                    Problem::PlayerTwiceInRound { other_table: other },
                )),
                _ => {
                    seen_players.insert((game.round, seat.player.as_str()), game.table);
                }
            }
        }
        check_game(report.ruleset, &report.options, game, &mut found);
        if found.is_empty() {
            match score(&report.options, game) {
                Ok(scored) => games.push(scored),
                Err(problem) => found.push((ReportField::JudgeDraw, problem)),
            }
        }
        errors.extend(found.into_iter().map(|f| locate(game, f)));
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

/// Gives a problem its game and, for a seat's field, the seat's player.
pub(crate) fn locate(game: &GameReport, found: Found) -> ReportError {
    locate_by(
        game.round,
        game.table,
        |i| game.seats.get(i).map(|s| &s.player),
        found,
    )
}

/// As [`locate`], with the seats' players looked up by `player` (seat position → name).
pub(crate) fn locate_by<'a>(
    round: u32,
    table: u32,
    player: impl Fn(usize) -> Option<&'a PlayerName>,
    (field, problem): Found,
) -> ReportError {
    ReportError {
        game: Some(GameRef { round, table }),
        player: field.seat().and_then(player).cloned(),
        field,
        problem,
    }
}

/// Every check of one game's content, each problem at its field.
pub(crate) fn check_game(
    ruleset: Ruleset,
    options: &RulingOptions,
    game: &GameReport,
    found: &mut Vec<Found>,
) {
    let seats = &game.seats;
    let at = |i: usize, field: SeatField| ReportField::Seat(i, field);
    let four_allowed = options.table_fallback == TableFallback::FourPlayerTables;
    let size_ok = matches!(seats.len(), 5 | 6) || (four_allowed && seats.len() == 4);
    if !size_ok {
        found.push((
            ReportField::Seats,
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

    if let Some(last_turn) = game.last_turn {
        if !(1..=MAX_TURNS).contains(&last_turn) {
            found.push((
                ReportField::LastTurn,
                Problem::LastTurnOutOfRange {
                    last_turn,
                    max: MAX_TURNS,
                },
            ));
        } else if game.ended == Ending::Turns && last_turn != MAX_TURNS {
            found.push((
                ReportField::LastTurn,
                Problem::TurnsEndedEarly {
                    last_turn,
                    max: MAX_TURNS,
                },
            ));
        }
    }

    for (i, seat) in seats.iter().enumerate() {
        if seats[..i].iter().any(|s| s.player == seat.player) {
            found.push((at(i, SeatField::Player), Problem::PlayerTwiceAtTable));
        }
        if !ruleset.has_faction(seat.faction) {
            found.push((
                at(i, SeatField::Faction),
                Problem::FactionNotInRuleset {
                    faction: seat.faction,
                    ruleset,
                },
            ));
        }
        if let Some(other) = seats[..i].iter().find(|s| s.faction == seat.faction) {
            found.push((
                at(i, SeatField::Faction),
                Problem::FactionTwice {
                    faction: seat.faction,
                    other: other.player.clone(),
                },
            ));
        }
        if let Some(ally) = seat.ally {
            if ally == seat.faction {
                found.push((at(i, SeatField::Ally), Problem::AllyIsSelf));
            } else {
                match seats.iter().find(|s| s.faction == ally) {
                    None => found.push((at(i, SeatField::Ally), Problem::AllyAbsent { ally })),
                    Some(partner) if partner.ally != Some(seat.faction) => found.push((
                        at(i, SeatField::Ally),
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
        // A table has at most six seats (checked above), so the product cannot overflow.
        let table_leaders = OWN_LEADERS * seats.len().min(MAX_TABLE) as u32;
        let max_leaders = match seat.faction {
            Faction::Harkonnen | Faction::Tleilaxu => table_leaders.max(OWN_LEADERS),
            // CHOAM's five and the Auditor (000 2.09.21, the Advanced game).
            Faction::Choam => OWN_LEADERS + 1,
            _ => OWN_LEADERS,
        };
        let limit = |category: Category| match category {
            Category::WinAttempts => MAX_WIN_ATTEMPTS,
            Category::Strongholds => options.strongholds(ruleset),
            Category::Forces => MAX_FORCES,
            Category::Spice => u32::MAX,
            Category::Cards => MAX_CARDS,
            Category::Leaders => max_leaders,
        };
        for category in Category::ALL {
            let (value, max) = (seat.tiebreakers.get(category), limit(category));
            if value > max {
                found.push((
                    at(i, SeatField::Value(category)),
                    Problem::TooLarge {
                        category,
                        value,
                        max,
                    },
                ));
            }
        }
    }

    // Control is one faction's alone: the table holds no more than the map's strongholds. The
    // problem is told at the seat whose count takes the table past them.
    let max = options.strongholds(ruleset);
    let total = seats.iter().fold(0u32, |sum, s| {
        sum.saturating_add(s.tiebreakers.end.strongholds)
    });
    if total > max && seats.iter().all(|s| s.tiebreakers.end.strongholds <= max) {
        let mut running = 0u32;
        if let Some(i) = seats.iter().position(|s| {
            running = running.saturating_add(s.tiebreakers.end.strongholds);
            running > max
        }) {
            found.push((
                at(i, SeatField::Value(Category::Strongholds)),
                Problem::StrongholdsOverTable { total, max },
            ));
        }
    }

    if let Some(prediction) = game.prediction {
        let faction = ReportField::Prediction(PredictionField::Faction);
        if !seats.iter().any(|s| s.faction == Faction::BeneGesserit) {
            found.push((faction, Problem::PredictionWithoutBg));
        } else if prediction.faction == Faction::BeneGesserit {
            found.push((faction, Problem::PredictionOfBg));
        } else if !seats.iter().any(|s| s.faction == prediction.faction) {
            found.push((
                faction,
                Problem::PredictionNotAtTable {
                    faction: prediction.faction,
                },
            ));
        }
        if !(1..=MAX_TURNS).contains(&prediction.turn) {
            found.push((
                ReportField::Prediction(PredictionField::Turn),
                Problem::PredictionTurnOutOfRange {
                    turn: prediction.turn,
                    max: MAX_TURNS,
                },
            ));
        }
    }

    if game.judge_draw.is_some() && game.ended != Ending::Time {
        found.push((ReportField::JudgeDraw, Problem::JudgeDrawNotAdjudicated));
    }
    if let Some(drawn) = &game.judge_draw
        && !seats.iter().any(|s| &s.player == drawn)
    {
        found.push((
            ReportField::JudgeDraw,
            Problem::JudgeDrawUnknown {
                drawn: drawn.clone(),
            },
        ));
    }

    check_results(ruleset, game, found);
}

fn check_results(ruleset: Ruleset, game: &GameReport, found: &mut Vec<Found>) {
    let result = |i: usize| ReportField::Seat(i, SeatField::Result);
    let seats = &game.seats;
    let winners: Vec<(usize, &SeatReport, WinType)> = seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.result.map(|w| (i, s, w)))
        .collect();
    let Some(&(first_i, first, win)) = winners.first() else {
        if game.ended != Ending::Time {
            // No seat is at fault: the ending and the results disagree.
            found.push((ReportField::Ended, Problem::NoWinner { ended: game.ended }));
        }
        return;
    };
    let before = found.len();
    for &(i, _, w) in &winners {
        if game.ended == Ending::Time {
            found.push((result(i), Problem::ResultOnTimeGame { win: w }));
        } else if w == WinType::Adjudicated {
            found.push((result(i), Problem::AdjudicatedReported));
        } else if !ruleset.has_win_type(w) {
            found.push((result(i), Problem::WinTypeNotInRuleset { win: w, ruleset }));
        } else if w != win {
            found.push((
                result(i),
                Problem::MixedResults {
                    win: w,
                    other: win,
                    other_player: first.player.clone(),
                },
            ));
        }
    }
    if found.len() > before {
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
    for &(i, seat, _) in &winners {
        match (partner(seat), seat.ally) {
            (None, None) if win.is_allied() => found.push((result(i), Problem::NeedsAlly { win })),
            (_, Some(ally)) if win.is_solo() => {
                found.push((result(i), Problem::SoloButAllied { win, ally }));
            }
            (Some(p), _) if win != WinType::BgPrediction && p.result != Some(win) => found.push((
                result(i),
                Problem::AllyResultDiffers {
                    win,
                    ally_player: p.player.clone(),
                    ally_result: p.result,
                },
            )),
            _ => {}
        }
    }
    if found.len() > before {
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
        found.push((
            result(first_i),
            Problem::TooManyWinners {
                win,
                count: winners.len(),
            },
        ));
    }
    let winner_has = |f: Faction| winners.iter().any(|(_, s, _)| s.faction == f);
    let problem = match win {
        WinType::BgPrediction if !winner_has(Faction::BeneGesserit) => {
            Some(Problem::WrongFaction { win })
        }
        WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial => {
            if !winner_has(Faction::Fremen) {
                Some(Problem::WrongFaction { win })
            } else if !present(Faction::SpacingGuild) {
                Some(Problem::NeedsGuild { win })
            } else {
                None
            }
        }
        WinType::SoloDefault | WinType::AlliedDefault => {
            let guild_or_fremen = winner_has(Faction::SpacingGuild)
                || (!present(Faction::SpacingGuild) && winner_has(Faction::Fremen));
            (!guild_or_fremen).then_some(Problem::WrongFaction { win })
        }
        WinType::EndGame | WinType::SoloEndGame | WinType::AlliedEndGame
            if present(Faction::SpacingGuild) || present(Faction::Fremen) =>
        {
            Some(Problem::EndGameWithGuildOrFremen { win })
        }
        _ => None,
    };
    found.extend(problem.map(|p| (result(first_i), p)));
    let last_turn_only = !matches!(
        win,
        WinType::SoloStronghold | WinType::BgPrediction | WinType::AlliedStronghold
    );
    if last_turn_only && game.ended != Ending::Turns {
        found.push((
            result(first_i),
            Problem::WrongEnding {
                win,
                ended: game.ended,
            },
        ));
    }
    if found.len() == before {
        check_victory(game, win, &winners, found);
    }
}

/// Whether the seat at `i`, with its ally, meets a stronghold victory's requirement with its
/// end values (1.09.02): the strongholds held, the ally's seat, and the verdict.
fn stronghold_standing(seats: &[SeatReport], i: usize) -> (u32, Option<usize>, bool) {
    let seat = &seats[i];
    let partner = seat.ally.and_then(|a| {
        seats
            .iter()
            .position(|s| s.faction == a && s.faction != seat.faction)
    });
    let own = seat.tiebreakers.end.strongholds;
    match partner {
        None => (own, None, own >= SOLO_STRONGHOLDS),
        Some(p) => {
            let both = own.saturating_add(seats[p].tiebreakers.end.strongholds);
            (both, Some(p), both >= ALLIED_STRONGHOLDS)
        }
    }
}

/// What each kind of win requires of the end values, as far as a report shows it: strongholds
/// for the stronghold victories (1.09.02), nobody holding a stronghold victory for the wins
/// decided at the end of the last turn (1.09.05), and the prediction that came true for the
/// Bene Gesserit's (2.02.03). Runs on a table whose results are otherwise consistent.
fn check_victory(
    game: &GameReport,
    win: WinType,
    winners: &[(usize, &SeatReport, WinType)],
    found: &mut Vec<Found>,
) {
    let seats = &game.seats;
    let strongholds = |i: usize| ReportField::Seat(i, SeatField::Value(Category::Strongholds));
    let partner_name = |p: Option<usize>| p.map(|p| seats[p].player.clone());
    let Some(&(first_i, _, _)) = winners.first() else {
        return;
    };
    match win {
        WinType::SoloStronghold | WinType::AlliedStronghold => {
            let (have, partner, met) = stronghold_standing(seats, first_i);
            // The Ecaz alliance's special victory (000 2.11.21, the original text) takes three
            // strongholds and is reported as an Allied Stronghold Victory. The report does not say
            // which text the table played, so three are accepted from an alliance with Ecaz (the
            // replay of its log checks the text).
            let ecaz = partner.is_some_and(|p| {
                seats[p].faction == Faction::Ecaz || seats[first_i].faction == Faction::Ecaz
            });
            let met = met || (ecaz && have >= ECAZ_ALLIED_STRONGHOLDS);
            if !met {
                found.push((
                    strongholds(first_i),
                    Problem::TooFewStrongholds {
                        win,
                        have,
                        partner: partner_name(partner),
                    },
                ));
            }
        }
        WinType::BgPrediction => {
            if let Some(prediction) = game.prediction {
                if let Some(last_turn) = game.last_turn
                    && last_turn != prediction.turn
                {
                    found.push((
                        ReportField::Prediction(PredictionField::Turn),
                        Problem::PredictionWrongTurn {
                            turn: prediction.turn,
                            last_turn,
                        },
                    ));
                }
                if let Some(f) = seats.iter().position(|s| s.faction == prediction.faction) {
                    let (have, partner, met) = stronghold_standing(seats, f);
                    if !met {
                        found.push((
                            strongholds(f),
                            Problem::PredictionNotMet {
                                faction: prediction.faction,
                                have,
                                partner: partner_name(partner),
                            },
                        ));
                    }
                }
            }
        }
        WinType::Adjudicated => {}
        // Every other win is decided at the end of the last turn, and only when nobody has
        // won by then (1.09.05, 2.04.09, 2.06.08).
        _ => {
            for i in 0..seats.len() {
                let (have, partner, met) = stronghold_standing(seats, i);
                // An alliance is named once, at its first member.
                if met && partner.is_none_or(|p| p > i) {
                    found.push((
                        strongholds(i),
                        Problem::StrongholdWinAtEnd {
                            win,
                            have,
                            partner: partner_name(partner),
                        },
                    ));
                }
            }
        }
    }
    // A prediction that came true wins for the Bene Gesserit, whoever else qualified.
    if matches!(win, WinType::SoloStronghold | WinType::AlliedStronghold)
        && let Some(prediction) = game.prediction
        && game.last_turn == Some(prediction.turn)
        && let Some(f) = seats.iter().position(|s| s.faction == prediction.faction)
        && stronghold_standing(seats, f).2
    {
        found.push((
            ReportField::Seat(first_i, SeatField::Result),
            Problem::PredictionCameTrue {
                faction: prediction.faction,
                turn: prediction.turn,
                win,
            },
        ));
    }
}

/// Resolves allies and, for a clock-ended game, adjudicates. Runs on a game that passed
/// [`check_game`].
pub(crate) fn score(options: &RulingOptions, game: &GameReport) -> Result<ScoredGame, Problem> {
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
        let adj_seats = adjudication_seats(seats, &allies);
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

pub(crate) fn adjudication_seats(
    seats: &[SeatReport],
    allies: &[Option<usize>],
) -> Vec<AdjudicationSeat> {
    seats
        .iter()
        .zip(allies)
        .map(|(s, &ally)| AdjudicationSeat {
            ally,
            tiebreakers: s.tiebreakers,
        })
        .collect()
}
