//! One game table's results: the win attempts recorded at each Battle phase (4.01.04), the
//! game report and its revisions (4.01.07), the players' confirmations, the head judge's
//! decision on a dispute (4.01.05) and, for a game stopped by the clock, the adjudication and
//! its reasoning (4.01.09). Judges fill it on a phone at the table.
//!
//! The report's state, the table's clock, the win-attempt record, the report and its history
//! follow the event's `table` news in place (`public/live-parts.js`): a dispute raised on a
//! phone or a report made final shows without a reload, and the clock stops there. The judges'
//! form is not swapped (someone may be typing in it); a report saved meanwhile is caught when
//! they save. Without JavaScript the page says when it was rendered and offers a refresh.

use dune::{Faction, WinType};
use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use tournament::EndValues;
use tournament::ids::{PlayerId, Revision, RoundNumber, TableNumber};
use tournament::report::Ending;

use crate::{
    components::{
        clock::TickingClock,
        field::FormError,
        live::{LiveBar, LiveParts},
        rule_link::RuleLink,
    },
    error::{AppError, seat_field_id},
    forms::{DoneNote, PostForm, form_state},
    pages::{
        dashboard::RunNav,
        params::{number_param, slug_param, table_param},
    },
    results::{
        AnswerReport, FinaliseReport, RecordAttempts, RevisionView, SaveReport, TableData,
        get_table, note_field,
    },
};

#[component]
pub fn TablePage() -> impl IntoView {
    let slug = slug_param();
    let round = number_param();
    let table = table_param();
    let data = Resource::new(
        move || (slug.get(), round.get(), table.get()),
        |(slug, round, table)| get_table(slug, round, table),
    );
    view! {
        <main class="page table-page">
            <Suspense fallback=|| view! { <p>"Loading the table…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! {
                            <Title text=if d.final_table {
                                format!("Final table · {}", d.event_name)
                            } else {
                                format!("Round {} · Table {} · {}", d.round, d.table, d.event_name)
                            }/>
                            {d.can_record.then(|| view! { <RunNav slug=slug/> })}
                            <Table d=d/>
                        }.into_any(),
                        Err(e) => {
                            let title = format!("Round {}, table {}", round.get_untracked(), table.get_untracked());
                            view! {
                                <Title text=title.clone()/>
                                <h1>{title}</h1>
                                <p role="alert">{e.to_string()}</p>
                            }.into_any()
                        }
                    }
                })}
            </Suspense>
        </main>
    }
}

fn result_name(result: Option<WinType>) -> String {
    match result {
        None => "—".to_owned(),
        Some(w) => format!("{} ({})", w.code(), w.name()),
    }
}

fn ended_text(ended: Ending) -> &'static str {
    match ended {
        Ending::Win => "a win during play",
        Ending::Time => "the clock (adjudicated, 4.01.09)",
        Ending::Turns => "the end of turn 10 (1.09.05)",
    }
}

/// The end values' names in 4.01.11 order: a short word to show, and the rest of the name a
/// screen reader says with it ("Forces" + " on board").
const VALUE_NAMES: [(&str, &str); 5] = [
    ("Strongholds", ""),
    ("Forces", " on board"),
    ("Spice", " behind the shield"),
    ("Cards", " in hand"),
    ("Leaders", " in the pool"),
];

