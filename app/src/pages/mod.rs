//! One module per page.

pub mod account;
pub mod audit;
pub mod awaiting;
pub mod checklist;
pub mod claim;
pub mod dashboard;
pub mod event;
pub mod events;
pub mod finals;
pub mod find;
pub mod home;
pub mod invite;
pub mod log;
pub mod logs;
pub mod organise;
pub mod params;
pub mod plain;
pub mod player;
pub mod players;
pub mod print;
pub mod projector;
pub mod queue;
pub mod room;
pub mod round;
pub mod rules;
pub mod settings;
pub mod signin;
pub mod staff;
pub mod standings;
pub mod statistics;
pub mod table;

use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(http::StatusCode::NOT_FOUND);
        }
    }
    view! {
        <Title text="Page not found"/>
        <main class="page">
            <h1>"Page not found"</h1>
            <p>"Nothing lives at this address. "<a href="/">"Back to Mentat's home page"</a>"."</p>
        </main>
    }
}
