//! Reading the JSON inputs by hand rather than through serde derive: a judge needs "round 2,
//! table 3, player Alice, field forces: must be a whole number from 0 up, not -3", and serde's
//! messages know neither the round nor the player.

use serde_json::{Map, Value};

use super::{At, CliError};
use crate::history::{History, PastRound, PastSeat, PastTable};
use crate::options::RulingOptions;
use crate::player::PlayerName;
use crate::report::{Ending, GameReport, Report, SeatReport};
use crate::ruleset::Ruleset;
use crate::tiebreakers::{Category, Tiebreakers};
use dune::faction::Faction;
use dune::win_type::WinType;

const GAME_FIELDS: [&str; 7] = [
    "round",
    "table",
    "ended",
    "last_turn",
    "seats",
    "judge_draw",
    "prediction",
];
const SEAT_FIELDS: [&str; 10] = [
    "player",
    "faction",
    "ally",
    "result",
    "win_attempts",
    "strongholds",
    "forces",
    "spice",
    "cards",
    "leaders",
];

fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

fn object<'a>(v: &'a Value, at: &At) -> Result<&'a Map<String, Value>, CliError> {
    v.as_object()
        .ok_or_else(|| at.fail(format!("must be an object {{…}}, not {}", kind(v))))
}

fn array<'a>(v: &'a Value, at: &At) -> Result<&'a [Value], CliError> {
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| at.fail(format!("must be a list […], not {}", kind(v))))
}

/// Report fields are closed: a misspelt optional field ("alley") must not pass unnoticed.
fn only(map: &Map<String, Value>, allowed: &[&str], at: &At) -> Result<(), CliError> {
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(key) => Err(at
            .field(key)
            .fail(format!("unknown field (expected {})", allowed.join(", ")))),
        None => Ok(()),
    }
}

fn required<'a>(map: &'a Map<String, Value>, key: &str, at: &At) -> Result<&'a Value, CliError> {
    map.get(key).ok_or_else(|| at.field(key).fail("is missing"))
}

/// Missing and `null` both mean "none".
fn optional<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

fn string<'a>(v: &'a Value, at: &At) -> Result<&'a str, CliError> {
    v.as_str()
        .ok_or_else(|| at.fail(format!("must be a string, not {}", kind(v))))
}

fn count(v: &Value, at: &At) -> Result<u32, CliError> {
    let whole = match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            // 3.0 is a whole number too; 2.5 and -1 are not.
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= f64::from(u32::MAX))
                .map(|f| f as u64)
        }),
        _ => None,
    };
    whole
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| at.fail(format!("must be a whole number from 0 up, not {}", kind(v))))
}

fn name(v: &Value, at: &At) -> Result<PlayerName, CliError> {
    PlayerName::parse(string(v, at)?).map_err(|e| at.fail(e.to_string()))
}

fn faction(v: &Value, at: &At) -> Result<Faction, CliError> {
    string(v, at)?
        .parse()
        .map_err(|e: dune::faction::UnknownFaction| at.fail(e.to_string()))
}

/// Reads the game-report JSON of `mentat standings` (docs/cli.md).
///
/// Well-formed reports take a direct serde path; anything it refuses is read again by the
/// hand-written walker below, which accepts a little more (whole numbers written `3.0`,
/// `null` for an absent block) and, when the input is wrong, says where. The walker decides;
/// the direct path only accepts what the walker would read the same way.
pub fn parse_report(json: &str) -> Result<Report, CliError> {
    if let Ok(fast) = serde_json::from_str::<fast::Report>(json) {
        return Ok(fast.into());
    }
    parse_report_slowly(json)
}

/// Strict mirrors of the report types for the direct path: closed field sets, exact types.
mod fast {
    use serde::Deserialize;

