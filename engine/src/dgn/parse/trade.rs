//! The statements of CHOAM, Richese, the Free Traders and the Second Expansion's cards (000 2.09,
//! 2.10, 2.13, 3.03): see `crate::dgn::trade`. Each reader is called by the phase reader whose
//! letter the statement is written with, after the faction (or keyword) that starts it.

use super::*;
use crate::board::Card;

/// `nofield{n}` / `nofield{#}` / `nofield{?}` / `nofield`: a No-Field token and its sealed value.
fn nofield(l: &mut Line) -> R<NoFieldValue> {
    if !l.keyword("nofield") {
        return Err(l.err("`nofield` and its sealed value, e.g. `nofield{3}`"));
    }
    l.sealed_one(|l| l.small("the No-Field token's number (0, 2, 3 or 5)"))
}

/// Forces, a No-Field token, or both: `3`, `nofield{5}`, `3+nofield{5}`. `None` for the token
/// when the forces go without it.
fn forces_and_nofield(l: &mut Line) -> R<(ForceCount, Option<NoFieldValue>)> {
    if l.peek_keyword("nofield") {
        return Ok((ForceCount::plain(0), Some(nofield(l)?)));
    }
    let forces = l.forces()?;
    if l.eat(b'+') {
        return Ok((forces, Some(nofield(l)?)));
    }
    Ok((forces, None))
}

/// A bidding trace up to `=`: `HK3` bids, `HK-` passes.
fn trace(l: &mut Line) -> R<Vec<Bid>> {
    let mut trace = Vec::new();
    loop {
        l.ws();
        if l.eat(b'=') {
            return Ok(trace);
        }
        let pos = l.pos();
        let faction = l
            .faction()
            .map_err(|_| l.err("a bid such as `HK3`, a pass such as `HK-`, or `=`"))?;
        let amount = if l.eat(b'-') {
            None
        } else {
            Some(l.spice("a bid (a number) or `-` (pass)")?)
        };
        trace.push(Bid {
            faction,
            amount,
            pos,
        });
    }
}

/// After `=`: `F n [>payee] [K] [cut $n[>FT]]`, `RI` (kept), `aside` or `-`.
fn sale_result(l: &mut Line, seller: Option<Faction>) -> R<SaleResult> {
    l.ws();
    if l.eat(b'-') {
        return Ok(SaleResult::NoSale);
    }
    if l.keyword("aside") {
        return Ok(SaleResult::Aside);
    }
    let pos = l.pos();
    let faction = l.faction()?;
    let save = l.i;
    l.ws();
    if seller == Some(faction) && !l.peek().is_some_and(|c| c.is_ascii_digit()) {
        l.i = save;
        return Ok(SaleResult::Kept);
    }
    let price = l.spice("the price paid")?;
    let save = l.i;
    l.ws();
    let payee = if l.eat(b'>') {
        Some(if l.keyword("bank") {
            Payee::Bank
        } else {
            Payee::Faction(l.faction()?)
        })
    } else {
        l.i = save;
        None
    };
    let mut karama = false;
    let mut cut = None;
    loop {
        let save = l.i;
        l.ws();
        if l.keyword("K") {
            karama = true;
        } else if l.keyword("cut") {
            l.ws();
            cut = Some(l.payment()?);
        } else {
            l.i = save;
            break;
        }
    }
    Ok(SaleResult::Bought {
        faction,
        price,
        payee,
        pos,
        karama,
        cut,
    })
}

/// How a sale goes: `normal`, `once F` or `silent` (default `normal`).
fn auction_kind(l: &mut Line) -> R<AuctionKind> {
    l.ws();
    Ok(if l.keyword("once") {
        l.ws();
        AuctionKind::OnceAround(l.faction()?)
    } else if l.keyword("silent") {
        AuctionKind::Silent
    } else {
        let _ = l.keyword("normal");
        AuctionKind::Normal
    })
}

/// `C F ally [+n]`, `C CH earnings n`; `None` when neither word follows.
pub(super) fn charity(l: &mut Line, faction: Faction) -> R<Option<Stmt>> {
    if l.keyword("ally") {
        l.ws();
        let amount = if l.eat(b'+') {
            Some(l.spice("the spice taken")?)
        } else {
            None
        };
        return Ok(Some(Stmt::Trade(TradeStmt::AllyStipend {
            faction,
            amount,
        })));
    }
    if l.keyword("earnings") {
        l.ws();
        let value = l.small("the earnings token's value")?;
        return Ok(Some(Stmt::Trade(TradeStmt::EarningsUp { faction, value })));
    }
    Ok(None)
}

