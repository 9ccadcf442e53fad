//! The finals: who is in as the standings stand, the head judge's closing of qualifying, and
//! the recorded, seeded draw that settles a tie across the cut line (rulings 4, 11, 13).

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

use crate::{
    components::field::{Field, FormError},
    forms::{PostForm, form_state},
    pages::{dashboard::RunNav, params::slug_param},
    results::{CloseQualifying, DrawFinalsTie, FinalsView, get_finals},
};

#[component]
pub fn FinalsPage() -> impl IntoView {
    let slug = slug_param();
    let data = Resource::new(move || slug.get(), get_finals);
    view! {
        <main class="page narrow">
            <Suspense fallback=|| view! { <p>"Loading the finals…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(f) => view! { <Title text=format!("Finals · {}", f.event_name)/><Finals f=f slug=slug/> }.into_any(),
                        Err(e) => view! { <Title text="Finals"/><h1>"Finals"</h1><p role="alert">{e.to_string()}</p> }.into_any(),
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
fn Finals(f: FinalsView, slug: Memo<String>) -> impl IntoView {
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
                        <DrawForm slug=slug.get_untracked()/>
                    }.into_any(),
                    None if f.closed => view! { <p>"The head judge will draw the open seats."</p> }.into_any(),
                    None => view! { <p class="hint">"Settled by a recorded draw once qualifying closes."</p> }.into_any(),
                }}
            </section>
        }
    });
    let close_form =
        (!f.closed && f.can_override).then(|| view! { <CloseForm slug=slug.get_untracked()/> });
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
        <p><a href=standings rel="external">"Full standings"</a></p>
    }
}

/// Closing changes the whole page: the server renders it again with the finalists.
#[component]
fn CloseForm(slug: String) -> impl IntoView {
    let error = form_state(CloseQualifying::url()).error;
    view! {
        <PostForm action=CloseQualifying::url()>
            <input type="hidden" name="slug" value=slug/>
            <p class="hint">"Closing fixes the finalists from the standings. Every report must be final."</p>
            <FormError error=error/>
            <button type="submit">"Close qualifying"</button>
        </PostForm>
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
