//! `/claim`: a player ties her registration to her account with the code on her slip (typed,
//! or filled in from the link `/claim?code=…`). Signed in, one field; otherwise she signs in
//! first (and comes back here) or creates an account with the same form.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::{
    auth::{current_user, sign_in_path},
    claims::{ClaimRegistration, JoinByClaim},
    components::field::{Field, FormError},
    forms::{PostForm, form_state},
};

#[component]
pub fn ClaimPage() -> impl IntoView {
    let code = use_query_map()
        .read_untracked()
        .get("code")
        .unwrap_or_default();
    let user = Resource::new(|| (), |_| current_user());
    view! {
        <Title text="Claim your registration"/>
        <main class="page narrow">
            <h1>"Claim your registration"</h1>
            <p>"The code on your table slip ties your registration to your account: from then on the event's page opens on your table, and you confirm your own game reports."</p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || {
                    let code = code.clone();
                    Suspend::new(async move {
                        match user.await {
                            Ok(Some(u)) => view! { <SignedIn name=u.username code=code/> }.into_any(),
                            _ => view! { <NewAccount code=code/> }.into_any(),
                        }
                    })
                }}
            </Suspense>
        </main>
    }
}

#[component]
fn SignedIn(name: String, code: String) -> impl IntoView {
    let error = form_state(ClaimRegistration::url()).error;
    view! {
        <p>"You are signed in as "<strong>{name}</strong>"."</p>
        <PostForm action=ClaimRegistration::url()>
            <Field label="Claim code" name="code" autocomplete="off" required=true value=code
                hint="12 letters and digits, as on your slip; dashes and case do not matter." error=error/>
            <FormError error=error/>
            <button type="submit">"Claim my registration"</button>
        </PostForm>
    }
}

#[component]
fn NewAccount(code: String) -> impl IntoView {
    let error = form_state(JoinByClaim::url()).error;
    let here = if code.is_empty() {
        "/claim".to_owned()
    } else {
        format!("/claim?code={code}")
    };
    view! {
        <section aria-labelledby="have-account">
            <h2 id="have-account">"You have an account"</h2>
            <p><a href=sign_in_path(&here)>"Sign in to claim your registration"</a>"; you come back here."</p>
        </section>
        <section aria-labelledby="new-account">
            <h2 id="new-account">"Create an account"</h2>
            <PostForm action=JoinByClaim::url()>
                <Field label="Claim code" name="code" autocomplete="off" required=true value=code
                    hint="12 letters and digits, as on your slip." error=error/>
                <Field label="User name" name="username" autocomplete="username" required=true
                    hint="2 to 40 letters, digits, '.', '_' or '-'." error=error/>
                <Field label="Password" name="password" kind="password" autocomplete="new-password" required=true
                    hint="At least 10 characters." error=error/>
                <Field label="Repeat the password" name="repeat" kind="password" autocomplete="new-password" required=true error=error/>
                <FormError error=error/>
                <button type="submit">"Create the account and claim"</button>
            </PostForm>
        </section>
    }
}