/// After `A F`: Richese's `cache first|last`, `sell card …`, `black{card} …`, `supply #k`.
pub(super) fn bidding(l: &mut Line, faction: Faction) -> R<Stmt> {
    let at = l.i;
    let stmt = match l.ident() {
        Some("cache") => {
            l.ws();
            let first = if l.keyword("first") {
                true
            } else if l.keyword("last") {
                false
            } else {
                return Err(l.err("`first` or `last`"));
            };
            TradeStmt::Declared { faction, first }
        }
        Some("sell") => {
            l.ws();
            let card = l.card()?;
            let kind = auction_kind(l)?;
            let trace = trace(l)?;
            let result = sale_result(l, Some(faction))?;
            TradeStmt::CacheAuction {
                faction,
                card,
                kind,
                trace,
                result,
            }
        }
        Some("black") => {
            let card = l.sealed_one(Line::card)?;
            let kind = auction_kind(l)?;
            let trace = trace(l)?;
            let result = sale_result(l, None)?;
            TradeStmt::BlackMarket {
                faction,
                card,
                kind,
                trace,
                result,
            }
        }
        Some("supply") => {
            l.ws();
            l.expect(b'#', "`#` and the place of the set-aside card in the row")?;
            let number = l.uint("the card's number in the row")?;
            TradeStmt::Supply { faction, number }
        }
        _ => {
            return Err(l.err_at(
                at,
                "`peek`, `supply`, `tech`, `redraw`, or Richese's `cache`, `sell`, `black` or `supply #k`",
                l.found(),
            ));
        }
    };
    Ok(Stmt::Trade(stmt))
}

/// After `A bm`: `F card trace = result` (2.13.04).
pub(super) fn black_market_auction(l: &mut Line) -> R<Stmt> {
    l.ws();
    let auctioneer = l.faction()?;
    l.ws();
    let card = l.card()?;
    let trace = trace(l)?;
    let result = sale_result(l, None)?;
    Ok(Stmt::Trade(TradeStmt::BlackMarketAuction {
        auctioneer,
        card,
        trace,
        result,
    }))
}

/// After `R F`: `wayin terr forces`, `AxolotlTank L:leader [$n]`; `None` otherwise.
pub(super) fn revival(l: &mut Line, faction: Faction) -> R<Option<Stmt>> {
    if l.keyword("wayin") {
        l.ws();
        let place = l.place()?;
        l.ws();
        let forces = l.forces()?;
        return Ok(Some(Stmt::Trade(TradeStmt::WayIn {
            faction,
            place,
            forces,
        })));
    }
    if l.keyword("AxolotlTank") {
        l.ws();
        if !l.eat_str("L:") {
            return Err(l.err("`L:` and the leader revived"));
        }
        let leader = l.leader()?;
        let paid = l.optional_payment()?;
        return Ok(Some(Stmt::Trade(TradeStmt::Axolotl {
            faction,
            leader,
            paid,
        })));
    }
    Ok(None)
}

/// `M F ship` with a No-Field token: `[forces+]nofield{n} terr [$n]`; `None` (nothing read)
/// when the shipment has no token.
pub(super) fn ship(l: &mut Line, faction: Faction) -> R<Option<Stmt>> {
    let save = l.i;
    let (forces, token) = forces_and_nofield(l)?;
    let Some(value) = token else {
        l.i = save;
        return Ok(None);
    };
    l.ws();
    let to = l.place()?;
    let paid = l.optional_payment()?;
    Ok(Some(Stmt::Trade(TradeStmt::NoFieldShip {
        faction,
        forces,
        value,
        to,
        paid,
    })))
}

/// The verbs of the Shipment and Movement phase these factions and cards add: `lend F`,
/// `wayout terr forces`, `Ornithopter range|again`; `None` for another verb.
pub(super) fn movement(l: &mut Line, faction: Faction, verb: Option<&str>) -> R<Option<Stmt>> {
    let stmt = match verb {
        Some("lend") => TradeStmt::Lend {
            faction,
            to: l.faction()?,
        },
        Some("wayout") => {
            let place = l.place()?;
            l.ws();
            TradeStmt::WayOut {
                faction,
                place,
                forces: l.forces()?,
            }
        }
        Some("Ornithopter") => {
            let again = if l.keyword("again") {
                true
            } else if l.keyword("range") {
                false
            } else {
                return Err(l.err("`range` (one move of up to 3) or `again` (a second move)"));
            };
            TradeStmt::Ornithopter { faction, again }
        }
        _ => return Ok(None),
    };
    Ok(Some(Stmt::Trade(stmt)))
}

