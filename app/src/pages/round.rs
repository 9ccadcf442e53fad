//! One round: its seed, tables, seats, player circles and factions, public to all. The head
//! judge also gets the clock of each table, the changes allowed before play begins (redraw, seat
//! swap, cancel) and the list of who changed what.
//!
//! The round's state and each table (its badges, clock and seats) follow the event's `table`
//! news as the dashboard's queue does (`public/live-parts.js`): a dispute raised on a phone, a
//! report made final, a clock paused elsewhere show without a reload. Without JavaScript the
//! page says when it was rendered and offers a refresh.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use tournament::ids::{RoundNumber, TableNumber};

use crate::{
    components::{
        clock::TickingClock,
        field::{Field, FormError},
        live::{LiveBar, LiveParts},
        refresh::NoScriptRefresh,
    },
    disputes::{TableFlag, table_flags},
    forms::{PostForm, form_state},
    pages::{
        dashboard::RunNav,
        params::{number_param, slug_param},
        room::RoomControls,
    },
    rounds::{
        BeginRound, CancelRound, ExtendClock, RedrawRound, RoundData, SeatedPlayer, SwapSeats,
        TableClock, TableView, get_round,
    },
};

#[component]
pub fn RoundPage() -> impl IntoView {
    let slug = slug_param();
    let number = number_param();
    let round = Resource::new(
        move || (slug.get(), number.get()),
        |(slug, number)| get_round(slug, number),
    );
    // What each table is waiting for (a dispute, a confirmation, its time): the judges' queue.
    let flags = Resource::new(
        move || (slug.get(), number.get()),
        |(slug, number)| async move { table_flags(slug, number).await.unwrap_or_default() },
    );
    view! {
        <main class="page">
            <Suspense fallback=|| view! { <p>"Loading the round…"</p> }>
                {move || Suspend::new(async move {
                    let flags = flags.await;
                    match round.await {
                        Ok(data) => view! {
                            <Title text=format!("{} · {}", round_name(&data), data.event_name)/>
                            {data.can_run.then(|| view! { <RunNav slug=slug/> })}
                            <Round data=data flags=flags/>
                        }.into_any(),
                        Err(e) => view! {
                            <Title text=format!("Round {}", number.get_untracked())/>
                            <h1>{format!("Round {}", number.get_untracked())}</h1>
                            <p role="alert">{e.to_string()}</p>
                        }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

/// "Round 3", or "Final table (round 5)" for the finalists' game.
fn round_name(data: &RoundData) -> String {
    if data.final_table {
        format!("Final table (round {})", data.number)
    } else {
        format!("Round {}", data.number)
    }
}

/// The round as it stands. Its tables follow the event's news in place (a part someone is
/// typing in is left alone, so a head judge's half-typed form is never wiped); without
/// JavaScript a public viewer's page loads again every minute, and a head judge's never under
/// their hands: their own changes bring it back fresh, and a stale page is refused.
#[component]
fn Round(data: RoundData, flags: Vec<(TableNumber, TableFlag)>) -> impl IntoView {
    let table_error = form_state(TableClock::url()).error;
    let can_run = data.can_run;
    view! {
        {(!can_run).then(|| view! { <NoScriptRefresh seconds=60/> })}
        <p><a href=format!("/events/{}", data.slug)>{data.event_name.clone()}</a></p>
        <h1>{round_name(&data)}</h1>
        <LiveBar slug=data.slug.clone() now_ms=data.now_ms/>
        <div id="live-round-state" data-live="table">
            <p class="round-state" data-testid="round-state">{if data.begun {
                "In play: seats are final."
            } else {
                "Drawn: seats may still change until play begins."
            }}</p>
        </div>
        {data.final_table.then(|| view! {
            <p class="hint">"The finalists' game: it decides the event's placings and does not count in the qualifying standings. "
                <a href=format!("/events/{}/finals", data.slug)>"Finals"</a></p>
        })}
        <dl class="stats">
            <div><dt>"Seed"</dt><dd data-testid="seed">{data.seed.clone()}</dd></div>
            <div><dt>"Ruleset"</dt><dd>{data.ruleset.clone()}</dd></div>
            {(!data.final_table).then(|| view! {
                <div><dt>"Repeat opponents"</dt><dd>{format!("{} pairs", data.repeat_pairs)}</dd></div>
                <div><dt>"Repeat factions"</dt><dd>{data.repeat_factions}</dd></div>
            })}
            {(data.table_fallback != "ask").then(|| view! {
                <div><dt>"Uneven player count"</dt><dd>{data.table_fallback.replace('_', " ")}</dd></div>
            })}
        </dl>
        {data.override_reason.clone().map(|r| view! {
            <p class="notice">"Started with reports of the previous round missing: "{r}</p>
        })}
        <PrintLinks slug=data.slug.clone() round=data.number.get() staff=data.can_record/>
        {can_run.then(|| view! { <RoomControls slug=data.slug.clone() number=data.number/> })}
        <FormError error=table_error/>
        <SeatedAz seated=data.seated.clone()/>
        <div class="round-tables">
            {data.tables.iter().cloned().map(|t| view! {
                <GameTable flag=flags.iter().find(|(n, _)| *n == t.number).map(|(_, f)| *f)
                    t=t slug=data.slug.clone() round=data.number full={data.ruleset == "full"}
                    can_run=data.can_run can_record=data.can_record now=data.now_ms/>
            }).collect_view()}
        </div>
        {(!data.byes.is_empty()).then(|| view! {
            <section aria-labelledby="byes">
                <h2 id="byes">"Byes (0 points, no game)"</h2>
                <ul>{data.byes.iter().map(|b| view! { <li>{b.clone()}</li> }).collect_view()}</ul>
            </section>
        })}
        {(can_run && !data.begun).then(|| view! { <BeforePlay data=data.clone()/> })}
        <LiveParts/>
        {(can_run && !data.changes.is_empty()).then(|| view! {
            <section aria-labelledby="changes">
                <h2 id="changes">"Changes to this round"</h2>
                <ol class="changes">
                    {data.changes.iter().map(|c| view! {
                        <li><span class="when">{c.at.clone()}</span>" "{c.sentence.clone()}</li>
                    }).collect_view()}
                </ol>
            </section>
        })}
    }
}

/// Every seated player A–Z with their table and seat, folded away: the answer to "where do I
/// sit?" without reading every table.
#[component]
fn SeatedAz(seated: Vec<SeatedPlayer>) -> impl IntoView {
    (!seated.is_empty()).then(|| {
        let count = seated.len();
        view! {
            <details class="seated-az">
                <summary>{format!("Players A–Z and their tables ({count})")}</summary>
                <ul class="az">
                    {seated.into_iter().map(|s| view! {
                        <li><span class="who">{s.player}</span>" "
                            <span class="where">{format!("table {} · seat {}", s.table, s.seat)}</span></li>
                    }).collect_view()}
                </ul>
            </details>
        }
    })
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
    /// The server's time as it rendered the page, for the clock.
    now: i64,
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
    // A final report stops the clock (4.01.08): nothing left to start, pause or extend.
    let clock_controls = (can_run && t.clock.stopped_at.is_none()).then(|| {
        let (command, label) = if !started {
            ("start", "Start clock")
        } else if paused {
            ("resume", "Resume clock")
        } else {
            ("pause", "Pause clock")
        };
        let extend_error = form_state(ExtendClock::url()).error;
        let (clock_fields, extend_fields) = (table_fields(), table_fields());
        let aria = format!("{label}, table {}", t.number);
        let summary = format!("Extend table {}'s clock", t.number);
        view! {
            <div class="clock-controls">
                <PostForm action=TableClock::url() class="inline">
                    {clock_fields}
                    <input type="hidden" name="command" value=command/>
                    <button type="submit" aria-label=aria>{label}</button>
                </PostForm>
                <details id=format!("extend-{}", t.number)>
                    <summary>{summary}</summary>
                    <PostForm action=ExtendClock::url()>
                        {extend_fields}
                        <Field label="Minutes to add" name="minutes" kind="number" error=extend_error
                            id=format!("minutes-{}", t.number)/>
                        <Field label="Reason" name="reason" error=extend_error id=format!("reason-{}", t.number)
                            hint="For example: rules dispute at the Battle phase, 10 minutes."/>
                        <FormError error=extend_error/>
                        <button type="submit">"Extend"</button>
                    </PostForm>
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
    let faction_head = if full { "Cards offered" } else { "Faction" };
    let rows = t
        .seats
        .iter()
        .map(|s| {
            let faction = s.faction_text();
            view! {
                <tr>
                    <td class="num" data-label="Seat">{s.seat}</td>
                    <td class="num" data-label="Circle">{s.circle}</td>
                    <th scope="row">{s.player.clone()}{s.dropped.then_some(" (dropped)")}</th>
                    <td class="faction" data-label=faction_head>{faction}</td>
                </tr>
            }
        })
        .collect_view();
    // The whole table follows the news in place (`live-parts.js`): its badges, clock, seats and
    // clock controls.
    view! {
        <section class="game-table" aria-labelledby=labelled_by data-table=t.number.to_string()
            id=format!("live-table-{}", t.number) data-live="table">
            <h2 id=heading_id>{format!("Table {} · {size} players", t.number)}
                {t.reported.then(|| view! { <span class="badge">"Report final"</span> })}
                {flag.map(|f| view! { <span class="badge flag" data-flag=f.code()>{f.label()}</span> })}
            </h2>
            <table tabindex="0" class="seating stack">
                <caption class="sr-only">{format!("Table {}'s seats", t.number)}</caption>
                <thead><tr>
                    <th scope="col">"Seat"</th><th scope="col">"Circle"</th><th scope="col">"Player"</th>
                    <th scope="col">{faction_head}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <TickingClock clock=t.clock server_now=now label=table_label/>
            {clock_controls}
            {results_link}
        </section>
    }
}

/// Redraw, swap, begin and cancel: only while play has not begun.
#[component]
fn BeforePlay(data: RoundData) -> impl IntoView {
    let redraw_error = form_state(RedrawRound::url()).error;
    let swap_error = form_state(SwapSeats::url()).error;
    let begin_error = Signal::stored(
        form_state(BeginRound::url())
            .error
            .get_untracked()
            .or_else(|| form_state(CancelRound::url()).error.get_untracked()),
    );
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
    let final_table = data.final_table;
    // A cancellation that would remove recorded results asks first, at this checkbox.
    let cancel_confirm = Signal::stored(
        form_state(CancelRound::url())
            .error
            .get_untracked()
            .and_then(|e| e.message_for("confirm")),
    );
    let recorded = data.recorded.clone();
    let recorded_note = (!recorded.is_empty()).then(|| {
        view! {
            <div class="notice" data-testid="round-records">
                <p>"Results are already recorded at this round's tables, so it cannot be redrawn; a cancellation removes them (the audit log keeps a copy):"</p>
                <ul>{recorded.iter().map(|r| view! { <li>{r.clone()}</li> }).collect_view()}</ul>
            </div>
        }
    });
    let has_records = !data.recorded.is_empty();
    let cancel_label = if final_table {
        "Cancel the final table".to_owned()
    } else {
        format!("Cancel round {}", data.number)
    };
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
            <div data-form-errors="">
            <PostForm action=BeginRound::url() class="inline">
                {begin_fields}
                <button type="submit">"Lock seats and begin play"</button>
            </PostForm>
            <FormError error=begin_error/>
            </div>
            {recorded_note}
            {(!data.final_table).then(move || view! {
                <h3>"Redraw"</h3>
                <PostForm action=RedrawRound::url()>
                    {redraw_fields}
                    <Field label="New seed (optional)" name="seed" hint="Leave empty for a random seed." error=redraw_error/>
                    <FormError error=redraw_error/>
                    <button type="submit">"Redraw this round"</button>
                </PostForm>
            })}
            <h3>"Swap two players"</h3>
            <p class="hint">"Each takes the other's table, seat, player circle and faction."</p>
            <PostForm action=SwapSeats::url()>
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
                {swap_error.get_untracked().and_then(|e| e.message_for("first").or_else(|| e.message_for("second"))).map(|m| view! {
                    <p class="field-error" role="alert">{m}</p>
                })}
                <button type="submit">"Swap"</button>
            </PostForm>
            {data.latest.then(move || view! {
                <h3>"Cancel this draw"</h3>
                <PostForm action=CancelRound::url()>
                    {cancel_fields}
                <p class="hint">{if final_table {
                    "Withdraws the final table; seat it again from the finals page."
                } else {
                    "Withdraws the round, for example to change who is checked in, then start it again from the dashboard."
                }}</p>
                    {has_records.then(|| view! {
                        <div class="choice">
                            <input type="checkbox" id="confirm-cancel" name="confirm" value="true"
                                aria-describedby="confirm-cancel-error"
                                aria-invalid=move || cancel_confirm.get().is_some().then_some("true")/>
                            <label for="confirm-cancel">"Yes, remove what is recorded at its tables"</label>
                        </div>
                    })}
                    <p class="field-error" id="confirm-cancel-error" role="alert" hidden=move || cancel_confirm.get().is_none()
                        data-error-for="confirm" data-control="confirm-cancel">{move || cancel_confirm.get()}</p>
                    <button type="submit" class="secondary">{cancel_label}</button>
                </PostForm>
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
