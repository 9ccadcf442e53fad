//! `mentat demo [--seed N] [--base-url URL]`: a realistic sample event, so a newcomer who has
//! just started Mentat sees a live event a minute later.
//!
//! It creates "Demo Qualifier <date> #<n>": 30 players (a few with clubs), checked in; three
//! rounds drawn and begun with their table clocks running; win attempts at a few Battle phases
//! per table; final game reports for rounds 1-2 and most of round 3 (confirmed by the players,
//! one disputed and finalised by the head judge, one corrected, one stopped by the clock and
//! adjudicated, one played to the end of turn 10); two round-3 reports still awaiting
//! confirmation. A head judge account and a player account (linked to a player whose round-3
//! report waits for them) get fresh random passwords, printed once.
//!
//! Every write goes through the `db` crate, exactly as the pages would make it: in transactions,
//! in the audit log. The event's organiser is the site administrator `mentat-demo`, created on
//! the first run with a random password nobody is told. `--seed` repeats the draws and results.

use std::fmt::Write as _;

use db::{
    PgPool,
    accounts::{self, CreateUserError, NewUser, UserName},
    clocks, events,
    password::Password,
    players::{self, NewPlayer},
    results::{
        attempts::{Attempt, TurnEntry},
        reports::{self, Answerer, Draft, SeatResult},
    },
    roles::{self, Actor, Role},
    rounds::{self, NewRound, TableInfo},
};
use tournament::{Faction, WinType, report::Ending};

use crate::{config, database, error::StartupError};

/// What the command line asked for.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub seed: Option<u64>,
    pub base_url: Option<String>,
}

/// The site administrator who owns the demo events.
const SYSTEM_ACCOUNT: &str = "mentat-demo";
/// Every demo event's address starts so; the run number follows the date.
const SLUG_PREFIX: &str = "demo-qualifier-";
const PLAYERS: usize = 30;
const ROUNDS: i32 = 3;
/// Stronghold codes a judge writes as evidence of a win attempt (ruling 6).
const STRONGHOLDS: [&str; 5] = ["AK", "CA", "ST", "HS", "TS"];

/// Made-up players; a seeded shuffle picks thirty.
const NAMES: [&str; 44] = [
    "Amara Okafor",
    "Ben Whitaker",
    "Carmen Ruiz",
    "Dmitri Volkov",
    "Eleanor Marsh",
    "Farid Haddad",
    "Grace Liu",
    "Hiroshi Tanaka",
    "Ingrid Solberg",
    "Jamal Carter",
    "Keiko Mori",
    "Liam O'Connor",
    "Maya Patel",
    "Nikolai Petrov",
    "Olivia Bennett",
    "Pedro Alves",
    "Quinn Harper",
    "Rosa Delgado",
    "Samir Nasser",
    "Tessa Lindqvist",
    "Umar Siddiqui",
    "Valentina Rossi",
    "Wes Donnelly",
    "Xiao Chen",
    "Yusuf Demir",
    "Zoe Castellanos",
    "Aaron Feldman",
    "Bianca Moretti",
    "Callum Fraser",
    "Daniela Kowalski",
    "Emeka Eze",
    "Freya Nilsen",
    "Gustavo Pereira",
    "Hannah Schulz",
    "Ibrahim Diallo",
    "Julia Novak",
    "Kwame Mensah",
    "Lena Hoffmann",
    "Marcus Reid",
    "Noor Al-Amin",
    "Oscar Lindgren",
    "Priya Raman",
    "Rafael Ortega",
    "Siobhan Kelly",
];

const CLUBS: [&str; 3] = [
    "Indy Spice Traders",
    "Sietch Chicago",
    "Caladan Gaming Club (Columbus)",
];

/// A sign-in the demo made, with its password in clear: printed once, stored only hashed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    pub username: String,
    pub password: String,
}

/// What the demo created, for printing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Demo {
    pub seed: u64,
    pub event_id: i64,
    pub name: String,
    pub slug: String,
    pub players: usize,
    pub rounds: i32,
    pub qualifying_rounds: i32,
    pub tables: usize,
    pub final_reports: usize,
    pub head_judge: Login,
    pub player: Login,
    pub player_id: i64,
    pub player_name: String,
    /// The linked player's table in the last round, where their confirmation is awaited.
    pub player_table: i32,
    /// One line per table: what happened there.
    pub tables_told: Vec<String>,
}

pub fn run(options: &Options) -> Result<(), StartupError> {
    let base = base_url(options.base_url.as_deref())?;
    let url = config::database_url()?;
    let seed = match options.seed {
        Some(seed) => seed,
        None => 1 + random_u64() % 999_999,
    };
    let demo = super::runtime()?.block_on(async {
        let pool = database::connect(&url).await?;
        database::migrate(&pool, &url).await?;
        create(&pool, seed).await
    })?;
    print!("{}", demo.describe(&base));
    Ok(())
}

