//! Battle (`X`): the battle line, its indented details, plans and the result.
use dune::Spice;

use super::*;

pub(super) fn battle(l: &mut Line) -> R<Stmt> {
    if l.keyword("WA") {
        let mut v = Vec::new();
        l.ws();
        if l.eat(b'-') {
            return Ok(Stmt::WinAttempts(v));
        }
        loop {
            l.ws();
            if l.clause_end() || l.peek() == Some(b'(') {
                break;
            }
            v.push(l.faction()?);
        }
        return Ok(Stmt::WinAttempts(v));
    }
    if let Some(faction) = l.try_faction() {
        l.ws();
        if let Some(s) = super::trade::battle(l, faction)? {
            return Ok(s);
        }
        if !l.keyword("card") {
            return Err(l.err("`card` and a stronghold"));
        }
        l.ws();
        let stronghold = l.stronghold()?;
        return Ok(Stmt::StrongholdCard {
            faction,
            stronghold,
            count: None,
        });
    }
    let place = l.place()?;
    l.expect(b':', "`:` after the battle's territory")?;
    l.ws();
    let aggressor = l.faction()?;
    l.ws();
    if !l.keyword("v") {
        return Err(l.err("`v` between the two factions"));
    }
    l.ws();
    let defender = l.faction()?;
    Ok(Stmt::Battle {
        place,
        aggressor,
        defender,
    })
}

pub(super) fn plan(l: &mut Line, faction: Faction) -> R<Stmt> {
    l.ws();
    let leader = if l.eat(b'-') {
        PlanLeader::None
    } else if l.peek_keyword("CH") {
        l.keyword("CH");
        PlanLeader::CheapHero
    } else if l.keyword("Levenbrech") {
        PlanLeader::Levenbrech
    } else {
        PlanLeader::Leader(l.leader()?)
    };
    let kwisatz = l.eat_str("+KH");
    l.ws();
    l.expect(b'd', "`d` and the forces dialed, e.g. `d5$4`")?;
    let dial = l.forces()?;
    let spice = if l.eat(b'$') {
        l.spice("the spice dialed")?
    } else {
        Spice::ZERO
    };
    l.ws();
    let ally_spice = if l.keyword("by") {
        l.ws();
        let f = l.faction()?;
        l.expect(
            b'$',
            "`$` and the ally's share of the spice, e.g. `by CH$2`",
        )?;
        let n = l.spice("the ally's share")?;
        l.ws();
        Some((f, n))
    } else {
        None
    };
    if !l.eat_str("W:") {
        return Err(l.err("`W:` and the weapon (or `W:-`)"));
    }
    let weapon = l.card_or_none()?;
    l.ws();
    if !l.eat_str("D:") {
        return Err(l.err("`D:` and the defense (or `D:-`)"));
    }
    let defense = l.card_or_none()?;
    Ok(Stmt::Plan(crate::battle::Plan {
        faction,
        leader,
        kwisatz,
        dial,
        spice,
        ally_spice,
        weapon,
        defense,
    }))
}

pub(super) fn battle_result(l: &mut Line) -> R<Stmt> {
    l.ws();
    let winner = if l.eat(b'-') {
        None
    } else {
        Some(l.faction()?)
    };
    l.ws();
    let totals = if l.peek().is_some_and(|c| c.is_ascii_digit()) {
        let a = l.decimal()?;
        l.expect(b':', "`:` between the two totals")?;
        let b = l.decimal()?;
        Some((a, b))
    } else {
        None
    };
    let mut items = Vec::new();
    loop {
        if l.end() {
            break;
        }
        l.expect(b';', "`;` before the next result item")?;
        l.ws();
        if l.keyword("dead") {
            let mut v = Vec::new();
            loop {
                l.ws();
                if l.clause_end() {
                    break;
                }
                v.push(l.leader()?);
            }
            items.push(ResultItem::Dead(v));
            continue;
        }
        let f = l.faction()?;
        l.ws();
        if l.eat_str("+$") {
            items.push(ResultItem::Gain(f, l.spice("the spice gained")?));
        } else if l.eat(b'-') {
            items.push(ResultItem::Loss(f, l.forces()?));
        } else if l.keyword("keep") || l.keyword("discard") {
            let keep = l.s.get(..l.i).is_some_and(|s| s.ends_with("keep"));
            let mut v = Vec::new();
            loop {
                l.ws();
                if l.clause_end() {
                    break;
                }
                v.push(l.card()?);
            }
            items.push(if keep {
                ResultItem::Keep(f, v)
            } else {
                ResultItem::Discard(f, v)
            });
        } else if l.keyword("card") {
            l.ws();
            let at = l.i;
            let t = l.stronghold()?;
            if t != dune::Stronghold::TueksSietch {
                return Err(l.err_at(
                    at,
                    "TUK (only the Tuek's Sietch card acts on battle losses)",
                    format!("`{}`", t.code()),
                ));
            }
            l.ws();
            items.push(ResultItem::TuksCard(
                f,
                l.small("the forces sent to reserves")?,
            ));
        } else {
            return Err(l.err("`+$n`, `-forces`, `keep`, `discard` or `card TUK n`"));
        }
    }
    Ok(Stmt::BattleResult {
        winner,
        totals,
        items,
    })
}