/// The forces of a move that takes a No-Field token along: `nofield` or `3+nofield`; `None`
/// (nothing read) for a move without one.
pub(super) fn move_forces(l: &mut Line) -> R<Option<ForceCount>> {
    let save = l.i;
    if l.keyword("nofield") {
        return Ok(Some(ForceCount::plain(0)));
    }
    let forces = l.forces()?;
    if l.eat(b'+') && l.keyword("nofield") {
        return Ok(Some(forces));
    }
    l.i = save;
    Ok(None)
}

/// After `B F`: `place terr forces` (2.13.02).
pub(super) fn blow(l: &mut Line, faction: Faction) -> R<Option<Stmt>> {
    if !l.keyword("place") {
        return Ok(None);
    }
    l.ws();
    let place = l.place()?;
    l.ws();
    let forces = l.forces()?;
    Ok(Some(Stmt::Trade(TradeStmt::FtPlace {
        faction,
        place,
        forces,
    })))
}

/// After `P`: `F inflation double|cancel`, `F earnings{n}`.
pub(super) fn mentat(l: &mut Line) -> R<Stmt> {
    let faction = l.faction()?;
    l.ws();
    let at = l.i;
    let stmt = match l.ident() {
        Some("inflation") => {
            l.ws();
            let double = if l.keyword("double") {
                true
            } else if l.keyword("cancel") {
                false
            } else {
                return Err(l.err("`double` or `cancel`"));
            };
            TradeStmt::Inflation { faction, double }
        }
        Some("earnings") => {
            let value = l.sealed_one(|l| l.small("the earnings token's value"))?;
            if value == Sealed::Absent {
                return Err(l.err("the token's sealed value, e.g. `earnings{3}` or `{#}`"));
            }
            TradeStmt::Earnings { faction, value }
        }
        _ => {
            return Err(l.err_at(at, "`inflation` or `earnings` (CHOAM's tokens)", l.found()));
        }
    };
    Ok(Stmt::Trade(stmt))
}

/// After `X F` (a top-level battle line): `scrap card>card` or `scrap -` (2.13.13); `None` for
/// another word.
pub(super) fn battle(l: &mut Line, faction: Faction) -> R<Option<Stmt>> {
    if !l.keyword("scrap") {
        return Ok(None);
    }
    l.ws();
    let swap = if l.eat(b'-') {
        None
    } else {
        let give = l.card()?;
        l.expect(b'>', "`>` and the card taken from the heap")?;
        Some((give, l.card()?))
    };
    Ok(Some(Stmt::Trade(TradeStmt::Scrap { faction, swap })))
}

/// An indented battle detail after `  F`: `audit`, `buyoff $n`, `tunnels forces [$n]`,
/// `nofield n`, `PortableSnooper`, `ResidualPoison leader`, `burn`; `None` for another word.
pub(super) fn battle_detail(l: &mut Line, faction: Faction, word: &str) -> R<Option<Stmt>> {
    let stmt = match word {
        "audit" => TradeStmt::Audit { faction },
        "buyoff" => {
            l.ws();
            TradeStmt::Buyoff {
                faction,
                paid: l.payment()?,
            }
        }
        "share" => {
            l.ws();
            TradeStmt::Share {
                faction,
                paid: l.payment()?,
            }
        }
        "tunnels" => {
            l.ws();
            let forces = l.forces()?;
            TradeStmt::Tunnels {
                faction,
                forces,
                paid: l.optional_payment()?,
            }
        }
        "nofield" => {
            l.ws();
            TradeStmt::Reveal {
                faction,
                place: None,
                value: l.small("the No-Field token's number")?,
            }
        }
        "PortableSnooper" => TradeStmt::PortableSnooper { faction },
        "ResidualPoison" => {
            l.ws();
            TradeStmt::ResidualPoison {
                faction,
                leader: l.leader()?,
            }
        }
        "burn" => TradeStmt::Burn { faction },
        _ => return Ok(None),
    };
    Ok(Some(Stmt::Trade(stmt)))
}

