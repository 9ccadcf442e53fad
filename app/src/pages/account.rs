//! The signed-in user's own page: the name she is shown by, her password, and signing out
//! every session of the account at once.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

use crate::{
    auth::{ChangeDisplayName, ChangePassword, SignOutEverywhere, current_user},
    components::field::{Field, FormError},
    forms::{DoneNote, PostForm, form_state},
};

#[component]
pub fn AccountPage() -> impl IntoView {
    let user = Resource::new(|| (), |_| current_user());
    view! {
        <Title text="Your account"/>
        <main class="page narrow">
            <h1>"Your account"</h1>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match user.await {
                        Ok(Some(u)) => view! {
                            <p>"Signed in as "<strong>{u.username}</strong>
                                {u.is_admin.then_some(" (site administrator)")}"."</p>
                            {u.is_admin.then(|| view! {
                                <p><a href="/security">"Security log: sign-ins, failures and new accounts"</a></p>
                            })}
                            <h2>"Name shown"</h2>
                            <DisplayNameForm current=u.display_name.clone().unwrap_or_default()/>
                            <h2>"Change password"</h2>
                            <PasswordForm/>
                            <h2>"Sign out everywhere"</h2>
                            <p>"Signs out every phone and computer signed in to this account, this one too: use it after signing in on a shared or lost device."</p>
                            <PostForm action=SignOutEverywhere::url()>
                                <button type="submit" class="secondary">"Sign out everywhere"</button>
                            </PostForm>
                        }.into_any(),
                        _ => view! { <p>"You are not signed in. "<a href="/signin?next=/account">"Sign in"</a></p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

#[component]
fn PasswordForm() -> impl IntoView {
    let state = form_state(ChangePassword::url());
    let error = state.error;
    view! {
        <PostForm action=ChangePassword::url()>
            <Field label="Current password" name="current" kind="password" autocomplete="current-password" required=true error=error/>
            <Field label="New password" name="new" kind="password" autocomplete="new-password" required=true
                hint="At least 10 characters." error=error/>
            <Field label="Repeat the new password" name="repeat" kind="password" autocomplete="new-password" required=true error=error/>
            <FormError error=error/>
            <DoneNote done=state.done/>
            <button type="submit">"Change password"</button>
        </PostForm>
    }
}

#[component]
fn DisplayNameForm(current: String) -> impl IntoView {
    let state = form_state(ChangeDisplayName::url());
    let error = state.error;
    view! {
        <PostForm action=ChangeDisplayName::url()>
            <Field label="Display name" name="display_name" autocomplete="name" value=current
                hint="How Mentat names you on its pages. Leave empty to use your user name." error=error/>
            <FormError error=error/>
            <DoneNote done=state.done/>
            <button type="submit">"Save the name"</button>
        </PostForm>
    }
}
