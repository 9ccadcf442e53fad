//! The finals: who is in as the standings stand, the head judge's closing of qualifying, and
//! the recorded, seeded draw that settles a tie across the cut line (rulings 4, 11, 13).

use leptos::prelude::*;

use crate::{
    components::field::{Field, FormError, count_successes, last_error},
    pages::{dashboard::RunNav, params::slug_param},
    qualifying::{CloseQualifying, QualifyingPlan, ReopenQualifying, qualifying_state},
    results::{DrawFinalsTie, FinalsView, get_finals},
};

#[component]
pub fn FinalsPage() -> impl IntoView {
    let slug = slug_param();
    let close = ServerAction::<CloseQualifying>::new();
    let reopen = ServerAction::<ReopenQualifying>::new();
    let draw = ServerAction::<DrawFinalsTie>::new();
    let changes = RwSignal::new(0u32);
    count_successes(close.value(), changes);
    count_successes(reopen.value(), changes);
    count_successes(draw.value(), changes);
    let data = Resource::new(
        move || (slug.get(), changes.get()),
        |(slug, _)| async move {
            (
                get_finals(slug.clone()).await,
                qualifying_state(slug).await.ok(),
            )
        },
    );
    view! {
        <main class="page narrow">
            <Transition fallback=|| view! { <p>"Loading the finals…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        (Ok(f), plan) => view! { <Finals f=f plan=plan close=close reopen=reopen draw=draw slug=slug/> }.into_any(),
                        (Err(e), _) => view! { <h1>"Finals"</h1><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Transition>
        </main>
    }
}

fn names(list: &[String]) -> String {
    list.join(", ")
}

#[component]
fn Finals(
    f: FinalsView,
    plan: Option<QualifyingPlan>,
    close: ServerAction<CloseQualifying>,
    reopen: ServerAction<ReopenQualifying>,
    draw: ServerAction<DrawFinalsTie>,
    slug: Memo<String>,
) -> impl IntoView {
    let close_error = last_error(close.value());
    let reopen_error = last_error(reopen.value());
    let draw_error = last_error(draw.value());
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
                <h2 id="cut-tie">"Tied across the cut line (ruling 11)"</h2>
                <p>{format!("{} for {} seat{}: ", names(&f.tied), f.open_seats, if f.open_seats == 1 { "" } else { "s" })}</p>
                {match &f.draw {
                    Some((seed, picked, by, at)) => view! {
                        <p data-testid="cut-draw">{format!("Drawn with seed {seed}{} at {at}: {}.",
                            by.clone().map(|b| format!(" by {b}")).unwrap_or_default(), names(picked))}</p>
                    }.into_any(),
                    None if f.closed && f.can_override => view! {
                        <ActionForm action=draw>
                            <input type="hidden" name="slug" value=slug.get_untracked()/>
                            <Field label="Seed (optional)" name="seed" error=draw_error
                                hint="Leave empty for a random seed; it is recorded so the draw can be re-run in front of the players."/>
                            <FormError error=draw_error/>
                            <button type="submit">"Draw the open seats"</button>
                        </ActionForm>
                    }.into_any(),
                    None if f.closed => view! { <p>"The head judge will draw the open seats."</p> }.into_any(),
                    None => view! { <p class="hint">"Settled by a recorded draw once qualifying closes."</p> }.into_any(),
                }}
            </section>
        }
    });
    let close_form = (!f.closed && f.can_override).then(|| {
        let plan = plan.clone().unwrap_or(QualifyingPlan { rounds_drawn: 0, rounds_planned: 0, closed: false });
        let remaining = plan.remaining();
        view! {
            <section aria-labelledby="close-qualifying">
                <h2 id="close-qualifying">"Close qualifying"</h2>
                <ActionForm action=close>
                    <input type="hidden" name="slug" value=slug.get_untracked()/>
                    <p class="hint">"From then on no qualifying round starts, and the finalists are the standings' finals line. Every report must be final. The head judge can reopen qualifying."</p>
                    {(remaining > 0).then(|| view! {
                        <p class="notice" data-testid="rounds-remain">{format!(
                            "{remaining} of the {} qualifying rounds {} not been played.",
                            plan.rounds_planned, if remaining == 1 { "has" } else { "have" }
                        )}</p>
                        <div class="choice">
                            <input type="checkbox" id="confirm-close" name="confirm" value="true"/>
                            <label for="confirm-close">{format!("Yes, close qualifying after round {}", plan.rounds_drawn)}</label>
                        </div>
                    })}
                    <FormError error=close_error/>
                    <p class="field-error" role="alert">{move || close_error.get().and_then(|e| e.message_for("confirm"))}</p>
                    <button type="submit" class="danger">"Close qualifying"</button>
                </ActionForm>
            </section>
        }
    });
    let reopen_form = (f.closed && f.can_override).then(|| {
        view! {
            <section aria-labelledby="reopen-qualifying">
                <h2 id="reopen-qualifying">"Reopen qualifying"</h2>
                <ActionForm action=reopen>
                    <input type="hidden" name="slug" value=slug.get_untracked()/>
                    <p class="hint">"Closed too early? Reopening lets the next round be drawn; a cut-line draw no longer holds. It is kept in the audit log."</p>
                    <FormError error=reopen_error/>
                    <button type="submit" class="secondary">"Reopen qualifying"</button>
                </ActionForm>
            </section>
        }
    });
    view! {
        {f.can_override.then(|| view! { <RunNav slug=slug/> })}
        <p><a href=format!("/events/{}", f.slug)>{f.event_name.clone()}</a></p>
        <h1>{format!("Finals · {} seats (ruling 13)", f.seats)}</h1>
        <p role="status">{state}</p>
        <section aria-labelledby="finalists">
            <h2 id="finalists">{if f.closed { "Finalists" } else { "In the finals if qualifying closed now" }}</h2>
            {if f.finalists.is_empty() {
                view! { <p>"Nobody yet."</p> }.into_any()
            } else {
                view! { <ol class="finalists">{f.finalists.iter().map(|p| view! { <li>{p.clone()}</li> }).collect_view()}</ol> }.into_any()
            }}
        </section>
        {tie}
        {close_form}
        {reopen_form}
        <p><a href=standings rel="external">"Full standings"</a></p>
    }
}