/// The address people open Mentat at: `--base-url`, else the first of MENTAT_PUBLIC_URL, else
/// the address `mentat serve` listens on (LEPTOS_SITE_ADDR or PORT, as in `config`).
fn base_url(given: Option<&str>) -> Result<String, StartupError> {
    if let Some(url) = given {
        let url = url.trim().trim_end_matches('/');
        let host = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"));
        return match host {
            Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => {
                Ok(url.to_owned())
            }
            _ => Err(StartupError::Config(format!(
                "--base-url {url:?} is not a web address. Give the address people open Mentat at, \
                 such as https://mentat.example.org or http://127.0.0.1:3000."
            ))),
        };
    }
    let config = config::Config::from_env()?;
    if let Some(origin) = config.web.public_origins.first() {
        return Ok(origin.clone());
    }
    let mut addr = config.site_addr;
    // Serving on every interface: this machine's own browser reaches it on loopback.
    if addr.ip().is_unspecified() {
        addr.set_ip(if addr.is_ipv4() {
            std::net::Ipv4Addr::LOCALHOST.into()
        } else {
            std::net::Ipv6Addr::LOCALHOST.into()
        });
    }
    Ok(format!("http://{addr}"))
}

impl Demo {
    /// The page printed after a run: addresses, sign-ins, what happened at the tables.
    pub fn describe(&self, base: &str) -> String {
        let event = format!("{base}/events/{}", self.slug);
        let awaiting = self.tables - self.final_reports;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Created the demo event \"{}\" (seed {}):",
            self.name, self.seed
        );
        let _ = writeln!(
            out,
            "  {} players checked in; {} of {} qualifying rounds drawn and begun, table clocks running;",
            self.players, self.rounds, self.qualifying_rounds
        );
        let _ = writeln!(
            out,
            "  {} of {} game reports final, {} in round {} awaiting the players' confirmation.",
            self.final_reports, self.tables, awaiting, self.rounds
        );
        let _ = writeln!(out);
        let _ = writeln!(out, "Open in a browser:");
        let _ = writeln!(out, "  Event page   {event}");
        let _ = writeln!(out, "  Standings    {event}/standings");
        let _ = writeln!(
            out,
            "  Find me      {event}/find   (what players open on their phones)"
        );
        let _ = writeln!(
            out,
            "  Dashboard    {event}/run    (the head judge's; sign in first)"
        );
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Sign in at {base}/signin. The passwords are shown only this once:"
        );
        let width = self
            .head_judge
            .username
            .len()
            .max(self.player.username.len());
        let _ = writeln!(
            out,
            "  head judge  user {:<width$}  password {}",
            self.head_judge.username, self.head_judge.password
        );
        let _ = writeln!(
            out,
            "  player      user {:<width$}  password {}",
            self.player.username, self.player.password
        );
        let _ = writeln!(
            out,
            "              (plays as {}; the report of round {}, table {} waits for their confirmation)",
            self.player_name, self.rounds, self.player_table
        );
        let _ = writeln!(
            out,
            "              ({}'s phone page: {event}/find/{})",
            self.player_name, self.player_id
        );
        let _ = writeln!(out);
        let _ = writeln!(out, "At the tables:");
        for line in &self.tables_told {
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "The same draws and results again, in a new event: mentat demo --seed {}",
            self.seed
        );
        out
    }
}

/// A paragraph for a failed step: what the demo was doing, why it failed, what to do.
fn failed<E: std::error::Error>(step: impl Into<String>) -> impl FnOnce(E) -> StartupError {
    let step = step.into();
    move |e| {
        let mut cause = e.to_string();
        let mut source = e.source();
        while let Some(inner) = source {
            let text = inner.to_string();
            if !cause.contains(&text) {
                cause.push_str(": ");
                cause.push_str(&text);
            }
            source = inner.source();
        }
        StartupError::Config(format!(
            "the demo stopped while {step}: {cause}. What it created before that stays in the \
             database and does no harm (at most a half-filled demo event); fix the cause and run \
             `mentat demo` again."
        ))
    }
}

fn bug(step: &str, what: &str) -> StartupError {
    StartupError::Config(format!(
        "the demo stopped while {step}: {what}. This is a bug in `mentat demo`; please report it \
         with the seed it printed or was given."
    ))
}

/// Seeded randomness for everything that should repeat (SplitMix64: small, fast, enough).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed ^ 0x6d65_6e74_6174_2121)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// 0..n (0 when n is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// lo..=hi.
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi.saturating_sub(lo) + 1)) as u32
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// `k` different items of `from`, in random order.
    fn pick<T: Copy>(&mut self, from: &[T], k: usize) -> Vec<T> {
        let mut all = from.to_vec();
        self.shuffle(&mut all);
        all.truncate(k);
        all
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Each round's draw seed, from the demo's seed; below 2^53 like the seeds Mentat draws itself.
fn round_seed(seed: u64, round: i32) -> u64 {
    mix(seed ^ mix(u64::from(round.unsigned_abs()))) & ((1 << 53) - 1)
}

/// Unpredictable bytes for passwords (and a seed when none is given).
fn random_bytes(buf: &mut [u8]) {
    use std::io::Read;
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(buf));
    if read.is_err() {
        // std's hasher keys come from the operating system's randomness.
        use std::hash::{BuildHasher, RandomState};
        for (i, chunk) in buf.chunks_mut(8).enumerate() {
            let value = RandomState::new().hash_one((i, std::time::SystemTime::now()));
            for (b, v) in chunk.iter_mut().zip(value.to_le_bytes()) {
                *b = v;
            }
        }
    }
}

