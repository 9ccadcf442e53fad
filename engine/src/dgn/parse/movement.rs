//! Shipment and Movement (`M`).

use super::*;
use crate::board::Territory;

pub(super) fn movement(l: &mut Line, c: &mut Clause) -> R<Stmt> {
    let named = l.try_faction();
    let faction = match named.or(c.faction) {
        Some(f) => f,
        None => return Err(l.err("a faction")),
    };
    l.ws();
    let at = l.i;
    if l.eat(b'-') {
        c.faction = Some(faction);
        return Ok(Stmt::Pass { faction });
    }
    let verb = l.ident();
    // `BG spirit` and `BG flip` answer someone else's action: they do not change whose line it is.
    if !matches!(verb, Some("spirit" | "flip")) {
        c.faction = Some(faction);
    }
    l.ws();
    Ok(match verb {
        Some("ship") => {
            if l.eat(b'-') {
                return Ok(Stmt::NoShip { faction });
            }
            if let Some(s) = super::trade::ship(l, faction)? {
                return Ok(s);
            }
            let forces = l.forces()?;
            l.ws();
            let to = l.place()?;
            let payment = l.optional_payment()?;
            let save = l.i;
            l.ws();
            let karama = l.keyword("K");
            if !karama {
                l.i = save;
            }
            Stmt::Ship {
                faction,
                forces,
                to,
                payment,
                karama,
            }
        }
        Some("send") => {
            let forces = l.forces()?;
            l.ws();
            Stmt::Send {
                faction,
                forces,
                to: l.place()?,
            }
        }
        Some("cross") => {
            let from = l.place()?;
            l.expect(b'>', "`>` and the destination")?;
            let to = l.place()?;
            l.ws();
            let forces = l.forces()?;
            let payment = l.optional_payment()?;
            Stmt::CrossShip {
                faction,
                from,
                to,
                forces,
                payment,
            }
        }
        Some("home") => {
            let from = l.place()?;
            l.ws();
            let forces = l.forces()?;
            let payment = l.optional_payment()?;
            Stmt::ShipHome {
                faction,
                from,
                forces,
                payment,
            }
        }
        Some("move") => {
            if l.eat(b'-') {
                return Ok(Stmt::NoMove { faction });
            }
            let from = l.place()?;
            let mut via = Vec::new();
            l.expect(b'>', "`>` and the destination")?;
            let mut to = l.place()?;
            while l.eat(b'>') {
                via.push(to);
                to = l.place()?;
            }
            l.ws();
            if via.is_empty()
                && let Some(forces) = super::trade::move_forces(l)?
            {
                return Ok(Stmt::Trade(crate::dgn::TradeStmt::NoFieldMove {
                    faction,
                    from,
                    to,
                    forces,
                }));
            }
            let forces = l.forces()?;
            Stmt::Move {
                faction,
                from,
                via,
                to,
                forces,
            }
        }
        Some("Hajr") => Stmt::Hajr { faction },
        Some("peek") => Stmt::Wormsign {
            faction,
            card: l.sealed_one(Line::spice_card)?,
        },
        Some("delay") => Stmt::Delay { faction },
        Some("spirit") => {
            let to = l.place()?;
            l.ws();
            let forces = if l.peek().is_some_and(|c| c.is_ascii_digit()) {
                l.forces()?
            } else {
                ForceCount {
                    total: 1,
                    starred: 0,
                    side: if to.territory == Territory::PolarSink {
                        Side::Fighter
                    } else {
                        Side::Advisor
                    },
                }
            };
            Stmt::Spirit {
                faction,
                to,
                forces,
            }
        }
        Some("flip") => {
            let place = l.place()?;
            l.ws();
            let to = if l.eat(b'a') {
                Side::Advisor
            } else if l.eat(b'f') {
                Side::Fighter
            } else {
                return Err(l.err("`a` (to advisors) or `f` (to fighters)"));
            };
            Stmt::Flip { faction, place, to }
        }
        Some("card") => {
            let stronghold = l.stronghold()?;
            Stmt::StrongholdCard {
                faction,
                stronghold,
                count: None,
            }
        }
        other => match super::trade::movement(l, faction, other)? {
            Some(s) => s,
            None => {
                return Err(l.err_at(
                    at,
                    "ship, send, cross, home, move, Hajr, peek, delay, spirit, flip, card, lend, wayout, Ornithopter or `-`",
                    l.found(),
                ));
            }
        },
    })
}
