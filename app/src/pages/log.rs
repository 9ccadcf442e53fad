//! A table's game log (`/events/<slug>/rounds/<n>/tables/<t>/log`): the log with every problem at
//! its line (rule, Mentat's one line, a link to the rule's page), the judge's editor, the board
//! after each turn, the turn-by-turn summary, and where the log and the report disagree. Judges
//! and above read and write; a seated player reads once the report is final.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::{
    components::{
        board::TurnBoard,
        field::FormError,
        log_editor::{LogEditor, VerificationList},
    },
    forms::{DoneNote, PostForm, form_state},
    gamelog::{ComparisonRow, LogPage as Data, get_log},
    pages::params::{number_param, slug_param, table_param},
    replay::{BoardTurn, Problem},
    results::SaveReport,
};

#[component]
pub fn LogPage() -> impl IntoView {
    let slug = slug_param();
    let round = number_param();
    let table = table_param();
    let query = use_query_map();
    let data = Resource::new(
        move || (slug.get(), round.get(), table.get()),
        |(slug, round, table)| get_log(slug, round, table),
    );
    view! {
        <main class="page log-page">
            <Suspense fallback=|| view! { <p>"Loading the log…"</p> }>
                {move || Suspend::new(async move {
                    let turn = query.with_untracked(|q| q.get("turn"));
                    let phase = query.with_untracked(|q| q.get("phase").and_then(|t| t.parse::<usize>().ok()));
                    match data.await {
                        Ok(d) => view! {
                            <Title text=format!("Game log · Round {} · Table {} · {}", d.round, d.table, d.event_name)/>
                            <Log d=d turn=turn phase=phase/>
                        }.into_any(),
                        Err(e) => {
                            let title = format!("Game log · round {}, table {}", round.get_untracked(), table.get_untracked());
                            view! {
                                <Title text=title.clone()/>
                                <h1>{title}</h1>
                                <p role="alert">{e.to_string()}</p>
                                <p><a href=format!("/events/{}/rounds/{}/tables/{}", slug.get_untracked(), round.get_untracked(), table.get_untracked())>"Back to the table"</a></p>
                            }.into_any()
                        }
                    }
                })}
            </Suspense>
        </main>
    }
}

#[component]
fn Log(d: Data, turn: Option<String>, phase: Option<usize>) -> impl IntoView {
    let table_href = format!("/events/{}/rounds/{}/tables/{}", d.slug, d.round, d.table);
    let seats = d
        .seats
        .iter()
        .map(|s| format!("{} {}", s.faction.map_or("?", |f| f.code()), s.player))
        .collect::<Vec<_>>()
        .join(" · ");
    let verification = d.replayed.verification.clone();
    let problems = verification.problems.clone();
    let has_log = !d.body.is_empty();
    let editor = d.can_write.then(|| {
        view! {
            <section aria-labelledby="edit-log">
                <h2 id="edit-log">{if has_log { "Edit the log" } else { "Write the log" }}</h2>
                <LogEditor slug=d.slug.clone() round=d.round table=d.table base_revision=d.latest_revision
                    body=d.body.clone() report_final=d.report_final verification=verification.clone()/>
            </section>
        }
        .into_any()
    });
    let reading = (!d.can_write).then(|| {
        view! {
            <section aria-labelledby="check">
                <h2 id="check">"Check"</h2>
                <div class="verification"><VerificationList verification=verification.clone()/></div>
            </section>
        }
        .into_any()
    });
    let turns = d.replayed.turns.clone();
    let numbers: Vec<u32> = turns.iter().map(|t| t.turn).collect();
    let (initial, note) = crate::components::board::pick_turn(&numbers, turn.as_deref());
    view! {
        <p><a href=table_href.clone()>{format!("← {} · round {}, table {}", d.event_name, d.round, d.table)}</a></p>
        <h1>{format!("Game log · round {}, table {}", d.round, d.table)}</h1>
        <p class="hint">{seats}</p>
        <p class="hint">{match d.revisions.first() {
            Some(r) => format!("Revision {} saved by {} at {}{}.", r.revision, r.by.clone().unwrap_or_else(|| "someone".into()), r.at,
                if d.replayed.audit { "; judges' view: sealed entries and hands are shown" } else { "; public view" }),
            None => "No log saved yet.".to_owned(),
        }}</p>
        {editor}
        {reading}
        {has_log.then(|| view! { <SavedLog body=d.body.clone() problems=problems/> }.into_any())}
        <section aria-labelledby="board" id="board">
            <h2 id="board-heading">"The board"</h2>
            <TurnBoard map=d.map.clone() turns=turns.clone() phases=d.replayed.phases.clone() initial=initial initial_phase=phase note=note/>
        </section>
        <Summary turns=turns/>
        <Comparison d=d.clone()/>
        <History d=d/>
    }
    .into_any()
}

