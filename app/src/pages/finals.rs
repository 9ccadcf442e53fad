//! The finals: who is in as the standings stand, the head judge's closing of qualifying, and
//! the recorded, seeded draw that settles a tie across the cut line (rulings 4, 11, 13).

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

use crate::{
    components::field::{Field, FormError},
    final_table::{DrawFinalTable, FinalTableView, ordinal},
    forms::{PostForm, form_state},
    pages::{dashboard::RunNav, params::slug_param},
    qualifying::{CloseQualifying, QualifyingPlan, ReopenQualifying, qualifying_state},
    results::{CutRow, DrawFinalsTie, FinalsView, get_finals},
};

#[component]
pub fn FinalsPage() -> impl IntoView {
    let slug = slug_param();
    let data = Resource::new(
        move || slug.get(),
        |slug| async move {
            (
                get_finals(slug.clone()).await,
                qualifying_state(slug).await.ok(),
            )
        },
    );
    view! {
        <main class="page narrow">
            <Suspense fallback=|| view! { <p>"Loading the finals…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        (Ok(f), plan) => view! { <Title text=format!("Finals · {}", f.event_name)/><Finals f=f plan=plan slug=slug/> }.into_any(),
                        (Err(e), _) => view! { <Title text="Finals"/><h1>"Finals"</h1><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

fn names(list: &[String]) -> String {
    list.join(", ")
}

#[component]
fn Finals(f: FinalsView, plan: Option<QualifyingPlan>, slug: Memo<String>) -> impl IntoView {
    let state = if f.closed {
        format!(
            "Qualifying closed {}{}.",
            f.closed_at.clone().unwrap_or_default(),
            f.closed_by
                .clone()
                .map(|b| format!(" by {b}"))
                .unwrap_or_default()
        )
    } else {
        format!(
            "Qualifying is open: {} of {} reports final. The list below is as the standings stand now.",
            f.tables_final, f.tables
        )
    };
    let standings = format!("/events/{}/standings", f.slug);
    let tie = (!f.tied.is_empty()).then(|| {
        view! {
            <section aria-labelledby="cut-tie">
                <h2 id="cut-tie">"Tied across the cut line: a recorded draw settles it"</h2>
                <p>{format!("{} for {} seat{}: ", names(&f.tied), f.open_seats, if f.open_seats == 1 { "" } else { "s" })}</p>
                {match &f.draw {
                    Some((seed, picked, by, at)) => view! {
                        <p data-testid="cut-draw">{format!("Drawn with seed {seed}{} at {at}: {}.",
                            by.clone().map(|b| format!(" by {b}")).unwrap_or_default(), names(picked))}</p>
                    }.into_any(),
                    None if f.closed && f.can_override => view! {
                        <DrawForm slug=slug.get_untracked()/>
                    }.into_any(),
                    None if f.closed => view! { <p>"The head judge will draw the open seats."</p> }.into_any(),
                    None => view! { <p class="hint">"Settled by a recorded draw once qualifying closes."</p> }.into_any(),
                }}
            </section>
        }
    });
    let close_form = (!f.closed && f.can_override)
        .then(|| view! { <CloseForm slug=slug.get_untracked() plan=plan.clone()/> });
    let reported = f.final_table.as_ref().is_some_and(|t| t.reported);
    let reopen_form = (f.closed && f.can_override && !reported)
        .then(|| view! { <ReopenForm slug=slug.get_untracked() drawn=f.final_table.is_some()/> });
    // Everyone in the finals is known: qualifying closed and any cut tie drawn.
    let known = f.closed && (f.tied.is_empty() || f.draw.is_some());
    let final_table = match (&f.final_table, known) {
        (Some(t), _) => {
            Some(view! { <FinalTable slug=f.slug.clone() table=t.clone()/> }.into_any())
        }
        (None, true) if f.can_override => Some(
            view! {
                <DrawFinalForm slug=slug.get_untracked() qualifying_order=f.qualifying_order/>
            }
            .into_any(),
        ),
        (None, true) => Some(
            view! {
                <section aria-labelledby="final-table">
                    <h2 id="final-table">"Final table"</h2>
                    <p>"The head judge will seat the finalists at the final table."</p>
                </section>
            }
            .into_any(),
        ),
        (None, false) => None,
    };
    view! {
        {f.can_override.then(|| view! { <RunNav slug=slug/> })}
        <p><a href=format!("/events/{}", f.slug)>{f.event_name.clone()}</a></p>
        <h1>{format!("Finals · {} seats", f.seats)}</h1>
        <p role="status">{state}</p>
        <section aria-labelledby="finalists">
            <h2 id="finalists">{if f.closed { "Finalists" } else { "In the finals if qualifying closed now" }}</h2>
            {if f.finalists.is_empty() {
                view! { <p>"Nobody yet."</p> }.into_any()
            } else if f.finalist_rows.is_empty() {
                view! { <ol class="finalists">{f.finalists.iter().map(|p| view! { <li>{p.clone()}</li> }).collect_view()}</ol> }.into_any()
            } else {
                view! { <FinalistCards rows=f.finalist_rows.clone()/> }.into_any()
            }}
        </section>
        {final_table}
        <CutLine rows=f.cut.clone() above=f.cut_above/>
        {tie}
        {close_form}
        {reopen_form}
        <p><a href=standings rel="external">"Full standings"</a></p>
    }
}

/// A game's score with each value named: "points 3 · win attempts 2 · …".
#[component]
fn Score(values: Vec<(String, String)>) -> impl IntoView {
    view! {
        <dl class="score">
            {values.into_iter().map(|(name, value)| view! {
                <div><dt>{name}</dt><dd>{value}</dd></div>
            }).collect_view()}
        </dl>
    }
}

/// The finalists in standings order, one card each: place, points, the best game with its
/// values named, and, where a tiebreaker put the player above the next one, which and why
/// (4.01.10-11, ruling 11).
#[component]
fn FinalistCards(rows: Vec<CutRow>) -> impl IntoView {
    view! {
        <ol class="finalists finalist-cards">
            {rows.into_iter().map(|r| {
                let label = format!("{} · {}", r.rank, r.player);
                view! {
                    <li class="finalist-card" aria-label=label data-player=r.player.clone()>
                        <p class="who"><span class="rank">{r.rank}</span>" "<strong>{r.player.clone()}</strong>
                            " "<span class="points">{format!("{} point{}", r.points, if r.points == "1" { "" } else { "s" })}</span></p>
                        {(!r.best.is_empty()).then(|| view! {
                            <p class="score-head">"Best game"</p>
                            <Score values=r.best.clone()/>
                        })}
                        {r.reason.clone().filter(|_| r.tiebreak).map(|why| view! {
                            <p class="why" data-testid="tiebreak">{format!("Above the next player: {why}")}</p>
                        })}
                    </li>
                }
            }).collect_view()}
        </ol>
    }
}

/// The players around the finals line: points, the best game's score and why each is above
/// the next (4.01.10-11, ruling 11), the line drawn between the last in and the first out.
#[component]
fn CutLine(rows: Vec<CutRow>, above: usize) -> impl IntoView {
    if rows.is_empty() {
        return ().into_any();
    }
    let line = view! {
        <tr class="cut"><td colspan="4">"Finals line"</td></tr>
    };
    let mut line = Some(line);
    let count = rows.len();
    let body = rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let row = view! {
                <tr class:tied=r.tied>
                    <td class="num" data-label="Rank">{r.rank}</td>
                    <th scope="row">{r.player.clone()}{r.tied.then_some(" (tied across the cut)")}</th>
                    <td class="num" data-label="Points">{r.points.clone()}</td>
                    <td class="score" data-label="Best game" data-testid="best-game">{r.best_short.clone()}</td>
                </tr>
                {r.reason.clone().map(|why| view! {
                    <tr class="why"><td colspan="4">{format!("Above the next: {why}")}</td></tr>
                })}
            };
            // Nobody below the line (everyone left is tied across it): no line to draw.
            let after = (i + 1 == above && above < count).then(|| line.take()).flatten();
            view! { {row}{after} }
        })
        .collect_view();
    view! {
        <section aria-labelledby="cut-line">
            <h2 id="cut-line">"Around the finals line (4.01.10-11)"</h2>
            <p class="hint">"Points first; on equal points and wins, the best game's score decides: its points, then win attempts, strongholds, forces, spice, cards and leaders (4.01.11)."</p>
            <p class="hint legend">{format!("Best game: {}.", tournament::standings::SCORE_LEGEND)}</p>
            <div class="cut-scroll">
                <table class="cut-table stack" tabindex="0">
                    <caption>"Players around the finals line"</caption>
                    <thead><tr>
                        <th scope="col" class="num">"#"</th>
                        <th scope="col">"Player"</th>
                        <th scope="col" class="num">"Points"</th>
                        <th scope="col">"Best game"</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}

/// Closing changes the whole page: the server renders it again with the finalists. While
/// planned rounds remain, the form says how many and asks for a ticked confirmation; the server
/// refuses without it, naming them.
#[component]
fn CloseForm(slug: String, plan: Option<QualifyingPlan>) -> impl IntoView {
    let error = form_state(CloseQualifying::url()).error;
    let confirm_message = Memo::new(move |_| error.get().and_then(|e| e.message_for("confirm")));
    let plan = plan.unwrap_or(QualifyingPlan {
        rounds_drawn: 0,
        rounds_planned: 0,
        closed: false,
    });
    let remaining = plan.remaining();
    view! {
        <section aria-labelledby="close-qualifying">
            <h2 id="close-qualifying">"Close qualifying"</h2>
            <PostForm action=CloseQualifying::url()>
                <input type="hidden" name="slug" value=slug/>
                <p class="hint">"From then on no qualifying round starts, and the finalists are the standings' finals line. Every report must be final. The head judge can reopen qualifying."</p>
                {(remaining > 0).then(|| view! {
                    <p class="notice" data-testid="rounds-remain">{format!(
                        "{remaining} of the {} qualifying rounds {} not been played.",
                        plan.rounds_planned, if remaining == 1 { "has" } else { "have" }
                    )}</p>
                    <div class="choice">
                        <input type="checkbox" id="confirm-close" name="confirm" value="true"
                            aria-describedby="confirm-close-error"
                            aria-invalid=move || confirm_message.get().is_some().then_some("true")/>
                        <label for="confirm-close">{format!("Yes, close qualifying after round {}", plan.rounds_drawn)}</label>
                    </div>
                })}
                <p class="field-error" id="confirm-close-error" role="alert" hidden=move || confirm_message.get().is_none()
                    data-error-for="confirm" data-control="confirm-close">{move || confirm_message.get()}</p>
                <FormError error=error/>
                <button type="submit" class="danger">"Close qualifying"</button>
            </PostForm>
        </section>
    }
}

/// The final table once drawn: a link to it, and the event's placings when its report is
/// final (the final game's result first, then qualifying order).
#[component]
fn FinalTable(slug: String, table: FinalTableView) -> impl IntoView {
    let href = format!("/events/{slug}/rounds/{}", table.round);
    let state = match (table.begun, table.reported) {
        (_, true) => "The final game is reported: these are the event's placings.",
        (true, false) => "The final game is being played.",
        (false, false) => "Seated; play has not begun. Seats can still be swapped on its page.",
    };
    view! {
        <section aria-labelledby="final-table">
            <h2 id="final-table">"Final table"</h2>
            <p role="status">{state}" "<a href=href>"Open the final table"</a></p>
            {(!table.placings.is_empty()).then(|| view! { <Placings table=table.clone()/> })}
        </section>
    }
}

/// The event's placings: the final table's players by the final game, then everyone else by
/// qualifying. Shown here, on the standings and on the projector.
#[component]
pub fn Placings(table: FinalTableView) -> impl IntoView {
    let rest = table.placings.iter().filter(|p| !p.at_final).count();
    let first_rest = table.finalists().count() + 1;
    view! {
        <ol class="placings" aria-label="Final placings">
            {table.finalists().map(|p| view! {
                <li value=p.place.to_string() class:winner=p.result.is_some()>
                    <strong>{format!("{} ", ordinal(p.place))}</strong>{p.player.clone()}
                    <span class="hint">{format!(" · {}", p.basis())}</span>
                </li>
            }).collect_view()}
        </ol>
        {(rest > 0).then(|| view! {
            <p class="hint">{format!(
                "From {} place on, the qualifying standings decide ({} more player{}).",
                ordinal(first_rest), rest, if rest == 1 { "" } else { "s" }
            )}</p>
        })}
    }
}

/// Seats the finalists at one table; the server lands on the final table's page.
#[component]
fn DrawFinalForm(slug: String, qualifying_order: bool) -> impl IntoView {
    let error = form_state(DrawFinalTable::url()).error;
    let how = if qualifying_order {
        "As the event's settings say: the finalists choose in qualifying order. Mentat seats them in that order (a different choice of seat is recorded by a swap before play begins), and each picks a faction at the table in the same order; the report records it."
    } else {
        "As the event's settings say: seats are drawn (0.07) and factions dealt (0.08), as in a round. The seed is recorded."
    };
    view! {
        <section aria-labelledby="final-table">
            <h2 id="final-table">"Final table"</h2>
            <p>"Every finalist plays one more game. It runs like any table: its clock, its report, the same checks and adjudication; it does not count in the qualifying standings."</p>
            <PostForm action=DrawFinalTable::url()>
                <input type="hidden" name="slug" value=slug/>
                <p class="hint">{how}</p>
                {(!qualifying_order).then(|| view! {
                    <Field label="Seed (optional)" name="seed" error=error
                        hint="Leave empty for a random seed."/>
                })}
                <FormError error=error/>
                <button type="submit">"Seat the final table"</button>
            </PostForm>
        </section>
    }
}

/// The head judge reopens qualifying (closed too early, or by mistake); audited.
#[component]
fn ReopenForm(slug: String, drawn: bool) -> impl IntoView {
    let error = form_state(ReopenQualifying::url()).error;
    let confirm_message = Memo::new(move |_| error.get().and_then(|e| e.message_for("confirm")));
    view! {
        <section aria-labelledby="reopen-qualifying">
            <h2 id="reopen-qualifying">"Reopen qualifying"</h2>
            <PostForm action=ReopenQualifying::url()>
                <input type="hidden" name="slug" value=slug/>
                <p class="hint">"Closed too early? Reopening lets the next round be drawn, and a cut-line draw no longer holds. The audit log keeps the closing."</p>
                {drawn.then(|| view! {
                    <p class="notice">"The final table is drawn: reopening withdraws it (recorded in the audit log)."</p>
                    <div class="choice">
                        <input type="checkbox" id="confirm-reopen" name="confirm" value="true"
                            aria-describedby="confirm-reopen-error"
                            aria-invalid=move || confirm_message.get().is_some().then_some("true")/>
                        <label for="confirm-reopen">"Yes, also remove what is recorded at the final table"</label>
                    </div>
                })}
                <p class="field-error" id="confirm-reopen-error" role="alert" hidden=move || confirm_message.get().is_none()
                    data-error-for="confirm" data-control="confirm-reopen">{move || confirm_message.get()}</p>
                <FormError error=error/>
                <button type="submit" class="secondary">"Reopen qualifying"</button>
            </PostForm>
        </section>
    }
}

/// The draw is recorded and shown by the server on the page it comes back to.
#[component]
fn DrawForm(slug: String) -> impl IntoView {
    let error = form_state(DrawFinalsTie::url()).error;
    view! {
        <PostForm action=DrawFinalsTie::url()>
            <input type="hidden" name="slug" value=slug/>
            <Field label="Seed (optional)" name="seed" error=error
                hint="Leave empty for a random seed; it is recorded so the draw can be re-run in front of the players."/>
            <FormError error=error/>
            <button type="submit">"Draw the open seats"</button>
        </PostForm>
    }
}
