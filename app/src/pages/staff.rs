//! An event's staff: who holds which role, granting and removing roles (organisers only), and
//! invitation links (organisers and head judges): a one-use link that gives its taker a role.

use leptos::{prelude::*, server_fn::ServerFn};
use tournament::ids::UserId;

use crate::{
    components::{
        field::{Field, FormError},
        title::EventTitle,
    },
    events::{GrantRole, RevokeRole, event_staff, get_event, remove_confirm_field},
    forms::{PostForm, form_state},
    invitations::{
        InvitationRow, InviteStaff, NewInvitation, RevokeInvitation, event_invitations,
        take_new_invitation,
    },
    pages::params::slug_param,
};

#[component]
pub fn StaffPage() -> impl IntoView {
    let slug = slug_param();
    let staff = Resource::new(move || slug.get(), event_staff);
    let event = Resource::new(move || slug.get(), get_event);
    let invitations = Resource::new(move || slug.get(), event_invitations);
    let new_invitation = Resource::new(move || slug.get(), take_new_invitation);
    view! {
        <EventTitle page="Staff and roles" slug=slug/>
        <main class="page">
            <p><a href=move || format!("/events/{}", slug.get())>"← Back to the event"</a></p>
            <h1>"Staff and roles"</h1>
            <p>"Scripts get an API token instead of an account: "
                <a href=move || crate::pages::organise::tokens_path(&slug.get()) rel="external">"make or revoke API tokens"</a>"."</p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match staff.await {
                        Ok(rows) => view! {
                            <div data-form-errors="">
                            <table tabindex="0" class="stack">
                                <caption>"People with a role in this event"</caption>
                                <thead><tr><th scope="col">"User"</th><th scope="col">"Role"</th><th scope="col">"Remove"</th></tr></thead>
                                <tbody>
                                    {rows.into_iter().map(|r| view! {
                                        <tr>
                                            <td class="who">{r.username.clone()}</td>
                                            <td data-label="Role">{r.role.clone()}</td>
                                            <td class="action"><RevokeForm slug=slug.get_untracked() user_id=r.user_id username=r.username.clone()/></td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                            <FormError error=form_state(RevokeRole::url()).error/>
                            </div>
                        }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
            <section aria-labelledby="invite">
                <h2 id="invite">"Invite staff by a link"</h2>
                <p>"A link gives whoever opens it the role you choose, once: they sign in or create an account there. Send it by chat or read it out; it stops working when used, when it expires, or when you withdraw it."</p>
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        new_invitation.await.ok().flatten().map(|n| view! { <NewLink new=n/> })
                    })}
                </Suspense>
                <InviteForm slug=slug.get_untracked()/>
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        invitations.await.ok().map(|rows| view! { <Invitations slug=slug.get_untracked() rows=rows/> })
                    })}
                </Suspense>
            </section>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    event.await.ok().filter(|e| e.can_manage_staff).map(|_| view! {
                        <section aria-labelledby="grant">
                            <h2 id="grant">"Give someone a role"</h2>
                            <GrantForm slug=slug.get_untracked()/>
                        </section>
                    })
                })}
            </Suspense>
        </main>
    }
}

/// Removing a role asks once: a ticked box beside the red button, refused at that box without
/// it (like closing qualifying and deleting a player).
#[component]
fn RevokeForm(slug: String, user_id: UserId, username: String) -> impl IntoView {
    let error = form_state(RevokeRole::url()).error;
    let field = remove_confirm_field(user_id);
    let message = {
        let field = field.clone();
        Memo::new(move |_| error.get().and_then(|e| e.message_for(&field)))
    };
    let control = format!("confirm-remove-{user_id}");
    let error_id = format!("{control}-error");
    view! {
        <PostForm action=RevokeRole::url() class="inline remove-staff">
            <input type="hidden" name="slug" value=slug/>
            <input type="hidden" name="user_id" value=user_id.to_string()/>
            <div class="choice" class:invalid=move || message.get().is_some()>
                <input type="checkbox" id=control.clone() name="confirm" value="true"
                    aria-describedby=error_id.clone()
                    aria-invalid=move || message.get().is_some().then_some("true")/>
                <label for=control.clone()>{format!("Yes, remove {username}'s role")}</label>
            </div>
            <button type="submit" class="danger" aria-label=format!("Remove {username}'s role")>"Remove"</button>
            <p class="field-error" id=error_id role="alert" hidden=move || message.get().is_none()
                data-error-for=field data-control=control>{move || message.get()}</p>
        </PostForm>
    }
}