fn random_u64() -> u64 {
    let mut buf = [0u8; 8];
    random_bytes(&mut buf);
    u64::from_le_bytes(buf)
}

/// 16 characters from 32 that cannot be mistaken for each other (80 bits), in groups of four
/// so they are easy to type on a phone: `k7qm-x3pt-9vzr-h2wd`.
fn fresh_password() -> String {
    const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut buf = [0u8; 16];
    random_bytes(&mut buf);
    let mut out = String::with_capacity(19);
    for (i, b) in buf.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(char::from(ALPHABET[usize::from(*b % 32)]));
    }
    out
}

/// Creates an account named `base` (or `base-2`, `base-3`, … when taken) with a fresh password.
async fn new_account(
    pool: &PgPool,
    base: &str,
    is_admin: bool,
    by: Option<&Actor>,
) -> Result<(Actor, String), StartupError> {
    let step = format!("creating the account {base}");
    for attempt in 1..=20 {
        let name = if attempt == 1 {
            base.to_owned()
        } else {
            format!("{base}-{attempt}")
        };
        let username = UserName::parse(&name).map_err(|m| bug(&step, &m))?;
        let password = fresh_password();
        let new = NewUser {
            username,
            email: None,
            password: Password::new_choice(password.clone()).map_err(|m| bug(&step, &m))?,
            is_admin,
        };
        match accounts::create_user(pool, new, by).await {
            Ok(user_id) => {
                return Ok((
                    Actor {
                        user_id,
                        username: name,
                        is_admin,
                    },
                    password,
                ));
            }
            Err(CreateUserError::UsernameTaken(_)) => continue,
            Err(e) => return Err(failed(step)(e)),
        }
    }
    Err(bug(&step, "twenty user names in a row are taken"))
}

/// The administrator who owns the demo events: the one an earlier demo used, or a new one.
async fn system_actor(pool: &PgPool, events: &[events::Event]) -> Result<Actor, StartupError> {
    for event in events.iter().filter(|e| e.slug.starts_with(SLUG_PREFIX)) {
        let staff = roles::staff(pool, event.id)
            .await
            .map_err(failed("reading the staff of an earlier demo event"))?;
        let owner = staff.iter().find(|m| {
            m.role == Role::Organiser
                && (m.username == SYSTEM_ACCOUNT
                    || m.username.starts_with(&format!("{SYSTEM_ACCOUNT}-")))
        });
        if let Some(owner) = owner {
            let actor = accounts::actor(pool, owner.user_id)
                .await
                .map_err(failed("reading the demo's administrator account"))?;
            if let Some(actor) = actor.filter(|a| a.is_admin) {
                return Ok(actor);
            }
        }
    }
    // Its password is never shown: nobody signs in as it, it only owns the demo events.
    Ok(new_account(pool, SYSTEM_ACCOUNT, true, None).await?.0)
}

/// The run number after the highest one in the existing demo events' addresses.
fn next_number(events: &[events::Event]) -> u32 {
    events
        .iter()
        .filter_map(|e| e.slug.strip_prefix(SLUG_PREFIX))
        .filter_map(|rest| rest.rsplit('-').next()?.parse::<u32>().ok())
        .max()
        .map_or(1, |n| n.saturating_add(1))
}

/// How a table's game ends, as planned for the demo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    /// Solo Stronghold Victory.
    Solo,
    /// Allied Stronghold Victory.
    Allied,
    /// The Bene Gesserit's prediction comes true.
    Prediction,
    /// Stopped by the clock: no results, Mentat adjudicates (4.01.09).
    Clock,
    /// Played to the end of turn 10: the Guild's default or the Fremen special (1.09.05).
    LastTurn,
}

/// What happens to the report after it is saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Finish {
    /// Every seated player confirms: final.
    Confirmed,
    /// Confirmed, then corrected by the head judge (revision 2, with a reason).
    Corrected,
    /// A player disputes it; the head judge makes it final (4.01.05).
    Disputed,
    /// Only some players have confirmed yet.
    Awaiting { confirmed: usize },
}

const PLANS: [[Plan; 5]; 2] = [
    [
        Plan::Solo,
        Plan::Allied,
        Plan::Clock,
        Plan::Solo,
        Plan::Allied,
    ],
    [
        Plan::Allied,
        Plan::LastTurn,
        Plan::Solo,
        Plan::Prediction,
        Plan::Allied,
    ],
];
const FINISHES: [[Finish; 5]; 2] = [
    [
        Finish::Corrected,
        Finish::Confirmed,
        Finish::Confirmed,
        Finish::Confirmed,
        Finish::Confirmed,
    ],
    [
        Finish::Confirmed,
        Finish::Confirmed,
        Finish::Disputed,
        Finish::Confirmed,
        Finish::Confirmed,
    ],
];
const LAST_ROUND_PLANS: [Plan; 5] = [
    Plan::Allied,
    Plan::Solo,
    Plan::Solo,
    Plan::Allied,
    Plan::Solo,
];

/// One seat as dealt.
struct Seat {
    player_id: i64,
    name: String,
    faction: Faction,
}