impl Parser {
    pub(super) fn battle_detail(&mut self, l: &mut Line) -> R<()> {
        let pos = l.pos();
        // What may happen in a battle without being part of it: a Karama (against a battle
        // ability: it acts in this battle), Truthtrance, a bribe or deal, a ruling. Read as the
        // same line at the start of a line; the lines after it still belong to the battle.
        if l.peek() == Some(b'$') {
            return self.money(l);
        }
        for kw in ["K", "TT", "DEAL", "RULING"] {
            if l.keyword(kw) {
                return self.any(l, kw, pos);
            }
        }
        if l.eat(b'=') {
            let stmt = battle_result(l)?;
            self.push(pos, Section::Phase(Phase::Battle), stmt, Vec::new());
            return end_of_line(l);
        }
        let faction = l.faction()?;
        l.ws();
        let at = l.i;
        let stmt = match l.ident() {
            Some("presc") => {
                l.ws();
                let element = l.word_or_string("the element asked (leader, W, D, dial)")?;
                l.ws();
                l.expect(b'=', "`=` and the answer")?;
                let answer = l.word_or_string("the answer")?;
                Stmt::Prescience { faction, element, answer }
            }
            Some("voice") => {
                l.ws();
                let target = l.faction()?;
                l.ws();
                let positive = if l.eat(b'+') {
                    true
                } else if l.eat(b'-') {
                    false
                } else {
                    return Err(l.err("`+` (must play) or `-` (must not play)"));
                };
                let command = l.word_or_string("the command (poison, proj, poisondef, projdef, worthless, CH or a card)")?;
                Stmt::Voice { faction, target, positive, command }
            }
            Some("plan") => plan(l, faction)?,
            Some("TRAITOR") => {
                l.ws();
                let leader = l.leader()?;
                let save = l.i;
                l.ws();
                let for_ally = if l.keyword("for") {
                    l.ws();
                    Some(l.faction()?)
                } else {
                    l.i = save;
                    None
                };
                Stmt::TraitorCall { faction, leader, for_ally }
            }
            Some("capture") => {
                l.ws();
                Stmt::Capture { faction, leader: l.leader()?, kill: false }
            }
            Some("kill") => {
                l.ws();
                Stmt::Capture { faction, leader: l.leader()?, kill: true }
            }
            Some("swap") => {
                l.ws();
                Stmt::Shenanigans { faction, count: l.small("the Suboids exchanged")? }
            }
            Some("withhold") => {
                l.ws();
                Stmt::Withhold { faction, card: l.card()? }
            }
            Some("facedancer") => {
                l.ws();
                let leader = l.leader()?;
                let save = l.i;
                l.ws();
                let replace = if l.peek().is_some_and(|c| c.is_ascii_digit()) {
                    let n = l.small("the forces that replace the winner's")?;
                    let save = l.i;
                    l.ws();
                    let mut from = Vec::new();
                    if l.keyword("from") {
                        loop {
                            l.ws();
                            let place = l.place()?;
                            l.ws();
                            let forces = l.forces()?;
                            from.push((place, forces));
                            if !l.eat(b',') {
                                break;
                            }
                        }
                    } else {
                        l.i = save;
                    }
                    Some((n, from))
                } else {
                    l.i = save;
                    None
                };
                Stmt::FaceDancer { faction, leader, replace }
            }
            other => match super::trade::battle_detail(l, faction, other.unwrap_or(""))? {
                Some(s) => s,
                None => return Err(l.err_at(at, "a battle detail: presc, voice, plan, TRAITOR, capture, kill, swap, withhold, facedancer, audit, buyoff, share, tunnels, nofield, PortableSnooper, ResidualPoison, burn (or a line starting with `=`, `K`, `TT`, `$`, `DEAL` or `RULING`)", l.found())),
            },
        };
        let asserts = assertions(l)?;
        self.push(pos, Section::Phase(Phase::Battle), stmt, asserts);
        end_of_line(l)
    }
}
