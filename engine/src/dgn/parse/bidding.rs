//! CHOAM Charity (`C`) and Bidding (`A`).

use super::*;

pub(super) fn charity(l: &mut Line) -> R<Stmt> {
    if l.eat(b'-') {
        return Ok(Stmt::CharityNone);
    }
    let faction = l.faction()?;
    l.ws();
    if let Some(s) = super::trade::charity(l, faction)? {
        return Ok(s);
    }
    let amount = if l.eat(b'+') {
        Some(l.spice("the spice received")?)
    } else {
        None
    };
    let save = l.i;
    l.ws();
    let payer = if l.keyword("by") {
        l.ws();
        Some(if l.keyword("bank") {
            Payee::Bank
        } else {
            Payee::Faction(l.faction()?)
        })
    } else {
        l.i = save;
        None
    };
    Ok(Stmt::Charity {
        faction,
        amount,
        payer,
    })
}

pub(super) fn bidding(l: &mut Line) -> R<Stmt> {
    if l.keyword("decl") {
        let mut v = Vec::new();
        loop {
            l.ws();
            if l.clause_end() {
                break;
            }
            let p = l.pos();
            let f = l.faction()?;
            let n = l.small("the number of cards in hand")?;
            v.push((f, n, p));
        }
        return Ok(Stmt::Declare(v));
    }
    if l.keyword("peek") {
        l.ws();
        return Ok(Stmt::Peek {
            faction: l.faction()?,
        });
    }
    if l.keyword("bm") {
        return super::trade::black_market_auction(l);
    }
    if let Some(f) = l.try_faction() {
        l.ws();
        if l.keyword("peek") {
            return Ok(Stmt::Peek { faction: f });
        }
        if l.peek_keyword("supply") {
            let save = l.i;
            l.keyword("supply");
            l.ws();
            if l.peek() == Some(b'#') {
                // Richese's Disrupted Supply Chain (000 2.10.21): `A RI supply #k`.
                l.i = save;
                return super::trade::bidding(l, f);
            }
            let top = if l.keyword("top") {
                true
            } else if l.keyword("bottom") {
                false
            } else {
                return Err(l.err("`top` or `bottom` (where the card goes back on the deck)"));
            };
            let card = l.sealed_one(Line::card)?;
            return Ok(Stmt::Supply {
                faction: f,
                top,
                card,
            });
        }
        if l.keyword("tech") {
            let card = l.sealed_one(Line::card)?;
            return Ok(Stmt::Technology { faction: f, card });
        }
        if l.keyword("redraw") {
            let card = l.sealed_one(Line::card)?;
            return Ok(Stmt::Redraw { faction: f, card });
        }
        return super::trade::bidding(l, f);
    }
    l.expect(b'#', "`decl`, `peek` or `#` and the card number")?;
    let number = l.uint("the card number")?;
    let mut trace = Vec::new();
    loop {
        l.ws();
        if l.eat(b'=') {
            break;
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
    l.ws();
    if l.eat_str("bought-in") || l.eat(b'-') {
        l.ws();
        let returned = if l.peek().is_some_and(|c| c.is_ascii_digit()) {
            Some(l.small("the number of cards returned")?)
        } else {
            None
        };
        return Ok(Stmt::Auction {
            number,
            trace,
            result: AuctionResult::BoughtIn { returned },
        });
    }
    let faction = l.faction()?;
    l.ws();
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
    let card = l.sealed_one(Line::card)?;
    let mut ally = None;
    let mut karama = false;
    let mut top = None;
    loop {
        let save = l.i;
        l.ws();
        if l.keyword("by") {
            l.ws();
            let f = l.faction()?;
            l.ws();
            l.expect(b'$', "`$` and the ally's share")?;
            ally = Some((f, l.spice("the ally's share")?));
        } else if l.keyword("K") {
            karama = true;
        } else if l.eat_str("+top") {
            top = Some(l.sealed_one(Line::card)?);
        } else {
            l.i = save;
            break;
        }
    }
    Ok(Stmt::Auction {
        number,
        trace,
        result: AuctionResult::Bought {
            faction,
            price,
            card,
            ally,
            payee,
            karama,
            top,
        },
    })
}