impl Seat {
    fn label(&self) -> String {
        format!("{} ({})", self.name, self.faction.code())
    }
}

/// A win attempt: the seat index and the strongholds the judge saw.
type Seen = (usize, Vec<&'static str>);

/// A game as the demo imagines it.
struct Game {
    ended: Ending,
    last_turn: i16,
    lines: Vec<SeatResult>,
    /// Per turn: who made a win attempt and the strongholds seen.
    attempts: Vec<(i16, Vec<Seen>)>,
}

/// The first `k` strongholds still free.
fn take(free: &mut Vec<&'static str>, k: usize) -> Vec<&'static str> {
    let k = k.min(free.len());
    free.drain(..k).collect()
}

/// Imagines a plausible game at these seats: alliances, who holds which strongholds, the
/// values of 4.01.11 and the win attempts, consistent with the plan and the validation of
/// `tournament::report`.
fn imagine(plan: Plan, seats: &[Seat], rng: &mut Rng) -> Game {
    let n = seats.len();
    let find = |f: Faction| seats.iter().position(|s| s.faction == f);
    let mut ally: Vec<Option<usize>> = vec![None; n];
    let mut result: Vec<Option<WinType>> = vec![None; n];
    let mut holds: Vec<Vec<&'static str>> = vec![Vec::new(); n];
    let mut free: Vec<&'static str> = STRONGHOLDS.to_vec();
    rng.shuffle(&mut free);
    // Who took part in the deciding win attempt on the last turn.
    let mut deciders: Vec<usize> = Vec::new();

    let plan = match plan {
        Plan::Prediction if find(Faction::BeneGesserit).is_none() => Plan::Solo,
        Plan::LastTurn
            if find(Faction::SpacingGuild).is_none() || find(Faction::Fremen).is_none() =>
        {
            Plan::Solo
        }
        other => other,
    };
    let (ended, last_turn) = match plan {
        Plan::Clock => (Ending::Time, rng.range(5, 7) as i16),
        Plan::LastTurn => (Ending::Turns, 10),
        _ => (Ending::Win, rng.range(4, 9) as i16),
    };
    match plan {
        Plan::Solo => {
            let w = rng.below(n);
            result[w] = Some(WinType::SoloStronghold);
            holds[w] = take(&mut free, 3);
            deciders.push(w);
        }
        Plan::Allied => {
            let pair = rng.pick(&(0..n).collect::<Vec<_>>(), 2);
            if let [a, b] = pair[..] {
                ally[a] = Some(b);
                ally[b] = Some(a);
                result[a] = Some(WinType::AlliedStronghold);
                result[b] = Some(WinType::AlliedStronghold);
                let first = if rng.chance(50) { 2 } else { 3 };
                holds[a] = take(&mut free, first);
                holds[b] = take(&mut free, 4 - first);
                deciders.extend([a, b]);
            }
        }
        Plan::Prediction => {
            let bg = find(Faction::BeneGesserit).unwrap_or(0);
            let others: Vec<usize> = (0..n).filter(|&i| i != bg).collect();
            // The faction the BG predicted takes three strongholds on the predicted turn.
            let x = others[rng.below(others.len())];
            holds[x] = take(&mut free, 3);
            result[bg] = Some(WinType::BgPrediction);
            deciders.push(x);
            if rng.chance(50) {
                let friends: Vec<usize> = others.iter().copied().filter(|&i| i != x).collect();
                let y = friends[rng.below(friends.len())];
                ally[bg] = Some(y);
                ally[y] = Some(bg);
            }
        }
        Plan::LastTurn => {
            let sg = find(Faction::SpacingGuild).unwrap_or(0);
            let fr = find(Faction::Fremen).unwrap_or(0);
            let (winner, solo, allied) = if rng.chance(60) {
                (sg, WinType::SoloDefault, WinType::AlliedDefault)
            } else {
                holds[fr] = vec!["ST", "HS"];
                free.retain(|c| !["ST", "HS"].contains(c));
                (fr, WinType::SoloFremenSpecial, WinType::AlliedFremenSpecial)
            };
            let partners: Vec<usize> = (0..n).filter(|&i| i != sg && i != fr).collect();
            if rng.chance(50) {
                let y = partners[rng.below(partners.len())];
                ally[winner] = Some(y);
                ally[y] = Some(winner);
                result[winner] = Some(allied);
                result[y] = Some(allied);
            } else {
                result[winner] = Some(solo);
            }
        }
        Plan::Clock => {}
    }
    // Other alliances among the players still free to ally.
    let mut unallied: Vec<usize> = (0..n)
        .filter(|&i| ally[i].is_none() && result[i].is_none())
        .filter(|&i| !(plan == Plan::Prediction && deciders.contains(&i)))
        .collect();
    rng.shuffle(&mut unallied);
    let alliances = match plan {
        Plan::Clock => 1 + rng.below(2),
        _ => usize::from(rng.chance(60)),
    };
    for pair in unallied.chunks(2).take(alliances) {
        if let [a, b] = *pair {
            ally[a] = Some(b);
            ally[b] = Some(a);
        }
    }
    // The strongholds left go to the losers, at most one each: nobody else near a win.
    let mut losers: Vec<usize> = (0..n)
        .filter(|&i| result[i].is_none() && !deciders.contains(&i))
        .collect();
    rng.shuffle(&mut losers);
    for i in losers {
        if free.is_empty() {
            break;
        }
        if rng.chance(70) {
            holds[i].extend(take(&mut free, 1));
        }
    }

    let winners: Vec<usize> = (0..n)
        .filter(|&i| result[i].is_some() || deciders.contains(&i))
        .collect();
    let lines = seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let strong = winners.contains(&i);
            let harkonnen = seat.faction == Faction::Harkonnen;
            SeatResult {
                player_id: seat.player_id,
                faction: seat.faction,
                ally: ally[i].map(|a| seats[a].faction),
                result: result[i],
                strongholds: holds[i].len() as u32,
                forces: if strong {
                    rng.range(9, 16)
                } else {
                    rng.range(2, 13)
                },
                spice: if strong {
                    rng.range(6, 24)
                } else {
                    rng.range(0, 18)
                },
                cards: if harkonnen {
                    rng.range(2, 7)
                } else {
                    rng.range(1, 4)
                },
                leaders: rng.range(2, 5),
            }
        })
        .collect();

    // Win attempts: the deciding one on the last turn, a few earlier ones (turns 3-9).
    let mut attempts = Vec::new();
    let last_attempt_turn = last_turn.min(9);
    let decided_now = matches!(plan, Plan::Solo | Plan::Allied | Plan::Prediction);
    let earlier_until = if decided_now {
        last_turn - 1
    } else {
        last_attempt_turn
    };
    let earlier = match plan {
        Plan::Clock | Plan::LastTurn => 2 + rng.below(2),
        _ => rng.below(3),
    };
    let turns: Vec<i16> = (3..=earlier_until).collect();
    let mut turns = rng.pick(&turns, earlier);
    turns.sort_unstable();
    for turn in turns {
        let mut who = vec![rng.below(n)];
        if rng.chance(20) {
            let other = rng.below(n);
            if !who.contains(&other) {
                who.push(other);
            }
        }
        let seen = who
            .into_iter()
            .map(|i| {
                let k = if ally[i].is_some() { 2 } else { 3 };
                (i, rng.pick(&STRONGHOLDS, k))
            })
            .collect();
        attempts.push((turn, seen));
    }
    if decided_now {
        let seen = deciders.iter().map(|&i| (i, holds[i].clone())).collect();
        attempts.push((last_turn, seen));
    }
    Game {
        ended,
        last_turn,
        lines,
        attempts,
    }
}

