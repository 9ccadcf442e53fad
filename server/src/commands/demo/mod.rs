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

mod script;
mod write;

use std::fmt::Write as _;

use db::{
    PgPool,
    accounts::{self, CreateUserError, NewUser, UserName},
    events,
    password::Password,
    public_address::PublicAddress,
    roles::{self, Actor, Role},
};
use tournament::ids::{EventId, PlayerId, TableNumber};

use crate::{config, database, error::StartupError};
pub use write::{create, create_at};

/// What the command line asked for.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub seed: Option<u64>,
    pub base_url: Option<String>,
}

/// The site administrator who owns the demo events.
const SYSTEM_ACCOUNT: &str = "mentat-demo";
/// Every demo event's address starts so; the run number follows the date.
pub(super) const SLUG_PREFIX: &str = "demo-qualifier-";

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
    pub event_id: EventId,
    pub name: String,
    pub slug: String,
    pub players: usize,
    pub rounds: i32,
    pub qualifying_rounds: i32,
    pub tables: usize,
    pub final_reports: usize,
    pub head_judge: Login,
    pub player: Login,
    pub player_id: PlayerId,
    pub player_name: String,
    /// The linked player's table in the last round, where their confirmation is awaited.
    pub player_table: TableNumber,
    /// One line per table: what happened there.
    pub tables_told: Vec<String>,
}

pub fn run(options: &Options) -> Result<(), StartupError> {
    let base = base_url(options.base_url.as_deref())?;
    let public = public_address(options.base_url.as_deref())?;
    let url = config::database_url()?;
    let seed = match options.seed {
        Some(seed) => seed,
        None => 1 + random_u64()? % 999_999,
    };
    let demo = super::runtime()?.block_on(async {
        let pool = database::connect(&url).await?;
        database::migrate(&pool, &url).await?;
        create_at(&pool, seed, public.as_ref()).await
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

/// The event's public address from `--base-url`, when given: the QR codes and the links of the
/// demo event then point at it.
fn public_address(given: Option<&str>) -> Result<Option<PublicAddress>, StartupError> {
    let Some(url) = given else { return Ok(None) };
    PublicAddress::parse(url.trim()).map_err(|e| {
        StartupError::Config(format!(
            "--base-url {url:?} cannot be the event's public address: {e}"
        ))
    })
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
pub(super) fn failed<E: std::error::Error>(
    step: impl Into<String>,
) -> impl FnOnce(E) -> StartupError {
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

pub(super) fn bug(step: &str, what: &str) -> StartupError {
    StartupError::Config(format!(
        "the demo stopped while {step}: {what}. This is a bug in `mentat demo`; please report it \
         with the seed it printed or was given."
    ))
}

/// The operating system's randomness, which passwords (and a seed when none is given) need.
fn random_bytes(buf: &mut [u8]) -> Result<(), StartupError> {
    getrandom::fill(buf).map_err(|e| {
        StartupError::Config(format!(
            "the operating system gave no random numbers for the demo's passwords ({e})"
        ))
    })
}

fn random_u64() -> Result<u64, StartupError> {
    let mut buf = [0u8; 8];
    random_bytes(&mut buf)?;
    Ok(u64::from_le_bytes(buf))
}

/// 16 characters from 32 that cannot be mistaken for each other (80 bits), in groups of four
/// so they are easy to type on a phone: `k7qm-x3pt-9vzr-h2wd`.
fn fresh_password() -> Result<String, StartupError> {
    const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut buf = [0u8; 16];
    random_bytes(&mut buf)?;
    let mut out = String::with_capacity(19);
    for (i, b) in buf.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(char::from(ALPHABET[usize::from(*b % 32)]));
    }
    Ok(out)
}

/// Creates an account named `base` (or `base-2`, `base-3`, … when taken) with a fresh password.
pub(super) async fn new_account(
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
        let password = fresh_password()?;
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
pub(super) async fn system_actor(
    pool: &PgPool,
    events: &[events::Event],
) -> Result<Actor, StartupError> {
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
pub(super) fn next_number(events: &[events::Event]) -> u32 {
    events
        .iter()
        .filter_map(|e| e.slug.strip_prefix(SLUG_PREFIX))
        .filter_map(|rest| rest.rsplit('-').next()?.parse::<u32>().ok())
        .max()
        .map_or(1, |n| n.saturating_add(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_long_and_fresh() {
        let a = fresh_password().unwrap();
        assert_eq!(a.len(), 19);
        assert!(Password::new_choice(a.clone()).is_ok());
        assert_ne!(a, fresh_password().unwrap());
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

    #[test]
    fn a_base_url_becomes_the_events_public_address() {
        assert_eq!(public_address(None).ok(), Some(None));
        let address = public_address(Some("https://mentat.example.org/"))
            .ok()
            .flatten()
            .map(|a| a.as_str().to_owned());
        assert_eq!(address.as_deref(), Some("https://mentat.example.org"));
        let err = public_address(Some("https://mentat.example.org/hall/"))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("--base-url"), "{err}");
    }
}
