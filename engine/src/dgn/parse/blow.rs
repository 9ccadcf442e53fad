//! Spice Blow and Nexus (`B`, `N`).

use super::*;

pub(super) fn blow(l: &mut Line, c: &mut Clause) -> R<Stmt> {
    if matches!(l.peek(), Some(b'A' | b'B')) && l.peek_at(1) == Some(b':') {
        c.pile = if l.peek() == Some(b'A') {
            Pile::A
        } else {
            Pile::B
        };
        l.i += 2;
        l.ws();
    }
    if let Some(faction) = l.try_faction() {
        l.ws();
        if let Some(s) = super::trade::blow(l, faction)? {
            return Ok(s);
        }
        let at = l.i;
        return match l.ident() {
            Some("ride") => {
                l.ws();
                let from = l.place()?;
                l.expect(b'>', "`>` and the destination")?;
                let to = l.place()?;
                l.ws();
                let forces = l.forces()?;
                Ok(Stmt::Ride {
                    faction,
                    from,
                    to,
                    forces,
                })
            }
            Some("noprotect") => Ok(Stmt::NoProtect { faction }),
            Some("Harvester") => Ok(Stmt::PlayCard {
                faction,
                card: crate::board::Card::Harvester,
            }),
            Some("Thumper") => Ok(Stmt::PlayCard {
                faction,
                card: crate::board::Card::Thumper,
            }),
            _ => Err(l.err_at(
                at,
                "`ride`, `noprotect`, `place`, `Harvester` or `Thumper`",
                l.found(),
            )),
        };
    }
    let card = l.spice_card()?;
    Ok(Stmt::Blow { pile: c.pile, card })
}

pub(super) fn nexus(l: &mut Line) -> R<Stmt> {
    if l.eat(b'-') {
        return Ok(Stmt::NexusPass);
    }
    let a = l.faction()?;
    if l.eat(b'+') {
        let b = l.faction()?;
        Ok(Stmt::Ally(a, b))
    } else if l.eat(b'-') {
        Ok(Stmt::Unally(a))
    } else {
        Err(l.err("`+` and a faction (alliance) or `-` (breaking it)"))
    }
}