#[component]
fn GrantForm(slug: String) -> impl IntoView {
    let error = form_state(GrantRole::url()).error;
    view! {
        <PostForm action=GrantRole::url()>
            <input type="hidden" name="slug" value=slug/>
            <Field label="User name" name="username" required=true error=error/>
            <div class="field">
                <label for="field-role">"Role"</label>
                <select id="field-role" name="role">
                    <option value="judge">"Judge"</option>
                    <option value="head_judge">"Head judge"</option>
                    <option value="organiser">"Organiser"</option>
                    <option value="player">"Player"</option>
                </select>
            </div>
            <FormError error=error/>
            <button type="submit">"Give role"</button>
        </PostForm>
    }
}

/// The link just made: shown this once (Mentat keeps only its fingerprint).
#[component]
fn NewLink(new: NewInvitation) -> impl IntoView {
    view! {
        <div class="done" role="status">
            <p class="ok">{format!("Invitation for {} as {} made. Copy the link now: it is shown only this once.", new.label, new.role.to_lowercase())}</p>
            <p><label for="new-invitation">"Invitation link"</label></p>
            <input id="new-invitation" class="secret-value" type="text" readonly value=new.link/>
            {new.warning.map(|text| view! { <p class="notice qr-warning" role="alert" data-testid="link-warning">{text}</p> })}
        </div>
    }
}

#[component]
fn InviteForm(slug: String) -> impl IntoView {
    let error = form_state(InviteStaff::url()).error;
    view! {
        <PostForm action=InviteStaff::url()>
            <input type="hidden" name="slug" value=slug/>
            <Field label="Who is it for" name="label" required=true hint="A name, so you know which link is which." error=error/>
            <div class="field">
                <label for="field-invite-role">"Role to give"</label>
                <select id="field-invite-role" name="role">
                    <option value="judge">"Judge"</option>
                    <option value="head_judge">"Head judge"</option>
                    <option value="organiser">"Organiser (organisers only)"</option>
                </select>
            </div>
            <Field label="Days until it expires" name="days" kind="number" value="2"
                hint="From 1 to 14." error=error/>
            <FormError error=error/>
            <button type="submit">"Make an invitation link"</button>
        </PostForm>
    }
}

#[component]
fn Invitations(slug: String, rows: Vec<InvitationRow>) -> impl IntoView {
    if rows.is_empty() {
        return view! { <p>"No invitation made yet."</p> }.into_any();
    }
    view! {
        <div data-form-errors="">
        <table tabindex="0" class="stack">
            <caption>"Invitations"</caption>
            <thead><tr><th scope="col">"For"</th><th scope="col">"Role"</th><th scope="col">"State"</th><th scope="col">"Withdraw"</th></tr></thead>
            <tbody>
                {rows.into_iter().map(|r| {
                    let label = format!("Withdraw the invitation for {}", r.label);
                    let slug = slug.clone();
                    view! {
                        <tr>
                            <td class="who">{r.label.clone()}</td>
                            <td data-label="Role">{r.role.clone()}</td>
                            <td data-label="State">{r.standing.clone()}</td>
                            <td class="action">{r.open.then(|| view! {
                                <PostForm action=RevokeInvitation::url() class="inline">
                                    <input type="hidden" name="slug" value=slug/>
                                    <input type="hidden" name="id" value=r.id.to_string()/>
                                    <button type="submit" class="secondary" aria-label=label>"Withdraw"</button>
                                </PostForm>
                            })}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        <FormError error=form_state(RevokeInvitation::url()).error/>
        </div>
    }.into_any()
}
