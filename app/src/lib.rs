//! Mentat's user interface: the HTML shell, the router and the pages.
//!
//! Everything here compiles twice: with `ssr` into the server, which renders the pages, and with
//! `hydrate` into the browser's wasm. Pages are rendered on the server only; the browser half
//! holds just the islands (`#[island]`), the interactive parts of a page (see [`hydration`]).
// A panic in the hall loses a judge's work: outside tests, every failure is an error value.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod assets;
pub mod auth;
pub mod claims;
pub mod clocks;
pub mod components;
pub mod disputes;
pub mod error;
pub mod events;
pub mod final_table;
pub mod forms;
pub mod gamelog;
pub mod hydration;
pub mod invitations;
pub mod pages;
pub mod players;
pub mod projector;
pub mod qr;
pub mod qualifying;
pub mod registration;
pub mod replay;
pub mod results;
pub mod rounds;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod server;

use leptos::prelude::*;
use leptos_meta::{MetaTags, Stylesheet, Title, provide_meta_context};
use leptos_router::{
    ParamSegment, SsrMode, StaticSegment,
    components::{Route, Router, Routes},
};

/// The document around every page, rendered on the server only.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light"/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <HydrationScripts options islands=true/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// Every route renders whole before it is sent (`SsrMode::Async`): a phone without JavaScript, or
/// before the wasm arrives, gets the full page (who is signed in included), not a placeholder
/// that a streamed script would fill in; and an error can still set the response's status.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Stylesheet id="leptos" href=assets::stylesheet()/>
        // Each page names itself first ("Players · GenCon Qualifier"), so tabs tell apart.
        <Title text="" formatter=|page: String| if page.is_empty() { "Mentat".to_owned() } else { format!("{page} · Mentat") }/>
        <Router>
            <components::header::SiteHeader/>
            <Routes fallback=pages::NotFound>
                <Route path=StaticSegment("") view=pages::home::HomePage ssr=SsrMode::Async/>
                <Route path=StaticSegment("signin") view=pages::signin::SignInPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("account") view=pages::account::AccountPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("claim") view=pages::claim::ClaimPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("invite"), ParamSegment("secret")) view=pages::invite::InvitePage ssr=SsrMode::Async/>
                <Route path=StaticSegment("security") view=pages::audit::SecurityAuditPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("events") view=pages::events::EventsPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("rules") view=pages::rules::RulesPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("rules"), ParamSegment("number")) view=pages::rules::RulePage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("rules"), ParamSegment("book"), ParamSegment("number")) view=pages::rules::RulePage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("rules"), ParamSegment("book"), ParamSegment("number"), ParamSegment("edition")) view=pages::rules::RulePage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug")) view=pages::event::EventPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("staff")) view=pages::staff::StaffPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("audit")) view=pages::audit::EventAuditPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("settings")) view=pages::settings::SettingsPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("run")) view=pages::dashboard::DashboardPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("players")) view=pages::players::PlayersPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("players"), ParamSegment("player")) view=pages::player::PlayerPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("rounds"), ParamSegment("number")) view=pages::round::RoundPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("rounds"), ParamSegment("number"), StaticSegment("tables"), ParamSegment("table")) view=pages::table::TablePage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("rounds"), ParamSegment("number"), StaticSegment("tables"), ParamSegment("table"), StaticSegment("log")) view=pages::log::LogPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("logs")) view=pages::logs::LogsPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("finals")) view=pages::finals::FinalsPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("clocks")) view=pages::projector::ProjectorPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("find")) view=pages::find::FindPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("events"), ParamSegment("slug"), StaticSegment("find"), ParamSegment("player")) view=pages::find::PlayerCardPage ssr=SsrMode::Async/>
            </Routes>
        </Router>
        // Last in the document, so it hydrates after every other island of the page.
        <components::live::LiveMark/>
    }
}