/// The any-phase keywords: `SELL USE SWAP NF GIVE DISTRANS SAPHO NULLENTROPY SEMUTA DSW`.
pub(super) const ANY_KEYWORDS: [&str; 10] = [
    "SELL",
    "USE",
    "SWAP",
    "NF",
    "GIVE",
    "DISTRANS",
    "SAPHO",
    "NULLENTROPY",
    "SEMUTA",
    "DSW",
];

/// A statement after one of [`ANY_KEYWORDS`].
pub(super) fn any(l: &mut Line, kw: &str) -> R<Stmt> {
    l.ws();
    let stmt = match kw {
        "SELL" => {
            let faction = l.faction()?;
            l.ws();
            let mut cards = vec![l.card()?];
            while l.eat(b',') {
                cards.push(l.card()?);
            }
            TradeStmt::Sell {
                faction,
                cards,
                paid: l.optional_payment()?,
            }
        }
        "USE" => {
            let faction = l.faction()?;
            l.ws();
            let card = l.card()?;
            let save = l.i;
            l.ws();
            let target = match l.try_faction() {
                Some(f) => Some(f),
                None => {
                    l.i = save;
                    None
                }
            };
            let save = l.i;
            l.ws();
            let place = if l.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                Some(l.place()?)
            } else {
                l.i = save;
                None
            };
            TradeStmt::Multipurpose {
                faction,
                card,
                target,
                place,
            }
        }
        "SWAP" => {
            let a = l.faction()?;
            let ac = l.sealed_one(Line::card)?;
            l.ws();
            let b = l.faction()?;
            let bc = l.sealed_one(Line::card)?;
            TradeStmt::Swap {
                sides: [(a, ac), (b, bc)],
            }
        }
        "NF" => {
            let faction = l.faction()?;
            l.ws();
            let place = l.place()?;
            l.ws();
            TradeStmt::Reveal {
                faction,
                place: Some(place),
                value: l.small("the No-Field token's number")?,
            }
        }
        "GIVE" | "DISTRANS" => {
            let from = l.faction()?;
            l.expect(b'>', "`>` and the player receiving the card")?;
            let to = l.faction()?;
            let card = l.sealed_one(Line::card)?;
            if kw == "GIVE" {
                TradeStmt::Give { from, to, card }
            } else {
                TradeStmt::Distrans { from, to, card }
            }
        }
        "SAPHO" => {
            let faction = l.faction()?;
            l.ws();
            let effect = if l.keyword("first") {
                SaphoEffect::First
            } else if l.keyword("last") {
                SaphoEffect::Last
            } else if l.keyword("aggressor") {
                SaphoEffect::Aggressor
            } else {
                return Err(l.err("`first`, `last` or `aggressor`"));
            };
            TradeStmt::Sapho { faction, effect }
        }
        "NULLENTROPY" => {
            let faction = l.faction()?;
            let card = l.sealed_one(Line::card)?;
            TradeStmt::Nullentropy {
                faction,
                card,
                paid: l.optional_payment()?,
            }
        }
        "SEMUTA" => {
            let faction = l.faction()?;
            l.ws();
            TradeStmt::Semuta {
                faction,
                card: l.card()?,
            }
        }
        _ => TradeStmt::SeededWater {
            faction: l.faction()?,
        },
    };
    Ok(Stmt::Trade(stmt))
}

/// The Karama powers of CHOAM, Richese and the Free Traders: `sell card,…` (CHOAM original),
/// `flip terr` (CHOAM revised, the Free Traders), `cache{card} [$3]` (Richese); `None` for
/// another word.
pub(super) fn karama(l: &mut Line, word: &str) -> R<Option<KaramaUse>> {
    Ok(Some(match word {
        "sell" => {
            l.ws();
            let mut cards: Vec<Card> = vec![l.card()?];
            while l.eat(b',') {
                cards.push(l.card()?);
            }
            KaramaUse::SellCards(cards)
        }
        "flip" => {
            l.ws();
            KaramaUse::Flip(l.place()?)
        }
        "cache" => {
            let card = l.sealed_one(Line::card)?;
            KaramaUse::TakeCache {
                card,
                paid: l.optional_payment()?,
            }
        }
        _ => return Ok(None),
    }))
}
