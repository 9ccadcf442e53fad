//! Revival (`R`) and the Tleilaxu Ghola.

use super::*;

/// The arguments of a Tleilaxu Ghola (3.01.20): `L:leader` or forces.
pub(super) fn ghola(l: &mut Line, faction: Faction) -> R<Stmt> {
    l.ws();
    if l.eat_str("L:") {
        return Ok(Stmt::Ghola {
            faction,
            forces: None,
            leader: Some(l.leader()?),
        });
    }
    Ok(Stmt::Ghola {
        faction,
        forces: Some(l.forces()?),
        leader: None,
    })
}

pub(super) fn revival(l: &mut Line) -> R<Stmt> {
    if l.eat(b'-') {
        return Ok(Stmt::ReviveNone);
    }
    let faction = l.faction()?;
    l.ws();
    if let Some(s) = super::trade::revival(l, faction)? {
        return Ok(s);
    }
    if l.eat_str("L:") {
        let leader = l.leader()?;
        let paid = l.optional_payment()?;
        return Ok(Stmt::ReviveLeader {
            faction,
            leader,
            paid,
        });
    }
    if l.keyword("KH") {
        let paid = l.optional_payment()?;
        return Ok(Stmt::ReviveKwisatz { faction, paid });
    }
    if l.keyword("ghola") {
        return ghola(l, faction);
    }
    if l.keyword("grant") {
        return Ok(Stmt::Grant { faction });
    }
    if l.keyword("allow") {
        l.ws();
        let target = l.faction()?;
        return Ok(Stmt::AllowRevival { faction, target });
    }
    if l.keyword("sell") {
        l.ws();
        if !l.eat_str("L:") {
            return Err(l.err("`L:` and the leader sold"));
        }
        let leader = l.leader()?;
        let paid = l.optional_payment()?;
        return Ok(Stmt::SellLeader {
            faction,
            leader,
            paid,
        });
    }
    if l.keyword("Recruits") {
        return Ok(Stmt::Recruits { faction });
    }
    let forces = l.forces()?;
    let paid = l.optional_payment()?;
    l.ws();
    let extra = if l.eat(b'+') {
        let n = l.forces()?;
        l.ws();
        if !l.keyword("by") {
            return Err(l.err("`by` and the paying ally"));
        }
        l.ws();
        let f = l.faction()?;
        let paid = l.optional_payment()?;
        Some((n, f, paid))
    } else {
        None
    };
    Ok(Stmt::Revive {
        faction,
        forces,
        paid,
        extra,
    })
}
