//! The document around the server's plain pages (the organiser's desk, print, statistics):
//! complete HTML without the wasm bundle, for pages that need no interactivity. Like the public
//! standings, links to them from the app carry `rel="external"`.

#[cfg(feature = "ssr")]
pub use render::*;

#[cfg(feature = "ssr")]
mod render {
    use leptos::{prelude::*, tachys::view::RenderHtml};

    /// How a plain page looks.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Look {
        /// A screen page with the site's header.
        Screen,
        /// A page meant for paper: the print stylesheet, no site header, a bar of screen-only
        /// controls (hidden when printed).
        Print,
    }

    /// A page's `<title>` as the app's pages have it, most specific first: "CSV import ·
    /// GenCon Qualifier · Mentat".
    pub fn title_of(page: &str, event_name: Option<&str>) -> String {
        match event_name {
            Some(event) => format!("{page} · {event} · Mentat"),
            None => format!("{page} · Mentat"),
        }
    }

    /// A whole document: `<head>` with the title and stylesheets, the header, then `main`.
    /// `event` is (slug, name) for the header's link back to the event; the title names it
    /// after `title` ([`title_of`]).
    pub fn document(
        title: &str,
        event: Option<(&str, &str)>,
        look: Look,
        main: impl IntoView + 'static,
    ) -> String {
        let title = title_of(title, event.map(|(_, name)| name));
        let nav = event.map(|(slug, name)| {
            view! { <a href=format!("/events/{slug}")>{name.to_owned()}</a> }
        });
        let header = (look == Look::Screen).then(|| {
            view! {
                <header class="site-header">
                    <nav aria-label="Site">
                        <a class="brand" href="/">"Mentat"</a>
                        {nav}
                    </nav>
                </header>
            }
        });
        let print_css =
            (look == Look::Print).then(|| view! { <link rel="stylesheet" href="/print.css"/> });
        let class = match look {
            Look::Screen => "page",
            Look::Print => "print-pages",
        };
        view! {
            <!DOCTYPE html>
            <html lang="en">
                <head>
                    <meta charset="utf-8"/>
                    <meta name="viewport" content="width=device-width, initial-scale=1"/>
                    <meta name="color-scheme" content="light"/>
                    <title>{title}</title>
                    <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                    <link rel="stylesheet" href=crate::assets::stylesheet()/>
                    {print_css}
                </head>
                <body>
                    {header}
                    <main class=class>{main}</main>
                </body>
            </html>
        }
        .to_html()
    }

    /// A short page with a heading and a sentence (not found, refused, failed).
    pub fn message(heading: &str, text: &str, back: Option<(&str, &str)>) -> String {
        let heading = heading.to_owned();
        let text = text.to_owned();
        let back = back.map(|(href, label)| {
            view! { <p><a href=href.to_owned()>{label.to_owned()}</a></p> }
        });
        document(
            &heading.clone(),
            None,
            Look::Screen,
            view! {
                <h1>{heading}</h1>
                <p role="alert">{text}</p>
                {back}
            },
        )
    }
}
