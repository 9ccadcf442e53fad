//! A table's game log (`/events/<slug>/rounds/<n>/tables/<t>/log`): the log with every problem at
//! its line (rule, Mentat's one line, a link to the rule's page), the judge's editor, the board
//! after each turn, the turn-by-turn summary, and where the log and the report disagree. Judges
//! and above read and write; a seated player reads once the report is final.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::{
    components::{
        board::TurnBoard,
        field::count_successes,
        log_editor::{LogEditor, VerificationList},
    },
    gamelog::{LogPage as Data, SaveLog, get_log},
    pages::params::{number_param, slug_param, table_param},
    replay::{BoardTurn, Problem},
};

#[component]
pub fn LogPage() -> impl IntoView {
    let slug = slug_param();
    let round = number_param();
    let table = table_param();
    let query = use_query_map();
    let save = ServerAction::<SaveLog>::new();
    let changes = RwSignal::new(0u32);
    count_successes(save.value(), changes);
    let data = Resource::new(
        move || (slug.get(), round.get(), table.get(), changes.get()),
        |(slug, round, table, _)| get_log(slug, round, table),
    );
    view! {
        <main class="page log-page">
            <Transition fallback=|| view! { <p>"Loading the log…"</p> }>
                {move || Suspend::new(async move {
                    let turn = query.with_untracked(|q| q.get("turn").and_then(|t| t.parse::<usize>().ok()));
                    match data.await {
                        Ok(d) => view! { <Log d=d save=save turn=turn/> }.into_any(),
                        Err(e) => view! {
                            <h1>{format!("Game log · round {}, table {}", round.get_untracked(), table.get_untracked())}</h1>
                            <p role="alert">{e.to_string()}</p>
                            <p><a href=format!("/events/{}/rounds/{}/tables/{}", slug.get_untracked(), round.get_untracked(), table.get_untracked())>"Back to the table"</a></p>
                        }.into_any(),
                    }
                })}
            </Transition>
        </main>
    }
}

#[component]
fn Log(d: Data, save: ServerAction<SaveLog>, turn: Option<usize>) -> impl IntoView {
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
                    body=d.body.clone() report_final=d.report_final verification=verification.clone()
                    vocabulary=d.vocabulary.clone().unwrap_or_default() alive=d.alive.clone() save=save/>
            </section>
        }
        .into_any()
    });
    let reading = (!d.can_write).then(|| {
        view! {
            <section aria-labelledby="check">
                <h2 id="check">"Check"</h2>
                <VerificationList verification=Signal::stored(verification.clone())/>
            </section>
        }
        .into_any()
    });
    let turns = d.replayed.turns.clone();
    let initial = turn.unwrap_or(turns.len().saturating_sub(1));
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
            <TurnBoard map=d.map.clone() turns=turns.clone() initial=initial/>
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
                    <th scope="row"><a href=format!("?turn={}#board", turns.iter().position(|x| x == t).unwrap_or(0))>{if t.turn == 0 { "Setup".to_owned() } else { format!("Turn {}", t.turn) }}</a></th>
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
                <table class="compact nowrap">
                    <caption class="sr-only">"Storm sector, then per faction: forces on the map, spice behind the shield, strongholds controlled"</caption>
                    <thead><tr><th scope="col">"Turn"</th><th scope="col">"Storm"</th>{head}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}

/// The judge's report beside what the log implies; differences are marked for the judge to decide.
#[component]
fn Comparison(d: Data) -> impl IntoView {
    let c = d.comparison.clone();
    if c.rows.is_empty() {
        return ().into_any();
    }
    let table_href = format!(
        "/events/{}/rounds/{}/tables/{}#edit-report",
        d.slug, d.round, d.table
    );
    let differing = c.rows.iter().filter(|r| r.differs()).count();
    let rows = c
        .rows
        .iter()
        .map(|r| {
            view! {
                <tr class:differs=r.differs()>
                    <th scope="row">{format!("{} ({})", r.player, r.faction.code())}</th>
                    <td>{r.what.clone()}</td>
                    <td class="num">{r.report.clone().unwrap_or_else(|| "—".into())}</td>
                    <td class="num">{r.log.clone().unwrap_or_else(|| "not derived yet".into())}</td>
                    <td>{if r.differs() { "differs" } else { "" }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section aria-labelledby="compare">
            <h2 id="compare">"The log and the report"</h2>
            <p>{match c.report_revision {
                None => "No report yet: the values the log implies are below, to copy into the report.".to_owned(),
                Some(r) if differing == 0 => format!("Report revision {r} agrees with the log wherever the log tells."),
                Some(r) => format!("Report revision {r} differs from the log in {differing} value{}: the judge decides which is right.", if differing == 1 { "" } else { "s" }),
            }}" "<a href=table_href>"Open the report"</a></p>
            <div class="scroll">
                <table class="compact comparison">
                    <thead><tr><th scope="col">"Player"</th><th scope="col">"Value (4.01.11)"</th><th scope="col" class="num">"Report"</th><th scope="col" class="num">"Log"</th><th scope="col"><span class="sr-only">"Agreement"</span></th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
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