    use crate::options::RulingOptions;
    use crate::player::PlayerName;
    use crate::report::{self, Ending};
    use crate::ruleset::Ruleset;
    use crate::tiebreakers::Tiebreakers;
    use dune::faction::Faction;
    use dune::win_type::WinType;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(super) struct Report {
        #[serde(default)]
        ruleset: Ruleset,
        #[serde(default)]
        options: RulingOptions,
        games: Vec<Game>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Game {
        round: u32,
        table: u32,
        ended: Ending,
        #[serde(default)]
        last_turn: Option<u32>,
        seats: Vec<Seat>,
        #[serde(default)]
        judge_draw: Option<PlayerName>,
        #[serde(default)]
        prediction: Option<report::Prediction>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Seat {
        player: PlayerName,
        faction: Faction,
        #[serde(default)]
        ally: Option<Faction>,
        #[serde(default)]
        result: Option<WinType>,
        win_attempts: u32,
        strongholds: u32,
        forces: u32,
        spice: u32,
        cards: u32,
        leaders: u32,
    }

    impl From<Report> for report::Report {
        fn from(r: Report) -> report::Report {
            report::Report {
                ruleset: r.ruleset,
                options: r.options,
                games: r
                    .games
                    .into_iter()
                    .map(|g| report::GameReport {
                        round: g.round,
                        table: g.table,
                        ended: g.ended,
                        last_turn: g.last_turn,
                        judge_draw: g.judge_draw,
                        prediction: g.prediction,
                        seats: g
                            .seats
                            .into_iter()
                            .map(|s| report::SeatReport {
                                player: s.player,
                                faction: s.faction,
                                ally: s.ally,
                                result: s.result,
                                tiebreakers: Tiebreakers::from_array([
                                    s.win_attempts,
                                    s.strongholds,
                                    s.forces,
                                    s.spice,
                                    s.cards,
                                    s.leaders,
                                ]),
                            })
                            .collect(),
                    })
                    .collect(),
            }
        }
    }
}

fn parse_report_slowly(json: &str) -> Result<Report, CliError> {
    let root: Value = serde_json::from_str(json).map_err(|error| CliError::Json {
        what: "report",
        error,
    })?;
    let at = At::new("report");
    let top = object(&root, &at)?;
    only(top, &["ruleset", "options", "games"], &at)?;
    let ruleset = match optional(top, "ruleset") {
        None => Ruleset::default(),
        Some(v) => {
            let at = at.field("ruleset");
            string(v, &at)?
                .parse()
                .map_err(|e: crate::ruleset::UnknownRuleset| at.fail(e.to_string()))?
        }
    };
    let options = match optional(top, "options") {
        None => RulingOptions::default(),
        Some(v) => serde_json::from_value(v.clone())
            .map_err(|e| at.field("options").fail(e.to_string()))?,
    };
    let games = array(required(top, "games", &at)?, &at.field("games"))?;
    let games = games
        .iter()
        .enumerate()
        .map(|(i, g)| parse_game(g, &at.with(format!("game {}", i + 1))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Report {
        ruleset,
        options,
        games,
    })
}

fn parse_game(v: &Value, at: &At) -> Result<GameReport, CliError> {
    let game = object(v, at)?;
    only(game, &GAME_FIELDS, at)?;
    let round = count(required(game, "round", at)?, &at.field("round"))?;
    let table = count(required(game, "table", at)?, &at.field("table"))?;
    // From here on the judge's own words locate the problem.
    let at = At::new(format!("round {round}")).with(format!("table {table}"));
    let ended_at = at.field("ended");
    let ended = match string(required(game, "ended", &at)?, &ended_at)? {
        "win" => Ending::Win,
        "time" => Ending::Time,
        "turns" => Ending::Turns,
        other => {
            return Err(ended_at.fail(format!(
                "must be \"win\", \"time\" or \"turns\", not {other:?}"
            )));
        }
    };
    let judge_draw = optional(game, "judge_draw")
        .map(|v| name(v, &at.field("judge_draw")))
        .transpose()?;
    let last_turn = optional(game, "last_turn")
        .map(|v| count(v, &at.field("last_turn")))
        .transpose()?;
    let prediction = optional(game, "prediction")
        .map(|v| {
            let p_at = at.field("prediction");
            let p = object(v, &p_at)?;
            only(p, &["faction", "turn"], &p_at)?;
            Ok::<_, CliError>(crate::report::Prediction {
                faction: faction(required(p, "faction", &p_at)?, &p_at.field("faction"))?,
                turn: count(required(p, "turn", &p_at)?, &p_at.field("turn"))?,
            })
        })
        .transpose()?;
    let seats = array(required(game, "seats", &at)?, &at.field("seats"))?
        .iter()
        .enumerate()
        .map(|(j, s)| parse_seat(s, &at, j))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(GameReport {
        round,
        table,
        ended,
        last_turn,
        seats,
        judge_draw,
        prediction,
    })
}

fn parse_seat(v: &Value, game_at: &At, index: usize) -> Result<SeatReport, CliError> {
    let seat_at = game_at.with(format!("seat {}", index + 1));
    let seat = object(v, &seat_at)?;
    let player = name(
        required(seat, "player", &seat_at)?,
        &seat_at.field("player"),
    )?;
    let at = game_at.with(format!("player {player}"));
    only(seat, &SEAT_FIELDS, &at)?;
    let faction = faction(required(seat, "faction", &at)?, &at.field("faction"))?;
    let ally = optional(seat, "ally")
        .map(|v| self::faction(v, &at.field("ally")))
        .transpose()?;
    let result = optional(seat, "result")
        .map(|v| {
            let at = at.field("result");
            string(v, &at)?
                .parse::<WinType>()
                .map_err(|e| at.fail(e.to_string()))
        })
        .transpose()?;
    let mut values = [0u32; 6];
    for (slot, category) in values.iter_mut().zip(Category::ALL) {
        let field = category.field();
        *slot = count(required(seat, field, &at)?, &at.field(field))?;
    }
    Ok(SeatReport {
        player,
        faction,
        ally,
        result,
        tiebreakers: Tiebreakers::from_array(values),
    })
}

/// Reads `--history`: a JSON list of earlier `mentat draw` outputs, oldest first. Only
/// `tables[].seats[].player` and `.faction` are read; other fields are ignored, so a draw output
/// can be passed back as it is, and under `full` the judge may fill in each `faction` picked.
pub fn parse_history(json: &str) -> Result<History, CliError> {
    let root: Value = serde_json::from_str(json).map_err(|error| CliError::Json {
        what: "history",
        error,
    })?;
    let at = At::new("history");
    let rounds = root.as_array().ok_or_else(|| {
        at.fail(format!(
            "must be a list of earlier `mentat draw` outputs, not {}",
            kind(&root)
        ))
    })?;
    let mut history = History::default();
    for (r, round) in rounds.iter().enumerate() {
        let at = at.with(format!("earlier round {}", r + 1));
        let round = object(round, &at)?;
        let tables = array(required(round, "tables", &at)?, &at.field("tables"))?;
        let mut past = PastRound::default();
        for (t, table) in tables.iter().enumerate() {
            let at = at.with(format!("table {}", t + 1));
            let table = object(table, &at)?;
            let seats = array(required(table, "seats", &at)?, &at.field("seats"))?;
            let mut past_table = PastTable::default();
            for (k, seat) in seats.iter().enumerate() {
                let at = at.with(format!("seat {}", k + 1));
                let seat = object(seat, &at)?;
                let player = name(required(seat, "player", &at)?, &at.field("player"))?;
                let faction = optional(seat, "faction")
                    .map(|v| faction(v, &at.field("faction")))
                    .transpose()?;
                past_table.seats.push(PastSeat { player, faction });
            }
            past.tables.push(past_table);
        }
        history.push(past);
    }
    Ok(history)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = include_str!("../../tests/data/report.json");

    /// The direct path must read every report it accepts exactly as the walker does.
    #[test]
    fn both_paths_agree() {
        let variants = [
            REPORT.to_owned(),
            REPORT.replacen(r#""ruleset":"gc-2.13.3","#, "", 1),
            REPORT.replacen(
                r#""ruleset":"gc-2.13.3","#,
                r#""ruleset":"full","options":{"finals_seats":4,"table_fallback":"byes"},"#,
                1,
            ),
            REPORT.replace(r#""ally":null,"#, ""),
            REPORT.replace(r#""result":null,"#, ""),
            REPORT.replace(r#""faction":"AT""#, r#""faction":"at""#),
            REPORT.replacen(
                r#""ended":"time","#,
                r#""ended":"time","judge_draw":"Bob","#,
                1,
            ),
            REPORT.replacen(
                r#""ended":"time","#,
                r#""ended":"time","judge_draw":null,"#,
                1,
            ),
            REPORT.replacen(r#""player":"Alice""#, r#""player":"  Alice ""#, 1),
        ];
        for text in variants {
            let fast: Report = serde_json::from_str::<fast::Report>(&text)
                .expect("direct path reads it")
                .into();
            let slow = parse_report_slowly(&text).expect("walker reads it");
            assert_eq!(fast, slow, "{text}");
        }
        // The walker alone accepts these, and reads them as the plain report.
        let plain = parse_report(REPORT).unwrap();
        for text in [
            REPORT.replacen(r#""win_attempts":2,"#, r#""win_attempts":2.0,"#, 1),
            REPORT.replacen(
                r#""ruleset":"gc-2.13.3","#,
                r#""ruleset":null,"options":null,"#,
                1,
            ),
        ] {
            assert!(serde_json::from_str::<fast::Report>(&text).is_err());
            assert_eq!(parse_report(&text).unwrap(), plain);
        }
    }
}
