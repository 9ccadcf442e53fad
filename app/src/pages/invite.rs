//! `/invite/{secret}`: a staff invitation. The visitor sees which event and role it offers,
//! then takes it signed in, signs in first (and comes back here), or creates an account. A
//! used, expired or withdrawn link is refused with a sentence saying what to do.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::{
    components::field::{Field, FormError},
    forms::{PostForm, form_state},
    invitations::{AcceptInvitation, InvitationView, JoinByInvitation, invitation},
};

#[component]
pub fn InvitePage() -> impl IntoView {
    let params = use_params_map();
    let secret = Memo::new(move |_| params.read().get("secret").unwrap_or_default());
    let offer = Resource::new(move || secret.get(), invitation);
    view! {
        <Title text="Staff invitation"/>
        <main class="page narrow">
            <h1>"Staff invitation"</h1>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    let secret = secret.get_untracked();
                    match offer.await {
                        Ok(view) => view! { <Offer view=view secret=secret/> }.into_any(),
                        Err(e) => view! {
                            <p role="alert">{e.to_string()}</p>
                            <p><a href="/events">"See the events"</a></p>
                        }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

#[component]
fn Offer(view: InvitationView, secret: String) -> impl IntoView {
    let from = view
        .from
        .clone()
        .map(|f| format!(" {f} invites you."))
        .unwrap_or_default();
    let intro = format!(
        "You are invited to be {} at {}.{from} The link works once, until {}.",
        with_article(&view.role),
        view.event_name,
        view.expires
    );
    let here = format!("/invite/{secret}");
    let take = match view.signed_in_as {
        Some(name) => {
            let error = form_state(AcceptInvitation::url()).error;
            view! {
                <p>"You are signed in as "<strong>{name}</strong>"."</p>
                <PostForm action=AcceptInvitation::url()>
                    <input type="hidden" name="secret" value=secret.clone()/>
                    <FormError error=error/>
                    <button type="submit">{format!("Become {}", with_article(&view.role))}</button>
                </PostForm>
            }
            .into_any()
        }
        None => {
            let error = form_state(JoinByInvitation::url()).error;
            let signin = crate::auth::sign_in_path(&here);
            view! {
                <section aria-labelledby="have-account">
                    <h2 id="have-account">"You have an account"</h2>
                    <p><a href=signin>"Sign in to take the invitation"</a>", then come back to this page."</p>
                </section>
                <section aria-labelledby="new-account">
                    <h2 id="new-account">"Create an account"</h2>
                    <PostForm action=JoinByInvitation::url()>
                        <input type="hidden" name="secret" value=secret.clone()/>
                        <Field label="User name" name="username" autocomplete="username" required=true
                            hint="2 to 40 letters, digits, '.', '_' or '-'." error=error/>
                        <Field label="Password" name="password" kind="password" autocomplete="new-password" required=true
                            hint="At least 10 characters." error=error/>
                        <Field label="Repeat the password" name="repeat" kind="password" autocomplete="new-password" required=true error=error/>
                        <FormError error=error/>
                        <button type="submit">"Create the account and take the invitation"</button>
                    </PostForm>
                </section>
            }
            .into_any()
        }
    };
    view! {
        <p>{intro}</p>
        {take}
    }
}

/// "a Judge", "an Organiser".
fn with_article(role: &str) -> String {
    let lower = role.to_lowercase();
    let article = if lower.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {lower}")
}
