//! The demo's writing: every step of the script goes through the `db` crate exactly as the
//! pages would make it (in transactions, in the audit log).

use std::fmt::Write as _;

use db::{
    PgPool, clocks, events,
    players::{self, NewPlayer},
    results::{
        attempts::{Attempt, TurnEntry},
        reports::{self, Answer, Answerer, Draft, SeatResult},
    },
    roles::{self, Actor, Role},
    rounds::{self, NewRound, TableInfo},
};
use dune::{Faction, Spice, WinType};
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber, TableNumber};
use tournament::report::Ending;

use super::script::{
    CLUBS, Dice, FINISHES, Finish, LAST_ROUND_PLANS, NAMES, PLANS, PLAYERS, Plan, ROUNDS, imagine,
    result_text,
};
use super::{Demo, Login, bug, failed, new_account, next_number, system_actor};
use crate::error::StartupError;

/// Who the demo acts as, and where.
struct Ctx<'a> {
    pool: &'a PgPool,
    event_id: EventId,
    head_judge: &'a Actor,
    player: &'a Actor,
    player_id: PlayerId,
}

/// One seat as dealt.
struct Seat {
    player_id: PlayerId,
    name: String,
    faction: Faction,
}

impl Seat {
    fn label(&self) -> String {
        format!("{} ({})", self.name, self.faction.code())
    }
}

/// Plays one table: win attempts, the report, confirmations (or not), and what happens next.
async fn play_table(
    ctx: &Ctx<'_>,
    round: RoundNumber,
    table: &TableInfo,
    plan: Plan,
    finish: Finish,
    rng: &mut Dice,
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
    let factions: Vec<Faction> = seats.iter().map(|s| s.faction).collect();
    let game = imagine(plan, &factions, rng);
    for (turn, seen) in &game.attempts {
        let entry = TurnEntry {
            turn: *turn,
            base_revision: Revision::NONE,
            attempts: seen
                .iter()
                .filter_map(|a| {
                    Some(Attempt {
                        player_id: seats.get(a.seat)?.player_id,
                        strongholds: a.strongholds.clone(),
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
            round,
            table.number,
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
        seats: seats
            .iter()
            .zip(&game.lines)
            .map(|(seat, line)| SeatResult {
                player_id: seat.player_id,
                faction: line.faction,
                ally: line.ally,
                result: line.result,
                end: line.end,
            })
            .collect(),
        judge_draw: None,
        prediction: game.prediction,
    };
    // The sample's clocks started moments ago: a game stopped by the clock is the head
    // judge's early call (4.01.08), recorded as such in the audit log.
    let calls_time = game.ended == Ending::Time;
    let saved = if calls_time {
        reports::save_calling_time(
            ctx.pool,
            ctx.head_judge,
            true,
            ctx.event_id,
            round,
            table.number,
            Revision::NONE,
            &draft,
            None,
        )
        .await
    } else {
        reports::save(
            ctx.pool,
            ctx.head_judge,
            true,
            ctx.event_id,
            round,
            table.number,
            Revision::NONE,
            &draft,
            None,
        )
        .await
    };
    let revision = saved.map_err(failed(format!("saving the game report of {label}")))?;

    let label_ref = label.as_str();
    let answer = |player_id: PlayerId, agrees: bool, note: Option<String>| async move {
        let (actor, answerer) = if player_id == ctx.player_id {
            (ctx.player, Answerer::Player)
        } else {
            (ctx.head_judge, Answerer::Judge)
        };
        let reply = Answer {
            round,
            table: table.number,
            revision,
            player_id,
            agrees,
            note,
            answerer,
        };
        reports::answer(ctx.pool, actor, ctx.event_id, &reply)
            .await
            .map_err(failed(format!("answering the report of {label_ref}")))
    };

    let mut told = match game.ended {
        Ending::Time => format!(
            "stopped by the clock on turn {}, adjudicated by Mentat (4.01.09)",
            game.last_turn
        ),
        _ => result_text(&game, &seats.iter().map(Seat::label).collect::<Vec<_>>()),
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
            let forces = game.lines.get(d).map_or(0, |l| l.end.forces);
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
            reports::finalise(
                ctx.pool,
                ctx.head_judge,
                ctx.event_id,
                round,
                table.number,
                revision,
            )
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
            (Some(seat), Some(line)) => (seat.name.clone(), seat.faction.code(), line.end.spice),
            _ => return Err(bug(&label, "the report has fewer lines than seats")),
        };
        let now = was + Spice::new(3);
        if let Some(line) = draft.seats.get_mut(k) {
            line.end.spice = now;
        }
        let reason = format!(
            "Spice behind {name}'s shield ({code}) recounted with the player after the round: {now}, not {was}."
        );
        reports::save(
            ctx.pool,
            ctx.head_judge,
            true,
            ctx.event_id,
            round,
            table.number,
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
        let results = reports::table_results(ctx.pool, ctx.event_id, round, table.number)
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
    create_at(pool, seed, None).await
}

/// [`create`], with the event's public address set to `public` (`--base-url`), so its QR
/// codes, invitation links and claim codes point where people open Mentat.
pub async fn create_at(
    pool: &PgPool,
    seed: u64,
    public: Option<&db::public_address::PublicAddress>,
) -> Result<Demo, StartupError> {
    let mut rng = Dice::new(seed);
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
    if let Some(public) = public {
        settings.public_url = Some(public.clone());
    }
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
    let mut player_table = TableNumber(0);
    for number in 1..=ROUNDS {
        let round = RoundNumber(number);
        let step = format!("drawing round {round}");
        rounds::start(
            pool,
            &head_judge,
            event.id,
            NewRound {
                number: round,
                seed: Some(rng.round_seed()),
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
        let last = number == ROUNDS;
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
        // A clock given extra time, as happens when a table has to move: given while the game
        // is on, since a final report stops the table's clock.
        let mut extended = None;
        if last && let Some(table) = drawn.tables.first() {
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
                extended = Some(now.number);
            }
        }
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
                // Rounds before the last: 1 and 2, so 0 and 1 here.
                let r = usize::try_from(number - 1).unwrap_or(0);
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
        if let Some(number) = extended {
            let prefix = format!("round {round}, table {number}:");
            if let Some(line) = told.iter_mut().find(|l| l.starts_with(&prefix)) {
                line.push_str("; its clock got 10 extra minutes when the table moved");
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
