//! A rule number as a link to its page (`/rules/<number>`), where Mentat's summary and the
//! rulings that touch it are: pages say what a rule means in words and cite the number this way.

use leptos::prelude::*;

#[component]
pub fn RuleLink(#[prop(into)] number: String) -> impl IntoView {
    let href = format!("/rules/{number}");
    view! { <a class="rule-ref" href=href>{number}</a> }
}
