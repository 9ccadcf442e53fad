//! One player's registration, for the head judge: fix the name, e-mail or club at any time (the
//! draws, standings and finals read names from the database, so the fix shows everywhere), and
//! delete a player who was never seated, after ticking a box that says so.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;
use tournament::ids::PlayerId;

use crate::{
    components::{
        field::{Field, FormError},
        title::EventTitle,
    },
    forms::{DoneNote, PostForm, form_state},
    pages::{dashboard::RunNav, params::slug_param},
    players::PlayerRow,
    registration::{DeletePlayer, EditPlayer, get_player},
};

#[component]
pub fn PlayerPage() -> impl IntoView {
    let slug = slug_param();
    let params = use_params_map();
    let player = Memo::new(move |_| {
        params
            .read()
            .get("player")
            .and_then(|p| p.parse::<PlayerId>().ok())
            .unwrap_or(PlayerId(0))
    });
    let data = Resource::new(
        move || (slug.get(), player.get()),
        |(slug, player)| get_player(slug, player),
    );
    view! {
        <main class="page narrow">
            <RunNav slug=slug/>
            <Suspense fallback=|| view! { <p>"Loading the player…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(p) => view! {
                            <EventTitle page=format!("{} · Players", p.name) slug=slug/>
                            <Edit p=p slug=slug.get_untracked()/>
                        }.into_any(),
                        Err(e) => view! { <Title text="Player"/><h1>"Player"</h1><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

#[component]
fn Edit(p: PlayerRow, slug: String) -> impl IntoView {
    let edit = form_state(EditPlayer::url());
    let delete = form_state(DeletePlayer::url());
    let delete_error = delete.error;
    let confirm_message =
        Memo::new(move |_| delete_error.get().and_then(|e| e.message_for("confirm")));
    let players = format!("/events/{slug}/players");
    let (slug_edit, slug_delete) = (slug.clone(), slug);
    let (name, email, club, sort_as) = (
        p.name.clone(),
        p.email.clone(),
        p.club.clone(),
        p.sort_as.clone(),
    );
    let (confirm_label, delete_label) = (
        format!("Yes, delete {}", p.name),
        format!("Delete {}", p.name),
    );
    let (id_edit, id_delete, version) = (p.id.to_string(), p.id.to_string(), p.version);
    view! {
        <p><a href=players.clone()>"← All players"</a></p>
        <h1>{p.name.clone()}</h1>
        <section aria-labelledby="edit-player">
            <h2 id="edit-player">"Registration"</h2>
            <p class="hint">"A fix shows at once on the draws, the standings and the finals; the audit log keeps the old values."</p>
            <PostForm action=EditPlayer::url() class="narrow">
                <input type="hidden" name="slug" value=slug_edit/>
                <input type="hidden" name="player_id" value=id_edit/>
                <input type="hidden" name="version" value=version/>
                <Field label="Name" name="name" required=true value=name error=edit.error/>
                <Field label="Email (optional)" name="email" kind="email" value=email error=edit.error/>
                <Field label="Club (optional)" name="club" value=club error=edit.error/>
                <input type="hidden" name="sort_as_shown" value="true"/>
                <Field label="Sort as (optional)" name="sort_as" value=sort_as error=edit.error
                    hint="The wall's pairings print the name as written and sort it with accents and capitals ignored. To file it elsewhere, type the key to sort by: \"Dijk, Anna van\" puts Anna van Dijk under D."/>
                <FormError error=edit.error/>
                <button type="submit">"Save"</button>
            </PostForm>
            <DoneNote done=edit.done/>
        </section>
        <section aria-labelledby="delete-player" class="danger-zone">
            <h2 id="delete-player">"Delete"</h2>
            <p>"Only for a player who has never sat at a table (a duplicate, a no-show). A player who has played is dropped instead, which keeps their games."</p>
            <PostForm action=DeletePlayer::url()>
                <input type="hidden" name="slug" value=slug_delete/>
                <input type="hidden" name="player_id" value=id_delete/>
                <input type="hidden" name="version" value=version/>
                <div class="choice" class:invalid=move || confirm_message.get().is_some()>
                    <input type="checkbox" id="confirm-delete" name="confirm" value="true"
                        aria-describedby="confirm-delete-error"/>
                    <label for="confirm-delete">{confirm_label}</label>
                </div>
                <p class="field-error" id="confirm-delete-error" role="alert"
                    hidden=move || confirm_message.get().is_none()
                    data-error-for="confirm" data-control="confirm-delete">{move || confirm_message.get()}</p>
                <FormError error=delete_error/>
                <button type="submit" class="danger">{delete_label}</button>
            </PostForm>
        </section>
    }
}