/// Who the demo acts as, and where.
struct Ctx<'a> {
    pool: &'a PgPool,
    event_id: i64,
    head_judge: &'a Actor,
    player: &'a Actor,
    player_id: i64,
}

/// One line about a game's result: "Solo Stronghold Victory for Ann (HK) on turn 6".
fn result_text(game: &Game, seats: &[Seat]) -> String {
    let winners: Vec<(usize, WinType)> = game
        .lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.result.map(|w| (i, w)))
        .collect();
    let Some(&(_, win)) = winners.first() else {
        return String::from("no result");
    };
    let names: Vec<String> = winners
        .iter()
        .filter_map(|&(i, _)| seats.get(i).map(Seat::label))
        .collect();
    let when = match game.ended {
        Ending::Turns => "at the end of turn 10".to_owned(),
        _ => format!("on turn {}", game.last_turn),
    };
    format!("{} for {} {when}", win.name(), names.join(" and "))
}

/// Plays one table: win attempts, the report, confirmations (or not), and what happens next.
async fn play_table(
    ctx: &Ctx<'_>,
    round: i32,
    table: &TableInfo,
    plan: Plan,
    finish: Finish,
    rng: &mut Rng,
) -> Result<String, StartupError> {
    let label = format!("round {round}, table {}", table.number);
    let seats = table
        .seats
        .iter()
        .map(|s| {
            s.faction
                .map(|faction| Seat {
                    player_id: s.player_id,
                    name: s.player.clone(),
                    faction,
                })
                .ok_or_else(|| bug(&label, "a seat has no faction dealt"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let game = imagine(plan, &seats, rng);
    for (turn, seen) in &game.attempts {
        let entry = TurnEntry {
            turn: *turn,
            base_revision: 0,
            attempts: seen
                .iter()
                .filter_map(|(i, codes)| {
                    Some(Attempt {
                        player_id: seats.get(*i)?.player_id,
                        strongholds: codes.iter().map(|c| (*c).to_owned()).collect(),
                    })
                })
                .collect(),
            reason: None,
        };
        db::results::attempts::record(
            ctx.pool,
            ctx.head_judge,
            true,
            ctx.event_id,
            table.id,
            entry,
        )
        .await
        .map_err(failed(format!(
            "recording the win attempts of {label}, turn {turn}"
        )))?;
    }
    let mut draft = Draft {
        ended: game.ended,
        last_turn: game.last_turn,
        seats: game.lines.clone(),
        judge_draw: None,
    };
    let revision = reports::save(
        ctx.pool,
        ctx.head_judge,
        true,
        ctx.event_id,
        table.id,
        0,
        &draft,
        None,
    )
    .await
    .map_err(failed(format!("saving the game report of {label}")))?;

    let label_ref = label.as_str();
    let answer = |player_id: i64, agrees: bool, note: Option<String>| async move {
        let (actor, answerer) = if player_id == ctx.player_id {
            (ctx.player, Answerer::Player)
        } else {
            (ctx.head_judge, Answerer::Judge)
        };
        reports::answer(
            ctx.pool,
            actor,
            answerer,
            ctx.event_id,
            table.id,
            revision,
            player_id,
            agrees,
            note.as_deref(),
        )
        .await
        .map_err(failed(format!("answering the report of {label_ref}")))
    };

    let mut told = match game.ended {
        Ending::Time => format!(
            "stopped by the clock on turn {}, adjudicated by Mentat (4.01.09)",
            game.last_turn
        ),
        _ => result_text(&game, &seats),
    };
    match finish {
        Finish::Confirmed | Finish::Corrected => {
            for seat in &seats {
                answer(seat.player_id, true, None).await?;
            }
        }
        Finish::Disputed => {
            let losers: Vec<usize> = (0..seats.len())
                .filter(|&i| {
                    game.lines.get(i).is_some_and(|l| l.result.is_none())
                        && seats[i].player_id != ctx.player_id
                })
                .collect();
            let d = losers.get(rng.below(losers.len())).copied().unwrap_or(0);
            let forces = game.lines.get(d).map_or(0, |l| l.forces);
            for (i, seat) in seats.iter().enumerate() {
                if i != d {
                    answer(seat.player_id, true, None).await?;
                }
            }
            let note = format!(
                "I had {} forces on the board at the end, not {forces}; please recount.",
                forces + 2
            );
            answer(seats[d].player_id, false, Some(note)).await?;
            reports::finalise(ctx.pool, ctx.head_judge, ctx.event_id, table.id, revision)
                .await
                .map_err(failed(format!("finalising the report of {label}")))?;
            let _ = write!(
                told,
                "; {} disputed the forces, the head judge recounted and finalised it (4.01.05)",
                seats[d].name
            );
        }
        Finish::Awaiting { confirmed } => {
            let mut waiting = Vec::new();
            let mut done = 0;
            for seat in &seats {
                if done < confirmed && seat.player_id != ctx.player_id {
                    answer(seat.player_id, true, None).await?;
                    done += 1;
                } else {
                    waiting.push(seat.name.as_str());
                }
            }
            let _ = write!(
                told,
                "; report awaiting confirmation ({done} of {}; still to confirm: {})",
                seats.len(),
                waiting.join(", ")
            );
        }
    }
    if finish == Finish::Corrected {
        let losers: Vec<usize> = (0..draft.seats.len())
            .filter(|&i| draft.seats[i].result.is_none())
            .collect();
        let k = losers.get(rng.below(losers.len())).copied().unwrap_or(0);
        let (name, code, was) = match (seats.get(k), draft.seats.get(k)) {
            (Some(seat), Some(line)) => (seat.name.clone(), seat.faction.code(), line.spice),
            _ => return Err(bug(&label, "the report has fewer lines than seats")),
        };
        let now = was + 3;
        if let Some(line) = draft.seats.get_mut(k) {
            line.spice = now;
        }
        let reason = format!(
            "Spice behind {name}'s shield ({code}) recounted with the player after the round: {now}, not {was}."
        );
        reports::save(
            ctx.pool,
            ctx.head_judge,
            true,
            ctx.event_id,
            table.id,
            revision,
            &draft,
            Some(&reason),
        )
        .await
        .map_err(failed(format!("correcting the final report of {label}")))?;
        let _ = write!(
            told,
            "; corrected by the head judge as revision 2 ({name}'s spice)"
        );
    }
    if game.ended == Ending::Time && !matches!(finish, Finish::Awaiting { .. }) {
        let results = reports::table_results(ctx.pool, ctx.event_id, table.id)
            .await
            .map_err(failed(format!("reading the adjudication of {label}")))?;
        let adjudicated: Vec<String> = results
            .outcome
            .map(|o| o.results)
            .unwrap_or_default()
            .iter()
            .filter(|(_, w)| *w == Some(WinType::Adjudicated))
            .filter_map(|(id, _)| seats.iter().find(|s| s.player_id == *id).map(Seat::label))
            .collect();
        let _ = write!(
            told,
            ": Adjudicated Victory for {}",
            adjudicated.join(" and ")
        );
    }
    Ok(format!("{label}: {told}"))
}

/// Creates the whole demo event in `pool`. The same seed gives the same draws and results.
pub async fn create(pool: &PgPool, seed: u64) -> Result<Demo, StartupError> {
    let mut rng = Rng::new(seed);
    let existing = events::list(pool)
        .await
        .map_err(failed("reading the events"))?;
    let admin = system_actor(pool, &existing).await?;

    let date = time::OffsetDateTime::now_utc().date();
    let mut number = next_number(&existing);
    let event = loop {
        let name = format!("Demo Qualifier {date} #{number}");
        match events::create(pool, &admin, &name).await {
            Ok(event) => break event,
            Err(events::CreateEventError::SlugTaken(_)) if number < u32::MAX => number += 1,
            Err(e) => return Err(failed("creating the demo event")(e)),
        }
    };
    let detail = events::detail(pool, event.id)
        .await
        .map_err(failed("reading the event's settings"))?
        .ok_or_else(|| bug("reading the event's settings", "the new event is missing"))?;
    let mut settings = detail.settings.clone();
    settings.venue =
        "Indiana Convention Center, Hall E (a demo: every name in it is made up)".to_owned();
    let day = event.created_at.date_naive();
    settings.starts_on = Some(day);
    settings.ends_on = Some(day);
    let qualifying_rounds = settings.qualifying_rounds.max(ROUNDS);
    settings.qualifying_rounds = qualifying_rounds;
    events::update_settings(pool, &admin, event.id, detail.version, settings)
        .await
        .map_err(failed("setting the event's dates and venue"))?;

    let (head_judge, head_judge_password) = new_account(
        pool,
        &format!("demo-headjudge-{number}"),
        false,
        Some(&admin),
    )
    .await?;
    roles::grant(
        pool,
        &admin,
        event.id,
        &head_judge.username,
        Role::HeadJudge,
    )
    .await
    .map_err(failed("making the head judge"))?;
    let (player, player_password) =
        new_account(pool, &format!("demo-player-{number}"), false, Some(&admin)).await?;

    // Thirty players, a few from clubs.
    let mut names = NAMES.to_vec();
    rng.shuffle(&mut names);
    names.truncate(PLAYERS);
    let club_members = rng.pick(&(0..PLAYERS).collect::<Vec<_>>(), 8);
    let mut registered = Vec::with_capacity(PLAYERS);
    for (i, name) in names.iter().enumerate() {
        let club = match club_members.iter().position(|&m| m == i) {
            Some(k) => CLUBS[k % CLUBS.len()],
            None => "",
        };
        let step = format!("registering {name}");
        let new = NewPlayer::parse(name, "", club).map_err(|p| bug(&step, &p.message))?;
        let added = players::add(pool, &head_judge, event.id, new)
            .await
            .map_err(failed(step))?;
        registered.push(added);
    }
    players::check_in_all(pool, &head_judge, event.id)
        .await
        .map_err(failed("checking the players in"))?;
    let linked = &registered[rng.below(registered.len())];
    let linked_now = players::get(pool, event.id, linked.id)
        .await
        .map_err(failed("reading the player to link"))?
        .ok_or_else(|| bug("linking the player account", "the player is missing"))?;
    players::link_account(
        pool,
        &head_judge,
        event.id,
        linked.id,
        linked_now.version,
        &player.username,
    )
    .await
    .map_err(failed("linking the player account"))?;

    let ctx = Ctx {
        pool,
        event_id: event.id,
        head_judge: &head_judge,
        player: &player,
        player_id: linked.id,
    };
    let mut told = Vec::new();
    let mut tables = 0;
    let mut final_reports = 0;
    let mut player_table = 0;
    for round in 1..=ROUNDS {
        let step = format!("drawing round {round}");
        rounds::start(
            pool,
            &head_judge,
            event.id,
            NewRound {
                number: round,
                seed: Some(round_seed(seed, round)),
                fallback: None,
                override_reason: None,
            },
        )
        .await
        .map_err(failed(&step))?;
        let drawn = rounds::detail(pool, event.id, round)
            .await
            .map_err(failed(&step))?
            .ok_or_else(|| bug(&step, "the round just drawn is missing"))?;
        rounds::begin(pool, &head_judge, event.id, round, drawn.round.version)
            .await
            .map_err(failed(format!("beginning round {round}")))?;
        for table in &drawn.tables {
            clocks::apply(
                pool,
                &head_judge,
                event.id,
                table.id,
                table.version,
                clocks::Command::Start,
            )
            .await
            .map_err(failed(format!(
                "starting the clock of round {round}, table {}",
                table.number
            )))?;
        }
        let last = round == ROUNDS;
        // The live round: the linked player's table and one other still await confirmations.
        let linked_table = drawn
            .tables
            .iter()
            .position(|t| t.seats.iter().any(|s| s.player_id == linked.id));
        if last && let Some(t) = linked_table.and_then(|i| drawn.tables.get(i)) {
            player_table = t.number;
        }
        let other_waiting = (0..drawn.tables.len())
            .rev()
            .find(|&i| Some(i) != linked_table);
        for (i, table) in drawn.tables.iter().enumerate() {
            let (plan, finish) = if last {
                let plan = LAST_ROUND_PLANS.get(i).copied().unwrap_or(Plan::Solo);
                let finish = if Some(i) == linked_table {
                    Finish::Awaiting {
                        confirmed: table.seats.len().saturating_sub(1),
                    }
                } else if Some(i) == other_waiting {
                    Finish::Awaiting {
                        confirmed: table.seats.len() / 2,
                    }
                } else {
                    Finish::Confirmed
                };
                (plan, finish)
            } else {
                let r = usize::try_from(round - 1).unwrap_or(0);
                let plan = PLANS
                    .get(r)
                    .and_then(|p| p.get(i))
                    .copied()
                    .unwrap_or(Plan::Solo);
                let finish = FINISHES
                    .get(r)
                    .and_then(|f| f.get(i))
                    .copied()
                    .unwrap_or(Finish::Confirmed);
                (plan, finish)
            };
            told.push(play_table(&ctx, round, table, plan, finish, &mut rng).await?);
            tables += 1;
            if !matches!(finish, Finish::Awaiting { .. }) {
                final_reports += 1;
            }
        }
        if last && let Some(table) = drawn.tables.first() {
            // A clock given extra time, as happens when a table has to move.
            let now = rounds::detail(pool, event.id, round)
                .await
                .map_err(failed(&step))?
                .and_then(|d| d.tables.into_iter().find(|t| t.id == table.id));
            if let Some(now) = now {
                clocks::apply(
                    pool,
                    &head_judge,
                    event.id,
                    now.id,
                    now.version,
                    clocks::Command::Extend {
                        minutes: 10,
                        reason: "Table moved to a quieter corner after a noise complaint"
                            .to_owned(),
                    },
                )
                .await
                .map_err(failed(format!(
                    "extending the clock of round {round}, table {}",
                    now.number
                )))?;
                let prefix = format!("round {round}, table {}:", now.number);
                if let Some(line) = told.iter_mut().find(|l| l.starts_with(&prefix)) {
                    line.push_str("; its clock got 10 extra minutes when the table moved");
                }
            }
        }
    }

    Ok(Demo {
        seed,
        event_id: event.id,
        name: event.name,
        slug: event.slug,
        players: registered.len(),
        rounds: ROUNDS,
        qualifying_rounds,
        tables,
        final_reports,
        head_judge: Login {
            username: head_judge.username.clone(),
            password: head_judge_password,
        },
        player: Login {
            username: player.username.clone(),
            password: player_password,
        },
        player_id: linked.id,
        player_name: linked.name.clone(),
        player_table,
        tables_told: told,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats() -> Vec<Seat> {
        Faction::CLASSIC
            .iter()
            .enumerate()
            .map(|(i, &faction)| Seat {
                player_id: i as i64 + 1,
                name: format!("Player {i}"),
                faction,
            })
            .collect()
    }

    #[test]
    fn imagined_games_follow_their_plan() {
        for seed in 0..200 {
            let mut rng = Rng::new(seed);
            for plan in [
                Plan::Solo,
                Plan::Allied,
                Plan::Prediction,
                Plan::Clock,
                Plan::LastTurn,
            ] {
                let game = imagine(plan, &seats(), &mut rng);
                let winners = game.lines.iter().filter(|l| l.result.is_some()).count();
                match plan {
                    Plan::Clock => assert_eq!(winners, 0),
                    Plan::Solo | Plan::Prediction => assert_eq!(winners, 1),
                    Plan::Allied => assert_eq!(winners, 2),
                    Plan::LastTurn => assert!((1..=2).contains(&winners)),
                }
                let held: u32 = game.lines.iter().map(|l| l.strongholds).sum();
                assert!(held <= 5, "{plan:?}: {held} strongholds");
                for (turn, seen) in &game.attempts {
                    assert!((3..=game.last_turn).contains(turn), "{plan:?} turn {turn}");
                    assert!(*turn <= 9);
                    assert!(!seen.is_empty());
                }
                let mut turns: Vec<i16> = game.attempts.iter().map(|a| a.0).collect();
                turns.dedup();
                assert_eq!(turns.len(), game.attempts.len(), "one record per turn");
                // The report passes the checks a judge's report passes.
                let seats = seats();
                let table = db::results::TableContext {
                    event_id: 1,
                    table_id: 1,
                    round: 1,
                    table: 1,
                    ruleset: tournament::Ruleset::Gc2133,
                    options: tournament::RulingOptions::default(),
                    seats: seats
                        .iter()
                        .enumerate()
                        .map(|(i, s)| db::results::SeatLine {
                            seat: i as i16 + 1,
                            player_id: s.player_id,
                            player: s.name.clone(),
                            faction: Some(s.faction),
                            user_id: None,
                        })
                        .collect(),
                    final_report: false,
                };
                let mut counts = std::collections::BTreeMap::new();
                for (_, seen) in &game.attempts {
                    for (i, _) in seen {
                        *counts.entry(seats[*i].player_id).or_insert(0) += 1;
                    }
                }
                let draft = Draft {
                    ended: game.ended,
                    last_turn: game.last_turn,
                    seats: game.lines.clone(),
                    judge_draw: None,
                };
                if let Err(problems) = reports::check(&table, &draft, &counts) {
                    panic!("seed {seed}, {plan:?}: {problems:?}");
                }
            }
        }
    }

    #[test]
    fn passwords_are_long_and_fresh() {
        let a = fresh_password();
        assert_eq!(a.len(), 19);
        assert!(Password::new_choice(a.clone()).is_ok());
        assert_ne!(a, fresh_password());
    }

    #[test]
    fn base_urls_are_checked() {
        assert_eq!(
            base_url(Some("https://mentat.example.org/")).ok(),
            Some("https://mentat.example.org".to_owned())
        );
        assert!(base_url(Some("mentat.example.org")).is_err());
        assert!(base_url(Some("http://")).is_err());
    }
}
