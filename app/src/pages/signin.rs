//! Sign in with a user name or email and a password.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::{
    auth::{SignIn, accounts_exist},
    components::field::{Field, FormError},
    forms::{PostForm, form_state},
};

#[component]
pub fn SignInPage() -> impl IntoView {
    let next = use_query_map()
        .read_untracked()
        .get("next")
        .unwrap_or_default();
    let any_accounts = Resource::new(|| (), |_| accounts_exist());
    view! {
        <Title text="Sign in"/>
        <main class="page narrow">
            <h1>"Sign in"</h1>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    (any_accounts.await == Ok(false)).then(|| view! {
                        <div class="notice">
                            <p>"Mentat has no accounts yet. Create the first one on the server with:"</p>
                            <pre><code>"mentat user add NAME --admin"</code></pre>
                            <p>"It asks for the password; an administrator can create events and give others their roles."</p>
                        </div>
                    })
                })}
            </Suspense>
            <SignInForm next=next/>
        </main>
    }
}

/// Signing in sends the browser on with a full page load (the server's redirect), so every part
/// of the next page is rendered for the new session.
#[component]
fn SignInForm(next: String) -> impl IntoView {
    let error = form_state(SignIn::url()).error;
    view! {
        <PostForm action=SignIn::url()>
            <input type="hidden" name="next" value=next/>
            <Field label="User name or email" name="login" autocomplete="username" required=true error=error/>
            <Field label="Password" name="password" kind="password" autocomplete="current-password" required=true error=error/>
            <FormError error=error/>
            <button type="submit">"Sign in"</button>
        </PostForm>
    }
}
