//! One round: its seed, tables, seats, player circles and factions, public to all. The head
//! judge also gets the clock of each table, the changes allowed before play begins (redraw, seat
//! swap, cancel) and the list of who changed what.

use leptos::prelude::*;
use tournament::ids::{RoundNumber, TableNumber};

use crate::{
    auth::hard_navigate,
    components::{
        clock::{ClockFace, poll_every, ticking_now},
        field::{Field, FormError, count_successes, last_error},
    },
    disputes::{TableFlag, table_flags},
    error::AppError,
    pages::{
        dashboard::RunNav,
        params::{number_param, slug_param},
        room::RoomControls,
    },
    rounds::{
        BeginRound, CancelRound, ExtendClock, RedrawRound, RoundData, SwapSeats, TableClock,
        TableView, get_round,
    },
};

/// Every action of the page, so each change refetches the round.
#[derive(Clone, Copy)]
struct Actions {
    clock: ServerAction<TableClock>,
    extend: ServerAction<ExtendClock>,
    redraw: ServerAction<RedrawRound>,
    swap: ServerAction<SwapSeats>,
    begin: ServerAction<BeginRound>,
    cancel: ServerAction<CancelRound>,
}

impl Actions {
    fn new() -> Actions {
        Actions {
            clock: ServerAction::new(),
            extend: ServerAction::new(),
            redraw: ServerAction::new(),
            swap: ServerAction::new(),
            begin: ServerAction::new(),
            cancel: ServerAction::new(),
        }
    }

    /// Counts the actions that changed the round, so the page refetches after each.
    fn changes(&self) -> RwSignal<u32> {
        let changes = RwSignal::new(0);
        count_successes(self.clock.value(), changes);
        count_successes(self.extend.value(), changes);
        count_successes(self.redraw.value(), changes);
        count_successes(self.swap.value(), changes);
        count_successes(self.begin.value(), changes);
        changes
    }

    /// The error of the table actions' last run, if it failed.
    fn table_error(&self) -> Signal<Option<AppError>> {
        let clock = self.clock;
        Signal::derive(move || clock.value().get().and_then(Result::err))
    }
}

#[component]
pub fn RoundPage() -> impl IntoView {
    let slug = slug_param();
    let number = number_param();
    let actions = Actions::new();
    let changes = actions.changes();
    let round = Resource::new(
        move || (slug.get(), number.get(), changes.get()),
        |(slug, number, _)| get_round(slug, number),
    );
    // What each table is waiting for (a dispute, a confirmation, its time): the judges' queue.
    let flags = Resource::new(
        move || (slug.get(), number.get(), changes.get()),
        |(slug, number, _)| async move { table_flags(slug, number).await.unwrap_or_default() },
    );
    // Public viewers follow the clocks; a head judge's page is not refetched under their hands
    // (it would wipe a half-typed form): their changes refetch it, and a stale page is refused.
    poll_every(15, move || {
        if !matches!(round.get_untracked(), Some(Ok(ref d)) if d.can_run) {
            round.refetch();
        }
    });
    Effect::new(move |_| {
        if let Some(Ok(path)) = actions.cancel.value().get() {
            hard_navigate(&path);
        }
    });
    view! {
        <main class="page">
            <Transition fallback=|| view! { <p>"Loading the round…"</p> }>
                {move || Suspend::new(async move {
                    let flags = flags.await;
                    match round.await {
                        Ok(data) => view! { <Round data=data flags=flags actions=actions slug=slug/> }.into_any(),
                        Err(e) => view! {
                            <h1>{format!("Round {}", number.get_untracked())}</h1>
                            <p role="alert">{e.to_string()}</p>
                        }.into_any(),
                    }
                })}
            </Transition>
        </main>
    }
}

