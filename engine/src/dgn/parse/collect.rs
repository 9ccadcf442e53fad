//! Spice Collection (`H`) and the Mentat Pause (`P`).

use super::*;
use crate::board::Territory;

pub(super) fn collection(l: &mut Line) -> R<Stmt> {
    if l.eat(b'-') {
        return Ok(Stmt::CollectNone);
    }
    let faction = l.faction()?;
    l.ws();
    if l.eat(b'+') {
        let amount = l.spice("the bonus collected")?;
        l.ws();
        let at = l.i;
        let territory = l.territory()?;
        if !matches!(
            territory,
            Territory::Arrakeen | Territory::Carthag | Territory::TueksSietch
        ) {
            return Err(l.err_at(
                at,
                "ARK, CAR or TUK (1.13.01)",
                format!("`{}`", territory.code()),
            ));
        }
        return Ok(Stmt::Bonus {
            faction,
            amount,
            territory,
        });
    }
    let amount = l.spice("the spice collected")?;
    l.ws();
    let territory = l.territory()?;
    Ok(Stmt::Collect {
        faction,
        amount,
        territory,
    })
}

pub(super) fn mentat(l: &mut Line) -> R<Stmt> {
    let start = l.i;
    if let Some(faction) = l.try_faction() {
        l.ws();
        let at = l.i;
        if l.peek_keyword("inflation") || l.peek_keyword("earnings") {
            // CHOAM's tokens (000 2.09.09, 2.09.05).
            l.i = start;
            return super::trade::mentat(l);
        }
        return match l.ident() {
            Some("hms") => {
                let (path, harvest) = super::hms_path(l)?;
                Ok(Stmt::HmsMove {
                    faction,
                    path,
                    harvest,
                })
            }
            Some("replace") => {
                l.ws();
                let leader = l.leader()?;
                let new = l.sealed_one(Line::leader)?;
                Ok(Stmt::ReplaceDancer {
                    faction,
                    leader,
                    new,
                })
            }
            _ => Err(l.err_at(at, "`hms`, `replace`, `inflation` or `earnings`", l.found())),
        };
    }
    let at = l.i;
    match l.ident() {
        Some("control") => Ok(Stmt::Control(stronghold_list(
            l,
            b':',
            "`:` and the controlling faction",
        )?)),
        Some("win") => {
            l.ws();
            if l.eat(b'-') {
                return Ok(Stmt::Win(WinClaim::None));
            }
            let mut factions = vec![l.faction()?];
            while l.eat(b'+') {
                factions.push(l.faction()?);
            }
            let kind = l.win_type()?;
            Ok(Stmt::Win(WinClaim::Win { factions, kind }))
        }
        Some("cards") => Ok(Stmt::StrongholdCards(stronghold_list(
            l,
            b'>',
            "`>` and the faction taking the card",
        )?)),
        Some(w) if crate::dgn::faction_code(w).is_some() => {
            l.i = at;
            super::trade::mentat(l)
        }
        _ => Err(l.err_at(at, "`control`, `win` or `cards`", l.found())),
    }
}

/// `SH:F …` (control) or `SH>F …` (cards taken), or `-` for none.
fn stronghold_list(l: &mut Line, sep: u8, what: &str) -> R<Vec<(dune::Stronghold, Faction, Pos)>> {
    let mut v = Vec::new();
    l.ws();
    if l.eat(b'-') {
        return Ok(v);
    }
    loop {
        l.ws();
        if l.clause_end() || l.peek() == Some(b'(') {
            break;
        }
        let p = l.pos();
        let t = l.stronghold()?;
        l.expect(sep, what)?;
        v.push((t, l.faction()?, p));
    }
    Ok(v)
}
