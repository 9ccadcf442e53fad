//! The parts of a page's address: the event's slug, the round and table numbers. A number that
//! does not parse becomes 0, which no round or table has, so the server answers "not found".

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use tournament::ids::{RoundNumber, TableNumber};

pub fn slug_param() -> Memo<String> {
    let params = use_params_map();
    Memo::new(move |_| params.read().get("slug").unwrap_or_default())
}

pub fn number_param() -> Memo<RoundNumber> {
    let params = use_params_map();
    Memo::new(move |_| {
        params
            .read()
            .get("number")
            .and_then(|n| n.parse().ok())
            // No round is numbered 0: the server answers "not drawn".
            .unwrap_or(RoundNumber(0))
    })
}

pub fn table_param() -> Memo<TableNumber> {
    let params = use_params_map();
    Memo::new(move |_| {
        params
            .read()
            .get("table")
            .and_then(|n| n.parse().ok())
            // No table is numbered 0: the server answers "no such table".
            .unwrap_or(TableNumber(0))
    })
}
