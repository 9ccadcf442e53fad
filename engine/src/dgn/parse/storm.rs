//! The Storm phase (`S`) and the two dials of a storm (0.16, 1.01.02).

use super::*;
use crate::board::Sector;

pub(super) fn two_dials(l: &mut Line) -> R<[(Faction, u32, Pos); 2]> {
    l.ws();
    let p1 = l.pos();
    let f1 = l.faction()?;
    l.ws();
    let d1 = l.uint("the number dialed")?;
    l.ws();
    let p2 = l.pos();
    let f2 = l.faction()?;
    l.ws();
    let d2 = l.uint("the number dialed")?;
    Ok([(f1, d1, p1), (f2, d2, p2)])
}

pub(super) fn optional_arrow_sector(l: &mut Line) -> R<Option<Sector>> {
    let save = l.i;
    l.ws();
    if l.eat_str("->") {
        l.ws();
        Ok(Some(l.sector()?))
    } else {
        l.i = save;
        Ok(None)
    }
}

pub(super) fn storm(l: &mut Line) -> R<Stmt> {
    if l.peek().is_some_and(|c| c.is_ascii_digit()) {
        let sector = Some(l.sector()?);
        l.ws();
        let order = if l.keyword("order") {
            Some(order_list(l)?)
        } else {
            None
        };
        return Ok(Stmt::StormAt { sector, order });
    }
    let save = l.i;
    let faction = l.faction()?;
    l.ws();
    let at = l.i;
    if l.peek().is_some_and(|c| c.is_ascii_digit()) {
        l.i = save;
        let dials = two_dials(l)?;
        let to = optional_arrow_sector(l)?;
        return Ok(Stmt::StormDial { dials, to });
    }
    match l.ident() {
        Some("card") => {
            l.ws();
            let value = l.uint("the storm card's number")?;
            let to = optional_arrow_sector(l)?;
            Ok(Stmt::StormCard { faction, value, to })
        }
        Some("draw") => {
            let value = l.sealed_one(|l| l.uint("the storm card's number"))?;
            Ok(Stmt::StormDraw { faction, value })
        }
        Some("WeatherControl") => {
            l.ws();
            Ok(Stmt::WeatherControl {
                faction,
                sectors: l.uint("the sectors the storm moves (0-10)")?,
            })
        }
        Some("FamilyAtomics") => Ok(Stmt::FamilyAtomics { faction }),
        Some("hms") => {
            let (path, harvest) = super::hms_path(l)?;
            Ok(Stmt::HmsMove {
                faction,
                path,
                harvest,
            })
        }
        _ => Err(l.err_at(
            at,
            "a storm dial, `card`, `draw`, `WeatherControl`, `FamilyAtomics` or `hms`",
            l.found(),
        )),
    }
}

pub(super) fn order_list(l: &mut Line) -> R<Vec<Faction>> {
    let mut v = Vec::new();
    loop {
        l.ws();
        if l.clause_end() || l.peek() == Some(b'(') {
            return Ok(v);
        }
        v.push(l.faction()?);
    }
}
