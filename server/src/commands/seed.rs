//! `mentat seed [--players N] [--rounds R] [--open-round]`: a large event for load tests and
//! benchmarks (script/bench, script/faults): N players checked in, R rounds drawn and begun with
//! every report final, optionally one more round drawn and begun with no report yet, and a head
//! judge account with a fresh password. Prints what a load generator needs as one JSON object:
//! the event's address, a player, the head judge's sign-in and the server functions' addresses.
//!
//! Every write goes through the `db` crate as the pages make it (transactions, audit log), but
//! without the HTTP round trips, so 300 players and 4 rounds take seconds.

use db::{
    PgPool,
    accounts::{NewUser, UserName},
    password::Password,
    results::reports::{Draft, SeatResult},
    roles::Actor,
    rounds::NewRound,
};
use leptos::server_fn::ServerFn;
use serde::Serialize;
use tournament::ids::{PlayerId, Revision, RoundNumber};
use tournament::{EndValues, WinType, report::Ending};

use crate::{config, database, error::StartupError};

#[derive(Debug, Clone)]
pub struct Options {
    pub players: usize,
    pub rounds: i32,
    /// Draw and begin one more round and leave its reports to be written.
    pub open_round: bool,
}

/// What was made, as printed.
#[derive(Debug, Clone, Serialize)]
pub struct Seeded {
    pub event_id: i64,
    pub slug: String,
    pub players: usize,
    pub rounds: i32,
    /// A player in the middle of the field, for the player page.
    pub player_id: i64,
    pub head_judge: String,
    pub password: String,
    /// The round whose reports are still to be written (`--open-round`), and its tables.
    pub open_round: Option<i32>,
    pub open_tables: Vec<OpenTable>,
    /// Addresses of the server functions a load generator calls.
    pub sign_in_path: &'static str,
    pub save_report_path: &'static str,
    pub finalise_report_path: &'static str,
}

/// A table of the open round: who sits where, so a report can be written for it.
#[derive(Debug, Clone, Serialize)]
pub struct OpenTable {
    pub round: i32,
    pub number: i32,
    /// (player id, faction code) in seat order.
    pub seats: Vec<(i64, String)>,
}

pub fn run(options: &Options) -> Result<(), StartupError> {
    let url = config::database_url()?;
    super::runtime()?.block_on(async {
        let pool = database::connect(&url).await?;
        database::migrate(&pool, &url).await?;
        let seeded = create(&pool, options).await?;
        println!(
            "{}",
            serde_json::to_string(&seeded).map_err(|e| failed("printing", e))?
        );
        Ok(())
    })
}

fn failed(step: &str, error: impl std::fmt::Display) -> StartupError {
    StartupError::Config(format!("seeding the event failed while {step}: {error}"))
}

/// A small deterministic generator: the same options make the same event.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((self.0 >> 33) % u64::try_from(n.max(1)).unwrap_or(1)).unwrap_or(0)
    }

    fn small(&mut self, n: u32) -> u32 {
        u32::try_from(self.below(usize::try_from(n).unwrap_or(1))).unwrap_or(0)
    }
}

const FIRST: [&str; 24] = [
    "Amara",
    "Benedikt",
    "Carmen",
    "Dmitri",
    "Eleanor",
    "Farid",
    "Grace",
    "Hiroshi",
    "Ingrid",
    "Jamal",
    "Katarzyna",
    "Luis",
    "Maximilian",
    "Nadia",
    "Oluwaseun",
    "Priya",
    "Quentin",
    "Rosalind",
    "Sebastián",
    "Thandiwe",
    "Ulrich",
    "Valentina",
    "Wilhelmina",
    "Xavier",
];
const LAST: [&str; 16] = [
    "Okafor",
    "Whitaker",
    "Ruiz-Castellanos",
    "Volkov",
    "Marsh",
    "Haddad",
    "Liu",
    "Tanaka",
    "Johannsdottir",
    "Abernathy",
    "Wiśniewska",
    "Fernández",
    "Lindqvist",
    "Oyelaran",
    "Venkataraman",
    "Delacroix-Moreau",
];

/// Names as long and as varied as an event's: the standings must fit them on a phone.
fn name(i: usize) -> String {
    let (first, last) = (FIRST[i % FIRST.len()], LAST[(i / FIRST.len()) % LAST.len()]);
    match i / (FIRST.len() * LAST.len()) {
        0 => format!("{first} {last}"),
        n => format!("{first} {last} {}", n + 1),
    }
}

fn fresh_password() -> String {
    let mut bytes = [0u8; 12];
    if let Ok(mut f) = std::fs::File::open("/dev/urandom") {
        use std::io::Read;
        let _ = f.read_exact(&mut bytes);
    }
    let salt = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    bytes
        .iter()
        .enumerate()
        .map(|(i, b)| format!("{:02x}", b ^ (salt >> (i * 8)) as u8))
        .collect()
}