/// The end values in 4.01.11 order, each with its name, for a line of the report.
fn values_text(end: &EndValues) -> String {
    EndValues::CATEGORIES
        .iter()
        .zip(VALUE_NAMES)
        .map(|(c, (name, _))| format!("{name} {}", end.get(*c).unwrap_or(0)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The end values with their names, each kept on one line, the list free to wrap on a phone.
#[component]
fn Values(end: EndValues) -> impl IntoView {
    EndValues::CATEGORIES
        .iter()
        .zip(VALUE_NAMES)
        .enumerate()
        .map(|(i, (c, (name, _)))| {
            view! {
                {(i > 0).then_some(" · ")}
                <span class="value">{format!("{name} {}", end.get(*c).unwrap_or(0))}</span>
            }
        })
        .collect_view()
}

fn faction_code(faction: Option<dune::Faction>) -> &'static str {
    faction.map_or("", |f| f.code())
}

/// The table's results and every form on them. Each form is a plain form the server answers by
/// rendering the table anew (`crate::forms`), so a player's phone works before the wasm.
#[component]
fn Table(d: TableData) -> impl IntoView {
    let title = if d.final_table {
        format!("Final table (round {})", d.round)
    } else {
        format!("Round {} · Table {}", d.round, d.table)
    };
    let staff = d.can_record;
    let round_href = format!("/events/{}/rounds/{}", d.slug, d.round);
    // The game log (its verification and board) lives on a page of its own.
    let log_link = (staff || d.status.is_final()).then(|| {
        let href = format!(
            "/events/{}/rounds/{}/tables/{}/log",
            d.slug, d.round, d.table
        );
        view! { <p class="log-link"><a href=href>"Game log: verification and board"</a></p> }
    });
    let clock = d.clock.map(|clock| {
        view! { <TickingClock clock=clock server_now=d.now_ms label=format!("Table {} clock", d.table)/> }
    });
    view! {
        <p><a href=round_href>{format!("{} · round {}", d.event_name, d.round)}</a></p>
        <h1>{title}</h1>
        <LiveBar slug=d.slug.clone() now_ms=d.now_ms/>
        <div id="live-report-state" data-live="table">
            <p class="report-state" data-state=d.status.code() role="status">
                "Report: "<strong>{d.status.label()}</strong>
            </p>
            {clock}
        </div>
        {log_link}
        <Attempts d=d.clone()/>
        <div id="live-report" data-live="table">
            <LatestReport d=d.clone()/>
        </div>
        {staff.then(|| view! { <ReportEditor d=d.clone()/> })}
        <div id="live-history" data-live="table">
            <History d=d.clone()/>
        </div>
        <LiveParts/>
    }
}

/// The running count per player, each turn's record, and (for judges) the form for the next
/// Battle phase.
#[component]
fn Attempts(d: TableData) -> impl IntoView {
    let state = form_state(RecordAttempts::url());
    let error = state.error;
    let shown: String = d
        .turn_revisions
        .iter()
        .map(|(t, r)| format!("{t}:{r}"))
        .collect::<Vec<_>>()
        .join(",");
    let next_turn = d
        .turns
        .iter()
        .map(|t| t.turn)
        .max()
        .map_or(1, |t| (t + 1).min(10));
    let counts = d
        .seats
        .iter()
        .map(|s| {
            view! {
                <tr data-player=s.player.clone()>
                    <th scope="row">{s.player.clone()}{s.mine.then_some(" (you)")}</th>
                    <td>{faction_code(s.faction)}</td>
                    <td class="num" data-testid="attempt-count">{s.win_attempts}</td>
                </tr>
            }
        })
        .collect_view();
    let turns = d
        .turns
        .iter()
        .map(|t| {
            let who = if t.attempts.is_empty() {
                "nobody".to_owned()
            } else {
                t.attempts
                    .iter()
                    .map(|(p, e)| {
                        if e.is_empty() {
                            p.clone()
                        } else {
                            let seen: Vec<&str> = e.iter().map(|s| s.code()).collect();
                            format!("{p} ({})", seen.join(" "))
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            view! {
                <li>
                    <strong>{format!("Turn {}: ", t.turn)}</strong>{who}
                    <span class="hint">{format!(" · {} {}{}", t.by.clone().unwrap_or_default(), t.at,
                        if t.revision > Revision(1) { format!(" · revision {}", t.revision) } else { String::new() })}</span>
                </li>
            }
        })
        .collect_view();
    let form = d.can_record.then(|| {
        let slug = d.slug.clone();
        let seats = d
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let id = format!("attempt-{i}");
                let evidence_id = format!("evidence-{i}");
                let evidence_field = format!("evidence-{i}");
                let label = format!("{} ({})", s.player, faction_code(s.faction));
                let evidence_label = format!("Strongholds seen for {}", s.player);
                let message = Memo::new(move |_| error.get().and_then(|e| e.message_for(&evidence_field)));
                view! {
                    <div class="attempt-seat">
                        <input type="hidden" name=format!("form[seats][{i}][player_id]") value=s.player_id.to_string()/>
                        <label class="check" for=id.clone()>
                            <input type="checkbox" id=id.clone() name=format!("form[seats][{i}][made]")/>
                            {label}
                        </label>
                        <label class="sr-only" for=evidence_id.clone()>{evidence_label}</label>
                        <input id=evidence_id type="text" name=format!("form[seats][{i}][evidence]")
                            aria-describedby="attempt-hint" autocomplete="off" autocapitalize="characters"/>
                        <p class="field-error" role="alert" hidden=move || message.get().is_none()
                            data-error-for=format!("evidence-{i}") data-control=format!("evidence-{i}")>{move || message.get()}</p>
                    </div>
                }
            })
            .collect_view();
        let turn_options = (1..=10)
            .map(|t| view! { <option value=t.to_string() selected=t == next_turn>{format!("Turn {t}")}</option> })
            .collect_view();
        let reason_message = Memo::new(move |_| error.get().and_then(|e| e.message_for("reason")));
        let turn_message = Memo::new(move |_| error.get().and_then(|e| e.message_for("turn")));
        view! {
            <details class="panel" open=!d.status.is_final()>
                <summary>"Record a Battle phase"</summary>
                <PostForm action=RecordAttempts::url()>
                    <input type="hidden" name="form[slug]" value=slug/>
                    <input type="hidden" name="form[round]" value=d.round.to_string()/>
                    <input type="hidden" name="form[table]" value=d.table.to_string()/>
                    <input type="hidden" name="form[shown]" value=shown/>
                    <div class="field">
                        <label for="attempt-turn">"Turn"</label>
                        <select id="attempt-turn" name="form[turn]">{turn_options}</select>
                        <p class="field-error" role="alert" hidden=move || turn_message.get().is_none()
                            data-error-for="turn" data-control="attempt-turn">{move || turn_message.get()}</p>
                    </div>
                    <fieldset>
                        <legend>"Who made a win attempt?"</legend>
                        <p class="hint" id="attempt-hint">"Tick each player who, at the start of this Battle phase, had forces in a stronghold and 3 strongholds occupied (4 with an ally; "<RuleLink number="4.01.04"/>"). In the box beside a name you may type the strongholds seen, as codes: ARK, CAR, TUK, TAB, HAB, and SW for the Shield Wall ("<RuleLink number="4.02"/>")."</p>
                        {seats}
                    </fieldset>
                    <div class="field">
                        <label for="attempt-reason">"Reason for a change"</label>
                        <p class="hint" id="attempt-reason-hint">"Only when correcting a turn already recorded."</p>
                        <input id="attempt-reason" type="text" name="form[reason]" aria-describedby="attempt-reason-hint"/>
                        <p class="field-error" role="alert" hidden=move || reason_message.get().is_none()
                            data-error-for="reason" data-control="attempt-reason">{move || reason_message.get()}</p>
                    </div>
                    <FormError error=error/>
                    <DoneNote done=state.done.clone()/>
                    <button type="submit">"Save win attempts"</button>
                </PostForm>
            </details>
        }
    });
    view! {
        <section aria-labelledby="attempts">
            <h2 id="attempts">"Win attempts (4.01.04)"</h2>
            <div id="live-attempts" data-live="table">
                <table tabindex="0" class="compact">
                    <caption class="sr-only">"Win attempts per player"</caption>
                    <thead><tr><th scope="col">"Player"</th><th scope="col">"Faction"</th><th scope="col" class="num">"Win attempts"</th></tr></thead>
                    <tbody>{counts}</tbody>
                </table>
                {(!d.turns.is_empty()).then(|| view! { <ul class="turns" aria-label="Recorded Battle phases">{turns}</ul> })}
            </div>
            {form}
        </section>
    }
}

/// The report as it stands, its results and adjudication, and the confirmations.
#[component]
fn LatestReport(d: TableData) -> impl IntoView {
    let Some(latest) = d.revisions.first().cloned() else {
        return view! {
            <section aria-labelledby="report">
                <h2 id="report">"Game report (4.01.07)"</h2>
                <p>{if d.status == tournament::ReportStatus::Missing { "No report yet." } else { "The report is waiting for the players' confirmation." }}</p>
            </section>
        }
        .into_any();
    };
    let answer_error = form_state(AnswerReport::url()).error;
    let finalise_error = form_state(FinaliseReport::url()).error;
    let rows = latest
        .seats
        .iter()
        .map(|s| {
            let result = d
                .results
                .iter()
                .find(|(p, _)| *p == s.player)
                .and_then(|(_, r)| *r)
                .or(s.result);
            let confirmation = latest.confirmations.iter().find(|c| c.player == s.player);
            let answer = match confirmation {
                Some(c) if c.agrees => "yes".to_owned(),
                Some(c) => format!("disputes: {}", c.note.clone().unwrap_or_default()),
                None => "—".to_owned(),
            };
            let result_title = result_name(result);
            view! {
                <tr data-player=s.player.clone()>
                    <th scope="row">{s.player.clone()}
                        <small>{s.faction.code()}{s.ally.map(|a| format!(" + ally {a}"))}</small></th>
                    <td data-testid="result" data-label="Result"><abbr title=result_title>{result.map_or("—", |w| w.code())}</abbr></td>
                    <td class="values" data-label="At the end"><Values end=s.end/></td>
                    <td class="answer-cell" data-label="Confirmed">{answer}</td>
                </tr>
            }
        })
        .collect_view();
    let adjudication = (!d.adjudication.is_empty()).then(|| {
        view! {
            <section aria-labelledby="adjudication" class="adjudication">
                <h3 id="adjudication">"Adjudication (4.01.09)"</h3>
                <ol>{d.adjudication.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view()}</ol>
            </section>
        }
    });
    let open = latest.final_at.is_none();
    // The viewer's own seat: agree or dispute. Judges answer for any player.
    let my_name = d
        .my_player
        .and_then(|id| d.seats.iter().find(|s| s.player_id == id))
        .map(|s| s.player.clone());
    let my_answer = my_name.as_ref().and_then(|n| {
        latest
            .confirmations
            .iter()
            .find(|c| &c.player == n)
            .cloned()
    });
    let mine = d.my_player.filter(|_| open).map(|player_id| match my_answer {
        Some(c) => view! {
            <p class="ok" data-testid="my-answer">{if c.agrees {
                format!("You confirmed revision {}. It is final once every player has.", latest.revision)
            } else {
                format!("You disputed revision {}: the head judge will decide (4.01.05).", latest.revision)
            }}</p>
        }
        .into_any(),
        None => view! {
            <AnswerForms slug=d.slug.clone() round=d.round table=d.table revision=latest.revision
                player_id=player_id for_player=false heading="Your confirmation".to_owned()/>
        }
        .into_any(),
    });
    let for_players = (d.can_record && open).then(|| {
        let answered: Vec<String> = latest
            .confirmations
            .iter()
            .map(|c| c.player.clone())
            .collect();
        d.seats
            .iter()
            .filter(|s| !answered.contains(&s.player))
            .map(|s| {
                view! {
                    <AnswerForms slug=d.slug.clone() round=d.round table=d.table revision=latest.revision
                        player_id=s.player_id for_player=true
                        heading=format!("Confirm for {}", s.player)/>
                }
            })
            .collect_view()
    });
    let finalise = (d.can_override && open).then(|| {
        view! {
            <PostForm action=FinaliseReport::url() class="inline">
                <input type="hidden" name="slug" value=d.slug.clone()/>
                <input type="hidden" name="round" value=d.round.to_string()/>
                <input type="hidden" name="table" value=d.table.to_string()/>
                <input type="hidden" name="revision" value=latest.revision.to_string()/>
                <button type="submit">"Make this report final (head judge, 4.01.05)"</button>
            </PostForm>
            <FormError error=finalise_error/>
        }
    });
    view! {
        <section aria-labelledby="report">
            <h2 id="report">{format!("Game report · revision {}", latest.revision)}</h2>
            <p>{format!("Ended by {}; last turn played: {}.", ended_text(latest.ended), latest.last_turn)}</p>
            <table tabindex="0" class="compact report stack">
                <caption class="sr-only">"Results and end values per player"</caption>
                <thead><tr>
                    <th scope="col">"Player"</th><th scope="col">"Result"</th>
                    <th scope="col">"At the end"</th><th scope="col">"Confirmed"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <p class="hint">"At the end: strongholds held, forces on the board (advisors included), spice behind the shield, treachery cards in hand, leaders in the pool (captured ones included), the values that break ties ("<RuleLink number="4.01.11"/>"). Win attempts are counted above."</p>
            {adjudication}
            {latest.judge_draw.clone().map(|p| view! { <p>"Drawn by the head judge, the adjudication being tied ("<RuleLink number="4.01.09"/>"): "{p}</p> })}
            <FormError error=answer_error/>
            {mine}
            {finalise}
            {for_players.map(|v| view! { <details class="panel" id="confirm-for-players"><summary>"Confirm for players without a phone"</summary>{v}</details> })}
        </section>
    }
    .into_any()
}

#[component]
fn AnswerForms(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
    revision: Revision,
    player_id: PlayerId,
    for_player: bool,
    heading: String,
) -> impl IntoView {
    let hidden = move || {
        view! {
            <input type="hidden" name="slug" value=slug.clone()/>
            <input type="hidden" name="round" value=round.to_string()/>
            <input type="hidden" name="table" value=table.to_string()/>
            <input type="hidden" name="revision" value=revision.to_string()/>
            <input type="hidden" name="player_id" value=player_id.to_string()/>
            <input type="hidden" name="for_player" value=for_player.to_string()/>
        }
    };
    let (agree_fields, dispute_fields) = (hidden(), hidden());
    let note_id = format!("note-{player_id}-{for_player}");
    let box_id = format!("{note_id}-box");
    let note_error_id = format!("{note_id}-error");
    let error = form_state(AnswerReport::url()).error;
    // The server names the note of the player it concerns, so only that player's form shows it.
    let note_name = note_field(player_id);
    let note_message = Memo::new(move |_| error.get().and_then(|e| e.message_for(&note_name)));
    view! {
        <div class="confirm-box" role="group" aria-label=heading.clone()>
            <h3>{heading.clone()}</h3>
            <PostForm action=AnswerReport::url() class="inline">
                {agree_fields}
                <input type="hidden" name="agrees" value="true"/>
                <button type="submit">"The report is right"</button>
            </PostForm>
            // Open when its note was refused, so the message is seen (after a plain form post,
            // the page comes back with every box closed).
            <details id=box_id open=move || note_message.get().is_some()>
                <summary>"Something is wrong"</summary>
                <PostForm action=AnswerReport::url()>
                    {dispute_fields}
                    <input type="hidden" name="agrees" value="false"/>
                    <div class="field" class:invalid=move || note_message.get().is_some()>
                        <label for=note_id.clone()>"What is wrong?"</label>
                        <input id=note_id.clone() type="text" name="note"
                            aria-invalid=move || note_message.get().is_some().then_some("true")
                            aria-describedby={
                                let id = note_error_id.clone();
                                move || note_message.get().is_some().then(|| id.clone())
                            }/>
                        <p class="field-error" id=note_error_id.clone() role="alert" hidden=move || note_message.get().is_none()
                            data-error-for=note_field(player_id) data-control=note_id.clone()>{move || note_message.get()}</p>
                    </div>
                    <FormError error=error/>
                    <button type="submit" class="secondary">"Dispute: call the head judge"</button>
                </PostForm>
            </details>
        </div>
    }
}

/// The judges' form: a new revision of the report, prefilled from the latest one.
#[component]
fn ReportEditor(d: TableData) -> impl IntoView {
    let state = form_state(SaveReport::url());
    let error = state.error;
    let latest: Option<RevisionView> = d.revisions.first().cloned();
    // Someone saved first (the page was older than the table): the page comes back showing what
    // they saved, and saving again puts this judge's entry on top, as a new revision.
    let theirs = matches!(error.get_untracked(), Some(AppError::Conflict(_)))
        .then(|| latest.clone())
        .flatten();
    let final_now = d.status.is_final();
    let field_error =
        move |name: String| Memo::new(move |_| error.get().and_then(|e| e.message_for(&name)));
    let seat_fields = d
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let prior = latest
                .as_ref()
                .and_then(|l| l.seats.iter().find(|x| x.player_id == s.player_id).cloned());
            let values = prior.as_ref().map(|p| p.end);
            let name = |f: &str| format!("form[seats][{i}][{f}]");
            let id = |f: &str| seat_field_id(i, f);
            let faction = prior.as_ref().map(|p| p.faction).or(s.faction);
            let faction_input = if let Some(dealt) = s.faction {
                view! {
                    <input type="hidden" name=name("faction") value=dealt.code()/>
                }
                .into_any()
            } else {
                let options = d
                    .factions
                    .iter()
                    .map(|f| view! { <option value=f.code() selected=Some(*f) == faction>{format!("{} {}", f.code(), f.name())}</option> })
                    .collect_view();
                view! {
                    <div class="field faction-field">
                        <label for=id("faction")>"Faction"</label>
                        <select id=id("faction") name=name("faction")><option value="">"—"</option>{options}</select>
                    </div>
                }
                .into_any()
            };
            let ally = prior.as_ref().and_then(|p| p.ally);
            let ally_options = d
                .seats
                .iter()
                .filter(|o| o.player_id != s.player_id)
                .filter_map(|o| o.faction)
                .map(|f| view! { <option value=f.code() selected=Some(f) == ally>{f.code()}</option> })
                .collect_view();
            let result = prior.as_ref().and_then(|p| p.result);
            let result_options = d
                .win_types
                .iter()
                .map(|w| view! { <option value=w.code() selected=Some(*w) == result>{format!("{} · {}", w.code(), w.name())}</option> })
                .collect_view();
            // Each value's box is narrow: its message goes under the player's row (`errors`),
            // the width of the form, not inside the box.
            let numbers = EndValues::CATEGORIES
            .into_iter()
            .zip(VALUE_NAMES)
            .map(|(category, (label, rest))| {
                let f = category.field();
                let current = values
                    .and_then(|v| v.get(category))
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                let message = field_error(id(f));
                let error_id = format!("{}-error", id(f));
                view! {
                    <div class="field num-field" class:invalid=move || message.get().is_some()>
                        <label for=id(f)>{label}<span class="sr-only">{rest}</span></label>
                        <input id=id(f) name=name(f) type="number" inputmode="numeric" min="0" value=current
                            aria-describedby=error_id
                            aria-invalid=move || message.get().is_some().then_some("true")/>
                    </div>
                }
            })
            .collect_view();
            let errors = EndValues::CATEGORIES
                .into_iter()
                .map(|category| {
                    let f = category.field();
                    let message = field_error(id(f));
                    view! {
                        <p class="field-error" id=format!("{}-error", id(f)) role="alert" hidden=move || message.get().is_none()
                            data-error-for=id(f) data-control=id(f)>{move || message.get()}</p>
                    }
                })
                .collect_view();
            let result_msg = field_error(id("result"));
            let ally_msg = field_error(id("ally"));
            let faction_msg = field_error(id("faction"));
            let legend = format!(
                "{} · {}",
                s.player,
                s.faction.map_or("faction to pick", |f| f.name())
            );
            view! {
                <fieldset class="seat-report">
                    <legend>{legend}</legend>
                    <input type="hidden" name=name("player_id") value=s.player_id.to_string()/>
                    <div class="seat-fields">
                    {faction_input}
                    <p class="field-error" role="alert" hidden=move || faction_msg.get().is_none()
                        data-error-for=id("faction") data-control=id("faction")>{move || faction_msg.get()}</p>
                    <div class="field" class:invalid=move || result_msg.get().is_some()>
                        <label for=id("result")>"Result"</label>
                        <select id=id("result") name=name("result")><option value="">"No win"</option>{result_options}</select>
                    </div>
                    <div class="field" class:invalid=move || ally_msg.get().is_some()>
                        <label for=id("ally")>"Ally"</label>
                        <select id=id("ally") name=name("ally")><option value="">"None"</option>{ally_options}</select>
                    </div>
                    <div class="numbers">{numbers}</div>
                    </div>
                    <div class="seat-errors">
                        <p class="field-error" role="alert" hidden=move || result_msg.get().is_none()
                            data-error-for=id("result") data-control=id("result")>{move || result_msg.get()}</p>
                        <p class="field-error" role="alert" hidden=move || ally_msg.get().is_none()
                            data-error-for=id("ally") data-control=id("ally")>{move || ally_msg.get()}</p>
                        {errors}
                    </div>
                </fieldset>
            }
        })
        .collect_view();
    let ended = latest.as_ref().map(|l| l.ended);
    // The clock still runs: "ended by the clock" needs the head judge to call time (4.01.08).
    let running = d.clock.is_some_and(|c| {
        let reading = c.read(d.now_ms);
        reading.phase == tournament::ClockPhase::Running && !reading.stopped
    });
    let call_time = (running && d.can_override && !final_now).then(|| {
        view! {
            <div class="choice">
                <input type="checkbox" id="report-call-time" name="form[call_time]" value="true"/>
                <label for="report-call-time">"Call time now: the game ends by the clock although the table's clock still runs (head judge; recorded in the audit log, 4.01.08)"</label>
            </div>
        }
    });
    let last_turn = latest
        .as_ref()
        .map(|l| l.last_turn.to_string())
        .unwrap_or_default();
    let judge_draw_options = d
        .seats
        .iter()
        .map(|s| view! { <option value=s.player_id.to_string()>{s.player.clone()}</option> })
        .collect_view();
    // The Bene Gesserit's prediction (2.02.03), asked for where the Bene Gesserit may sit.
    let bg_possible = d
        .seats
        .iter()
        .any(|s| s.faction.is_none_or(|f| f == Faction::BeneGesserit));
    let predicted = latest.as_ref().and_then(|l| l.prediction);
    let prediction_options = d
        .factions
        .iter()
        .filter(|f| **f != Faction::BeneGesserit)
        .map(|f| {
            view! { <option value=f.code() selected=predicted.is_some_and(|p| p.0 == *f)>{f.name()}</option> }
        })
        .collect_view();
    let predicted_turn = predicted.map(|p| p.1.to_string()).unwrap_or_default();
    let prediction_msg = field_error("prediction_faction".to_owned());
    let prediction_turn_msg = field_error("prediction_turn".to_owned());
    let prediction_fields = bg_possible.then(move || {
        view! {
            <fieldset class="prediction">
                <legend>"Bene Gesserit prediction ("<RuleLink number="2.02.03"/>")"</legend>
                <p class="hint">"The faction and turn on the Bene Gesserit's cards. Required for a Bene Gesserit Prediction win; otherwise optional."</p>
                <div class="field">
                    <label for="report-prediction-faction">"Faction predicted"</label>
                    <select id="report-prediction-faction" name="form[prediction_faction]"><option value="">"—"</option>{prediction_options}</select>
                    <p class="field-error" role="alert" hidden=move || prediction_msg.get().is_none()
                        data-error-for="prediction_faction" data-control="report-prediction-faction">{move || prediction_msg.get()}</p>
                </div>
                <div class="field">
                    <label for="report-prediction-turn">"Turn predicted"</label>
                    <input id="report-prediction-turn" name="form[prediction_turn]" type="number" inputmode="numeric" min="1" max="10" value=predicted_turn/>
                    <p class="field-error" role="alert" hidden=move || prediction_turn_msg.get().is_none()
                        data-error-for="prediction_turn" data-control="report-prediction-turn">{move || prediction_turn_msg.get()}</p>
                </div>
            </fieldset>
        }
    });
    let ended_msg = field_error("ended".to_owned());
    let turn_msg = field_error("last_turn".to_owned());
    let reason_msg = field_error("reason".to_owned());
    let draw_msg = field_error("judge_draw".to_owned());
    let heading = if final_now {
        "Correct the final report (head judge)"
    } else if latest.is_some() {
        "Edit the report"
    } else {
        "Fill the game report"
    };
    let options = [
        ("win", "A win during play (1.09)"),
        ("time", "The clock: adjudicate it (4.01.08, 4.01.09)"),
        ("turns", "The end of turn 10 (1.09.05)"),
    ]
    .into_iter()
    .map(|(code, label)| view! { <option value=code selected=ended.is_some_and(|e| e.code() == code)>{label}</option> })
    .collect_view();
    let theirs_view = theirs.map(|rev| {
        view! {
            <section class="notice" aria-labelledby="theirs">
                <h3 id="theirs">{format!("Saved meanwhile: revision {} by {}", rev.revision, rev.by.clone().unwrap_or_default())}</h3>
                <RevisionSummary rev=rev/>
                <p>"The form below shows it. Enter your changes again and save: yours becomes the next revision; both stay in the history."</p>
            </section>
        }
    });
    view! {
        <section aria-labelledby="edit-report">
            <details class="panel" open=!final_now>
                <summary><h2 id="edit-report" class="inline-heading">{heading}</h2></summary>
                {theirs_view}
                {(final_now && !d.can_override).then(|| view! {
                    <p class="notice">"This report is final. Only the head judge can correct it (4.01.05)."</p>
                })}
                <PostForm action=SaveReport::url() conflict_plain=true>
                    <input type="hidden" name="form[slug]" value=d.slug.clone()/>
                    <input type="hidden" name="form[round]" value=d.round.to_string()/>
                    <input type="hidden" name="form[table]" value=d.table.to_string()/>
                    <input type="hidden" name="form[base_revision]" value=d.latest_revision.to_string()/>
                    <div class="field">
                        <label for="report-ended">"How the game ended"</label>
                        <select id="report-ended" name="form[ended]"><option value="">"—"</option>{options}</select>
                        <p class="field-error" role="alert" hidden=move || ended_msg.get().is_none()
                            data-error-for="ended" data-control="report-ended">{move || ended_msg.get()}</p>
                    </div>
                    {call_time}
                    <div class="field">
                        <label for="report-last-turn">"Last turn played"</label>
                        <input id="report-last-turn" name="form[last_turn]" type="number" inputmode="numeric" min="1" max="10" value=last_turn/>
                        <p class="field-error" role="alert" hidden=move || turn_msg.get().is_none()
                            data-error-for="last_turn" data-control="report-last-turn">{move || turn_msg.get()}</p>
                    </div>
                    <p class="hint">"Per player: the result, the ally, and what they had at the end: strongholds held, forces on the board (advisors included), spice behind the shield, treachery cards in hand, leaders in the pool (captured ones included) ("<RuleLink number="4.01.11"/>"). Win attempts come from the record above. Leave results empty for a game stopped by the clock: Mentat adjudicates it."</p>
                    {seat_fields}
                    {prediction_fields}
                    <div class="field">
                        <label for="report-judge-draw">"Head judge's draw"</label>
                        <p class="hint">"Only when the adjudication is still tied after every value and the event's settings say the head judge draws one ("<RuleLink number="4.01.09"/>")."</p>
                        <select id="report-judge-draw" name="form[judge_draw]"><option value="">"—"</option>{judge_draw_options}</select>
                        <p class="field-error" role="alert" hidden=move || draw_msg.get().is_none()
                            data-error-for="judge_draw" data-control="report-judge-draw">{move || draw_msg.get()}</p>
                    </div>
                    <div class="field">
                        <label for="report-reason">"Reason for the correction"</label>
                        <p class="hint">"Required when correcting a final report; kept in the history."</p>
                        <input id="report-reason" name="form[reason]" type="text"/>
                        <p class="field-error" role="alert" hidden=move || reason_msg.get().is_none()
                            data-error-for="reason" data-control="report-reason">{move || reason_msg.get()}</p>
                    </div>
                    <FormError error=error/>
                    <DoneNote done=state.done.clone()/>
                    <button type="submit">{if final_now { "Save the correction" } else { "Save the report" }}</button>
                </PostForm>
            </details>
        </section>
    }
}

#[component]
fn RevisionSummary(rev: RevisionView) -> impl IntoView {
    view! {
        <p>{format!("Ended by {}; last turn {}.", ended_text(rev.ended), rev.last_turn)}</p>
        {rev.prediction.map(|(f, turn)| view! { <p>{format!("The Bene Gesserit predicted {} at turn {turn}.", f.name())}</p> })}
        <ul class="revision-seats">
            {rev.seats.iter().map(|s| view! {
                <li>{format!("{} ({}{}): {} · {}", s.player, s.faction,
                    s.ally.map(|a| format!(" + {a}")).unwrap_or_default(),
                    s.result.map_or("no win", |w| w.code()),
                    values_text(&s.end))}</li>
            }).collect_view()}
        </ul>
    }
}

/// Every revision with who, when and why; older win-attempt records.
#[component]
fn History(d: TableData) -> impl IntoView {
    if d.revisions.len() <= 1 && d.turn_history.is_empty() {
        return ().into_any();
    }
    view! {
        <section aria-labelledby="history">
            <h2 id="history">"History"</h2>
            <ol class="history" reversed>
                {d.revisions.iter().map(|r| view! {
                    <li>
                        <p><strong>{format!("Revision {}", r.revision)}</strong>
                            {format!(" · {} · {}", r.by.clone().unwrap_or_default(), r.at)}
                            {r.final_at.clone().map(|f| format!(" · final {f}{}", r.finalised_by.clone().map(|b| format!(" by {b}")).unwrap_or_default()))}
                        </p>
                        {r.reason.clone().map(|why| view! { <p>"Why: "{why}</p> })}
                        <RevisionSummary rev=r.clone()/>
                        {(!r.confirmations.is_empty()).then(|| view! {
                            <p class="hint">{r.confirmations.iter().map(|c| format!("{} {}{}{}",
                                c.player,
                                if c.agrees { "confirmed" } else { "disputed" },
                                c.note.clone().map(|n| format!(" (\"{n}\")")).unwrap_or_default(),
                                c.by.clone().filter(|b| !b.is_empty()).map(|b| format!(" via {b}")).unwrap_or_default(),
                            )).collect::<Vec<_>>().join("; ")}</p>
                        })}
                    </li>
                }).collect_view()}
            </ol>
            {(!d.turn_history.is_empty()).then(|| view! {
                <h3>"Earlier win-attempt records"</h3>
                <ul>
                    {d.turn_history.iter().map(|t| view! {
                        <li>{format!("Turn {} revision {}: {} · {} {}", t.turn, t.revision,
                            if t.attempts.is_empty() { "nobody".to_owned() } else { t.attempts.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>().join(", ") },
                            t.by.clone().unwrap_or_default(), t.at)}</li>
                    }).collect_view()}
                </ul>
            })}
        </section>
    }
    .into_any()
}