#[component]
fn Round(
    data: RoundData,
    flags: Vec<(TableNumber, TableFlag)>,
    actions: Actions,
    slug: Memo<String>,
) -> impl IntoView {
    let now = ticking_now(data.now_ms);
    let table_error = actions.table_error();
    let can_run = data.can_run;
    view! {
        {can_run.then(|| view! { <RunNav slug=slug/> })}
        <p><a href=format!("/events/{}", data.slug)>{data.event_name.clone()}</a></p>
        <h1>{format!("Round {}", data.number)}</h1>
        <p class="round-state" data-testid="round-state">{if data.begun {
            "In play: seats are final."
        } else {
            "Drawn: seats may still change until play begins."
        }}</p>
        <dl class="stats">
            <div><dt>"Seed"</dt><dd data-testid="seed">{data.seed.clone()}</dd></div>
            <div><dt>"Ruleset"</dt><dd>{data.ruleset.clone()}</dd></div>
            <div><dt>"Repeat opponents"</dt><dd>{format!("{} pairs", data.repeat_pairs)}</dd></div>
            <div><dt>"Repeat factions"</dt><dd>{data.repeat_factions}</dd></div>
            {(data.table_fallback != "ask").then(|| view! {
                <div><dt>"Ruling 1"</dt><dd>{data.table_fallback.replace('_', " ")}</dd></div>
            })}
        </dl>
        {data.override_reason.clone().map(|r| view! {
            <p class="notice">"Started with reports of the previous round missing: "{r}</p>
        })}
        <PrintLinks slug=data.slug.clone() round=data.number.get() staff=data.can_record/>
        {can_run.then(|| view! { <RoomControls slug=data.slug.clone() number=data.number/> })}
        <FormError error=table_error/>
        {data.tables.iter().cloned().map(|t| view! {
            <GameTable flag=flags.iter().find(|(n, _)| *n == t.number).map(|(_, f)| *f)
                t=t slug=data.slug.clone() round=data.number full={data.ruleset == "full"}
                can_run=data.can_run can_record=data.can_record now=now actions=actions/>
        }).collect_view()}
        {(!data.byes.is_empty()).then(|| view! {
            <section aria-labelledby="byes">
                <h2 id="byes">"Byes (0 points, no game)"</h2>
                <ul>{data.byes.iter().map(|b| view! { <li>{b.clone()}</li> }).collect_view()}</ul>
            </section>
        })}
        {(can_run && !data.begun).then(|| view! { <BeforePlay data=data.clone() actions=actions/> })}
        {(can_run && !data.changes.is_empty()).then(|| view! {
            <section aria-labelledby="changes">
                <h2 id="changes">"Changes to this round"</h2>
                <table>
                    <thead><tr><th scope="col">"When"</th><th scope="col">"Who"</th><th scope="col">"What"</th><th scope="col">"Details"</th></tr></thead>
                    <tbody>
                        {data.changes.iter().map(|c| view! {
                            <tr><td>{c.at.clone()}</td><td>{c.actor.clone()}</td><td>{c.action.clone()}</td><td>{c.detail.clone()}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </section>
        })}
    }
}

#[component]
fn GameTable(
    t: TableView,
    /// What the table waits for, if anything (the judges' queue).
    flag: Option<TableFlag>,
    slug: String,
    round: RoundNumber,
    full: bool,
    can_run: bool,
    can_record: bool,
    now: Signal<i64>,
    actions: Actions,
) -> impl IntoView {
    let heading_id = format!("table-{}", t.number);
    let labelled_by = heading_id.clone();
    let size = t.seats.len();
    let started = t.clock.started_at.is_some();
    let paused = t.clock.paused_at.is_some();
    let table_label = format!("Table {}", t.number);
    // The same hidden fields name the table in every form of it.
    let table_fields = {
        let (slug, id, version) = (slug.clone(), t.id.to_string(), t.version.to_string());
        move || {
            view! {
                <input type="hidden" name="slug" value=slug.clone()/>
                <input type="hidden" name="table_id" value=id.clone()/>
                <input type="hidden" name="version" value=version.clone()/>
            }
        }
    };
    let clock_controls = can_run.then(|| {
        let (command, label) = if !started {
            ("start", "Start clock")
        } else if paused {
            ("resume", "Resume clock")
        } else {
            ("pause", "Pause clock")
        };
        let extend_error = last_error(actions.extend.value());
        let (clock_fields, extend_fields) = (table_fields(), table_fields());
        let aria = format!("{label}, table {}", t.number);
        let summary = format!("Extend table {}'s clock", t.number);
        view! {
            <div class="clock-controls">
                <ActionForm action=actions.clock attr:class="inline">
                    {clock_fields}
                    <input type="hidden" name="command" value=command/>
                    <button type="submit" aria-label=aria>{label}</button>
                </ActionForm>
                <details>
                    <summary>{summary}</summary>
                    <ActionForm action=actions.extend>
                        {extend_fields}
                        <Field label="Minutes to add" name="minutes" kind="number" error=extend_error
                            id=format!("minutes-{}", t.number)/>
                        <Field label="Reason" name="reason" error=extend_error id=format!("reason-{}", t.number)
                            hint="For example: rules dispute at the Battle phase, 10 minutes."/>
                        <FormError error=extend_error/>
                        <button type="submit">"Extend"</button>
                    </ActionForm>
                </details>
            </div>
        }
    });
    // Win attempts, the game report and its confirmations live on the table's own page.
    let results_link = {
        let href = format!("/events/{slug}/rounds/{round}/tables/{}", t.number);
        let label = if can_record {
            format!("Table {}: win attempts and report", t.number)
        } else {
            format!("Table {}: results", t.number)
        };
        view! { <p><a class="button-link" href=href>{label}</a></p> }
    };
    let rows = t
        .seats
        .iter()
        .map(|s| {
            let faction = s.faction_text();
            view! {
                <tr>
                    <td>{s.seat}</td>
                    <td>{s.circle}</td>
                    <th scope="row">{s.player.clone()}{s.dropped.then_some(" (dropped)")}</th>
                    <td class="faction">{faction}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="game-table" aria-labelledby=labelled_by data-table=t.number.to_string()>
            <h2 id=heading_id>{format!("Table {} · {size} players", t.number)}
                {t.reported.then(|| view! { <span class="badge">"Report final"</span> })}
                {flag.map(|f| view! { <span class="badge flag" data-flag=f.code()>{f.label()}</span> })}
            </h2>
            <table>
                <thead><tr>
                    <th scope="col">"Seat"</th><th scope="col">"Circle"</th><th scope="col">"Player"</th>
                    <th scope="col">{if full { "Cards offered" } else { "Faction" }}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <ClockFace clock=t.clock now=now label=table_label/>
            {clock_controls}
            {results_link}
        </section>
    }
}

/// Redraw, swap, begin and cancel: only while play has not begun.
#[component]
fn BeforePlay(data: RoundData, actions: Actions) -> impl IntoView {
    let redraw_error = last_error(actions.redraw.value());
    let swap_error = last_error(actions.swap.value());
    let begin_error = Signal::derive(move || {
        actions
            .begin
            .value()
            .get()
            .and_then(Result::err)
            .or_else(|| actions.cancel.value().get().and_then(Result::err))
    });
    let round_fields = {
        let (slug, number, version) = (
            data.slug.clone(),
            data.number.to_string(),
            data.version.to_string(),
        );
        move || {
            view! {
                <input type="hidden" name="slug" value=slug.clone()/>
                <input type="hidden" name="number" value=number.clone()/>
                <input type="hidden" name="version" value=version.clone()/>
            }
        }
    };
    let (begin_fields, redraw_fields, swap_fields, cancel_fields) = (
        round_fields(),
        round_fields(),
        round_fields(),
        round_fields(),
    );
    let cancel_label = format!("Cancel round {}", data.number);
    let seats: Vec<(tournament::ids::PlayerId, String)> = data
        .tables
        .iter()
        .flat_map(|t| {
            t.seats.iter().map(move |s| {
                (
                    s.player_id,
                    format!("{} (table {}, seat {})", s.player, t.number, s.seat),
                )
            })
        })
        .collect();
    let options = || {
        seats
            .iter()
            .map(|(id, label)| view! { <option value=id.to_string()>{label.clone()}</option> })
            .collect_view()
    };
    let (options, options2) = (options(), options());
    view! {
        <section aria-labelledby="before-play">
            <h2 id="before-play">"Before play begins"</h2>
            <p>"Every change below is recorded with who made it and when. Starting any table's clock also locks the seats."</p>
            <ActionForm action=actions.begin attr:class="inline">
                {begin_fields}
                <button type="submit">"Lock seats and begin play"</button>
            </ActionForm>
            <FormError error=begin_error/>
            <h3>"Redraw"</h3>
            <ActionForm action=actions.redraw>
                {redraw_fields}
                <Field label="New seed (optional)" name="seed" hint="Leave empty for a random seed." error=redraw_error/>
                <FormError error=redraw_error/>
                <button type="submit">"Redraw this round"</button>
            </ActionForm>
            <h3>"Swap two players"</h3>
            <p class="hint">"Each takes the other's table, seat, player circle and faction."</p>
            <ActionForm action=actions.swap>
                {swap_fields}
                <div class="field">
                    <label for="field-first">"First player"</label>
                    <select id="field-first" name="first">{options}</select>
                </div>
                <div class="field">
                    <label for="field-second">"Second player"</label>
                    <select id="field-second" name="second">{options2}</select>
                </div>
                <FormError error=swap_error/>
                {move || swap_error.get().and_then(|e| e.message_for("first").or_else(|| e.message_for("second"))).map(|m| view! {
                    <p class="field-error" role="alert">{m}</p>
                })}
                <button type="submit">"Swap"</button>
            </ActionForm>
            {data.latest.then(move || view! {
                <h3>"Cancel this draw"</h3>
                <ActionForm action=actions.cancel>
                    {cancel_fields}
                    <p class="hint">"Withdraws the round, for example to change who is checked in, then start it again from the dashboard."</p>
                    <button type="submit" class="secondary">{cancel_label}</button>
                </ActionForm>
            })}
        </section>
    }
}

/// The round's print pages (served outside the app, hence `rel="external"`).
#[component]
fn PrintLinks(slug: String, round: i32, staff: bool) -> impl IntoView {
    let base = format!("/events/{slug}/rounds/{round}/print");
    view! {
        <nav class="print-links" aria-label="Print this round">
            "Print: "
            <a href=format!("{base}/slips") rel="external">"table slips"</a>" · "
            {staff.then(|| view! { <a href=format!("{base}/reports") rel="external">"game-report forms"</a>" · " })}
            <a href=format!("{base}/pairings") rel="external">"pairings for the wall"</a>
        </nav>
    }
}