/// A plausible report: most tables a solo stronghold win, every fourth an allied one, every
/// fifth stopped by the clock. Forces differ at every seat, so adjudication never needs a draw.
pub fn draft(seats: &[(PlayerId, dune::Faction)], table: usize, seed: u64) -> Draft {
    let mut rng = Lcg(seed ^ (table as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let n = seats.len();
    let winner = rng.below(n);
    let partner = (winner + 1) % n;
    let (ended, allied) = match table % 20 {
        0 | 5 | 10 | 15 => (Ending::Time, false),
        4 | 8 | 12 | 16 => (Ending::Win, true),
        _ => (Ending::Win, false),
    };
    Draft {
        ended,
        last_turn: if ended == Ending::Time { 7 } else { 6 },
        seats: seats
            .iter()
            .enumerate()
            .map(|(i, &(player_id, faction))| {
                let ally = match (allied, i) {
                    (true, i) if i == winner => Some(seats[partner].1),
                    (true, i) if i == partner => Some(seats[winner].1),
                    _ => None,
                };
                let result = match (ended, allied) {
                    (Ending::Win, false) if i == winner => Some(WinType::SoloStronghold),
                    (Ending::Win, true) if i == winner || i == partner => {
                        Some(WinType::AlliedStronghold)
                    }
                    _ => None,
                };
                SeatResult {
                    player_id,
                    faction,
                    ally,
                    result,
                    end: EndValues {
                        strongholds: match (result, ally) {
                            (Some(_), Some(_)) => 2,
                            (Some(_), None) => 3,
                            // Nobody else near a stronghold victory (1.09.02), and no more
                            // strongholds at the table than the map has.
                            _ if ended == Ending::Win => 0,
                            _ => rng.small(2),
                        },
                        forces: rng.small(3) * 6 + u32::try_from(i).unwrap_or(0),
                        spice: dune::Spice::new(rng.small(20)),
                        cards: rng.small(5),
                        leaders: 1 + rng.small(5),
                    },
                }
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    }
}

pub async fn create(pool: &PgPool, options: &Options) -> Result<Seeded, StartupError> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let head_judge = format!("bench-judge-{stamp}");
    let password = fresh_password();
    let new = NewUser {
        username: UserName::parse(&head_judge).map_err(|e| failed("naming the judge", e))?,
        email: None,
        password: Password::new_choice(password.clone())
            .map_err(|e| failed("choosing a password", e))?,
        // An administrator acts as the event's organiser and head judge.
        is_admin: true,
    };
    let user_id = db::accounts::create_user(pool, new, None)
        .await
        .map_err(|e| failed("creating the head judge", e))?;
    let actor = Actor {
        user_id,
        username: head_judge.clone(),
        is_admin: true,
    };
    let event = db::events::create(pool, &actor, &format!("Load Test Qualifier {stamp}"))
        .await
        .map_err(|e| failed("creating the event", e))?;
    let total_rounds = options.rounds + i32::from(options.open_round);
    sqlx::query(
        "UPDATE events SET qualifying_rounds = greatest(qualifying_rounds, $2) WHERE id = $1",
    )
    .bind(event.id)
    .bind(total_rounds)
    .execute(pool)
    .await
    .map_err(|e| failed("setting the rounds", e))?;
    let csv: String = (0..options.players)
        .map(|i| format!("{},e{i}@example.org,Club {}\n", name(i), i % 12))
        .collect();
    db::players::import_csv(pool, &actor, event.id, &csv)
        .await
        .map_err(|e| failed("registering the players", e))?;
    db::players::check_in_all(pool, &actor, event.id)
        .await
        .map_err(|e| failed("checking the players in", e))?;
    let mut open_tables = Vec::new();
    for number in (1..=total_rounds).map(RoundNumber) {
        db::rounds::start(
            pool,
            &actor,
            event.id,
            NewRound {
                number,
                seed: Some(u64::try_from(number.get()).unwrap_or_default() + 100),
                fallback: None,
                override_reason: None,
            },
        )
        .await
        .map_err(|e| failed(&format!("drawing round {number}"), e))?;
        let round = db::rounds::detail(pool, event.id, number)
            .await
            .map_err(|e| failed("reading the round", e))?
            .ok_or_else(|| failed("reading the round", "it is missing"))?;
        db::rounds::begin(pool, &actor, event.id, number, round.round.version)
            .await
            .map_err(|e| failed("beginning the round", e))?;
        for (i, table) in round.tables.iter().enumerate() {
            let seats: Vec<(PlayerId, dune::Faction)> = table
                .seats
                .iter()
                .filter_map(|s| Some((s.player_id, s.faction?)))
                .collect();
            if number.get() > options.rounds {
                open_tables.push(OpenTable {
                    round: number.get(),
                    number: table.number.get(),
                    seats: seats
                        .iter()
                        .map(|&(p, f)| (p.get(), f.code().to_owned()))
                        .collect(),
                });
                continue;
            }
            let draft = draft(&seats, i, u64::try_from(number.get()).unwrap_or(0));
            let revision = db::results::reports::save(
                pool,
                &actor,
                true,
                event.id,
                number,
                table.number,
                Revision::NONE,
                &draft,
                None,
            )
            .await
            .map_err(|e| failed(&format!("reporting table {}", table.number), e))?;
            db::results::reports::finalise(pool, &actor, event.id, number, table.number, revision)
                .await
                .map_err(|e| failed("finalising a report", e))?;
        }
    }
    let player_id: i64 =
        sqlx::query_scalar("SELECT id FROM players WHERE event_id = $1 AND name = $2")
            .bind(event.id)
            .bind(name(options.players / 2))
            .fetch_one(pool)
            .await
            .map_err(|e| failed("finding a player", e))?;
    Ok(Seeded {
        event_id: event.id.get(),
        slug: event.slug,
        players: options.players,
        rounds: options.rounds,
        player_id,
        head_judge,
        password,
        open_round: options.open_round.then_some(total_rounds),
        open_tables,
        sign_in_path: app::auth::SignIn::PATH,
        save_report_path: app::results::SaveReport::PATH,
        finalise_report_path: app::results::FinaliseReport::PATH,
    })
}