/// The saved log, line by line, each problem under its line.
#[component]
fn SavedLog(body: String, problems: Vec<Problem>) -> impl IntoView {
    let lines = body
        .lines()
        .enumerate()
        .map(|(i, text)| {
            let n = (i + 1) as u32;
            let here: Vec<Problem> = problems.iter().filter(|p| p.line == n).cloned().collect();
            let bad = !here.is_empty();
            view! {
                <span class="log-line" class:bad=bad id=format!("L{n}")><span class="ln" aria-hidden="true">{n}</span>{text.to_owned()}"\n"</span>
                {here.into_iter().map(|p| view! {
                    <span class="log-note" role="note">{format!("  ↑ col {}: ", p.col)}
                        {p.rule_href().map(|h| view! { <a href=h>{p.rule.clone().unwrap_or_default()}</a>" " })}
                        {p.message.clone()}"\n"</span>
                }).collect_view()}
            }
        })
        .collect_view();
    view! {
        <section aria-labelledby="saved-log">
            <h2 id="saved-log">"The saved log"</h2>
            <pre class="log" tabindex="0" aria-label="The saved log with its problems">{lines}</pre>
        </section>
    }
    .into_any()
}

/// The engine's per-turn summary: storm, spice, forces on the board, strongholds, the winner.
#[component]
fn Summary(turns: Vec<BoardTurn>) -> impl IntoView {
    if turns.is_empty() {
        return ().into_any();
    }
    let factions: Vec<dune::Faction> = turns
        .last()
        .map(|t| t.holdings.iter().map(|h| h.faction).collect())
        .unwrap_or_default();
    let head = factions
        .iter()
        .map(|f| view! { <th scope="col">{f.code()}</th> })
        .collect_view();
    let rows = turns
        .iter()
        .map(|t| {
            let cells = factions
                .iter()
                .map(|f| {
                    let spice = t.holdings.iter().find(|h| h.faction == *f).map_or(0, |h| h.spice);
                    let forces: u32 = t
                        .places
                        .iter()
                        .flat_map(|p| p.tokens.iter())
                        .filter(|(g, _)| g == f)
                        .map(|(_, s)| s.total())
                        .sum();
                    let strongholds = t
                        .holdings
                        .iter()
                        .find(|h| h.faction == *f)
                        .map(|h| h.strongholds.join(" "))
                        .filter(|s| !s.is_empty());
                    view! { <td>{format!("{forces} on map · ${spice}")}{strongholds.map(|s| format!(" · {s}"))}</td> }
                })
                .collect_view();
            view! {
                <tr>
                    <th scope="row"><a href=format!("?turn={}#board", t.turn)>{if t.turn == 0 { "Setup".to_owned() } else { format!("Turn {}", t.turn) }}</a></th>
                    <td>{t.storm.map_or("—".to_owned(), |s| s.to_string())}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <section aria-labelledby="summary">
            <h2 id="summary">"Turn by turn"</h2>
            <div class="scroll">
                <table tabindex="0" class="compact nowrap">
                    <caption class="sr-only">"Storm sector, then per faction: forces on the map, spice behind the shield, strongholds controlled"</caption>
                    <thead><tr><th scope="col">"Turn"</th><th scope="col">"Storm"</th>{head}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}

/// The judge's report beside the report the log implies. Where they differ both are shown; a
/// judge saves the report from here, choosing for each differing value which one is right
/// (the log's is chosen until they pick). The form goes to the report's own server function, so
/// every rule of the report applies as on the table page.
#[component]
fn Comparison(d: Data) -> impl IntoView {
    let c = d.comparison.clone();
    if c.seats.is_empty() {
        return ().into_any();
    }
    let table_href = format!("/events/{}/rounds/{}/tables/{}", d.slug, d.round, d.table);
    let all_rows = || {
        c.table_rows
            .iter()
            .chain(c.seats.iter().flat_map(|s| s.rows.iter()))
    };
    // Win attempts are kept by the table's win-attempt record (4.01.04), not by the report this
    // form saves: a difference there is told apart, with where to settle it.
    let differing = all_rows()
        .filter(|r| r.differs() && r.field != "win_attempts")
        .count();
    let attempts_differ = all_rows().any(|r| r.differs() && r.field == "win_attempts");
    let cell = |v: &Option<String>, missing: &'static str| {
        v.as_deref()
            .map_or_else(|| missing.to_owned(), ComparisonRow::show)
    };
    let line = |who: String, r: &ComparisonRow| {
        view! {
            <tr class:differs=r.differs()>
                <th scope="row">{who}</th>
                <td data-label="Value">{r.what.clone()}</td>
                <td data-label="Report">{cell(&r.report, "—")}</td>
                <td data-label="Log">{cell(&r.log, "not derived")}</td>
                <td class="agree">{if r.differs() { "differs" } else { "" }}</td>
            </tr>
        }
    };
    let rows = c
        .table_rows
        .iter()
        .map(|r| line("Table".to_owned(), r))
        .chain(c.seats.iter().flat_map(|s| {
            s.rows
                .iter()
                .map(|r| line(format!("{} ({})", s.player, s.faction.code()), r))
                .collect::<Vec<_>>()
        }))
        .collect_view();
    let headline = match (c.report_revision, c.derived) {
        (_, false) => format!(
            "The engine derives the report once the game is over{}. Until then: what the last turn shows.",
            c.why_not
                .as_ref()
                .map(|w| format!(" ({w})"))
                .unwrap_or_default()
        ),
        (None, true) => {
            "No report yet: the log implies the one below. Check it and save it as the report."
                .to_owned()
        }
        (Some(r), true) if differing == 0 => format!("Report revision {r} agrees with the log."),
        (Some(r), true) => format!(
            "Report revision {r} differs from the log in {differing} value{}: choose which is right for each, below.",
            if differing == 1 { "" } else { "s" }
        ),
    };
    let attempts_note = attempts_differ.then(|| {
        view! {
            <p data-testid="attempts-differ">
                "The win attempts the log implies differ from the table's win-attempt record (4.01.04): the judge records them on the table page."
            </p>
        }
    });
    let form = (d.can_write && c.derived).then(|| view! { <ReportFromLog d=d.clone()/> });
    view! {
        <section aria-labelledby="compare">
            <h2 id="compare">"The log and the report"</h2>
            <p data-testid="comparison">{headline}" "<a href=table_href>"The table's report"</a></p>
            {attempts_note}
            <div class="scroll">
                <table tabindex="0" class="compact comparison stack">
                    <thead><tr><th scope="col">"Who"</th><th scope="col">"Value (4.01.07, 4.01.11)"</th><th scope="col">"Report"</th><th scope="col">"Log"</th><th scope="col">"Agree?"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {form}
        </section>
    }
    .into_any()
}

/// One value of the report from the log: the agreed value as a hidden field, or, where the
/// report and the log differ, the judge's choice between them.
fn choice(name: String, id: String, who: String, row: &ComparisonRow) -> AnyView {
    if row.differs() {
        let (log, report) = (
            row.log.clone().unwrap_or_default(),
            row.report.clone().unwrap_or_default(),
        );
        view! {
            <fieldset class="choice">
                <legend>{format!("{who}: {}", row.what)}</legend>
                <label class="check" for=format!("{id}-log")>
                    <input type="radio" id=format!("{id}-log") name=name.clone() value=log.clone() checked=true/>
                    {format!("From the log: {}", ComparisonRow::show(&log))}
                </label>
                <label class="check" for=format!("{id}-report")>
                    <input type="radio" id=format!("{id}-report") name=name value=report.clone()/>
                    {format!("As reported: {}", ComparisonRow::show(&report))}
                </label>
            </fieldset>
        }
        .into_any()
    } else {
        let value = row
            .log
            .clone()
            .or_else(|| row.report.clone())
            .unwrap_or_default();
        view! { <input type="hidden" name=name value=value/> }.into_any()
    }
}

#[component]
fn ReportFromLog(d: Data) -> impl IntoView {
    let c = d.comparison.clone();
    let state = form_state(SaveReport::url());
    let error = state.error;
    let reason_message = error.get_untracked().and_then(|e| e.message_for("reason"));
    let table_fields = c
        .table_rows
        .iter()
        .map(|r| {
            choice(
                format!("form[{}]", r.field),
                format!("from-log-{}", r.field),
                "Table".to_owned(),
                r,
            )
        })
        .collect_view();
    let seat_fields = c
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let fields = s
                .rows
                .iter()
                .filter(|r| r.field != "win_attempts")
                .map(|r| {
                    choice(
                        format!("form[seats][{i}][{}]", r.field),
                        format!("from-log-{i}-{}", r.field),
                        s.player.clone(),
                        r,
                    )
                })
                .collect_view();
            view! {
                <input type="hidden" name=format!("form[seats][{i}][player_id]") value=s.player_id.to_string()/>
                <input type="hidden" name=format!("form[seats][{i}][faction]") value=s.faction.code()/>
                {fields}
            }
        })
        .collect_view();
    view! {
        <PostForm action=SaveReport::url() class="report-from-log">
            <h3>"Save the report from the log"</h3>
            <input type="hidden" name="form[slug]" value=d.slug.clone()/>
            <input type="hidden" name="form[round]" value=d.round.to_string()/>
            <input type="hidden" name="form[table]" value=d.table.to_string()/>
            <input type="hidden" name="form[base_revision]" value=c.report_revision.unwrap_or(tournament::ids::Revision::NONE).to_string()/>
            <input type="hidden" name="form[judge_draw]" value=""/>
            {table_fields}
            {seat_fields}
            <div class="field">
                <label for="from-log-reason">"Reason for the correction"</label>
                <p class="hint" id="from-log-reason-hint">"Required when the report is final; kept in its history."</p>
                <input id="from-log-reason" type="text" name="form[reason]" aria-describedby="from-log-reason-hint"
                    aria-invalid=reason_message.is_some().then_some("true")/>
                <p class="field-error" role="alert" hidden=reason_message.is_none()
                    data-error-for="reason" data-control="from-log-reason">{reason_message.clone()}</p>
            </div>
            <FormError error=error/>
            <DoneNote done=state.done/>
            <button type="submit">"Save as the table's report"</button>
        </PostForm>
    }
}

#[component]
fn History(d: Data) -> impl IntoView {
    if d.revisions.is_empty() {
        return ().into_any();
    }
    view! {
        <section aria-labelledby="log-history">
            <h2 id="log-history">"History"</h2>
            <ol class="history" reversed>
                {d.revisions.iter().map(|r| view! {
                    <li>
                        <strong>{format!("Revision {}", r.revision)}</strong>
                        {format!(" · {} · {} · {} lines", r.by.clone().unwrap_or_default(), r.at, r.lines)}
                        {r.source.clone().map(|s| format!(" · from {s}"))}
                        {r.reason.clone().map(|why| view! { <p>"Why: "{why}</p> })}
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
    .into_any()
}
