//! Sign in with a user name or email and a password.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::{
    auth::{SignIn, accounts_exist, hard_navigate},
    components::field::{Field, FormError, last_error},
};

#[component]
pub fn SignInPage() -> impl IntoView {
    let action = ServerAction::<SignIn>::new();
    let error = last_error(action.value());
    let next = move || use_query_map().read().get("next").unwrap_or_default();
    let any_accounts = Resource::new(|| (), |_| accounts_exist());
    Effect::new(move |_| {
        if let Some(Ok(path)) = action.value().get() {
            hard_navigate(&path);
        }
    });
    view! {
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
            <ActionForm action=action>
                <input type="hidden" name="next" value=next/>
                <Field label="User name or email" name="login" autocomplete="username" required=true error=error/>
                <Field label="Password" name="password" kind="password" autocomplete="current-password" required=true error=error/>
                <FormError error=error/>
                <button type="submit" disabled=move || action.pending().get()>"Sign in"</button>
            </ActionForm>
        </main>
    }
}
