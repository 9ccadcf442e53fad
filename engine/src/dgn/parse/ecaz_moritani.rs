//! The Ecaz and Moritani expansion's statements (000 2.11, 2.12, 3.04, 3.05): `AMB` (Ecaz's
//! ambassadors), `LOYAL` (Ecaz's Loyalty), `TERROR` (Moritani's terror tokens), `BOUNTY`
//! (Moritani's bounty board and traitor abilities) and `JIHAD` (Butlerian Jihad). Each stands on
//! a line of its own, or indented among a battle's details.

use super::*;
use crate::tokens::Terror;

impl Line<'_> {
    /// A terror token's name (`Atomics`; the revised text's `Hostage` and `Ambush` too).
    pub(super) fn terror(&mut self) -> R<Terror> {
        let start = self.i;
        let Some(word) = self.ident() else {
            return Err(self.err("a terror token (Assassination, Atomics, Extortion, Robbery, Sabotage, SneakAttack, DukeVidal)"));
        };
        Terror::from_code(word).ok_or_else(|| {
            self.err_at(
                start,
                "a terror token (Assassination, Atomics, Extortion, Robbery, Sabotage, SneakAttack, DukeVidal; Hostage, Ambush)",
                format!("`{word}`"),
            )
        })
    }

    fn factions_list(&mut self) -> R<Vec<Faction>> {
        let mut v = Vec::new();
        loop {
            self.ws();
            if self.clause_end() || self.peek() == Some(b'(') {
                break;
            }
            v.push(self.faction()?);
            self.eat(b',');
        }
        Ok(v)
    }

    fn yes_no(&mut self) -> R<bool> {
        self.ws();
        if self.keyword("yes") {
            Ok(true)
        } else if self.keyword("no") {
            Ok(false)
        } else {
            Err(self.err("`yes` or `no`"))
        }
    }
}

/// `AMB F verb …`
pub(super) fn ambassador(l: &mut Line) -> R<Stmt> {
    let faction = l.faction()?;
    l.ws();
    let at = l.i;
    let action = match l.ident() {
        Some("supply") => AmbassadorAction::Supply(l.factions_list()?),
        Some("place") => {
            l.ws();
            let ambassador = l.faction()?;
            l.ws();
            let to = l.place()?;
            let payment = l.optional_payment()?;
            AmbassadorAction::Place {
                ambassador,
                to,
                payment,
            }
        }
        Some("trigger") => {
            l.ws();
            let at = l.territory()?;
            let (beneficiary, copy) = for_and_as(l)?;
            AmbassadorAction::Trigger {
                at,
                beneficiary,
                copy,
                effect: ambassador_effect(l)?,
            }
        }
        Some("with") => AmbassadorAction::With(l.factions_list()?),
        Some("flip") => {
            l.ws();
            AmbassadorAction::Flip(l.territory()?)
        }
        Some("hostile") => {
            l.ws();
            AmbassadorAction::Hostile(l.territory()?)
        }
        Some("use") => {
            l.ws();
            let at = l.territory()?;
            AmbassadorAction::Use {
                at,
                effect: ambassador_effect(l)?,
            }
        }
        Some("cooccupy") => AmbassadorAction::CoOccupy,
        _ => {
            return Err(l.err_at(
                at,
                "supply, place, trigger, with, flip, hostile, use or cooccupy",
                l.found(),
            ));
        }
    };
    Ok(Stmt::Ambassador { faction, action })
}

/// `[for F] [as F]`
fn for_and_as(l: &mut Line) -> R<(Option<Faction>, Option<Faction>)> {
    let mut beneficiary = None;
    let mut copy = None;
    loop {
        let save = l.i;
        l.ws();
        if l.keyword("for") {
            l.ws();
            beneficiary = Some(l.faction()?);
        } else if l.keyword("as") {
            l.ws();
            copy = Some(l.faction()?);
        } else {
            l.i = save;
            return Ok((beneficiary, copy));
        }
    }
}

fn ambassador_effect(l: &mut Line) -> R<AmbassadorEffect> {
    let save = l.i;
    l.ws();
    if l.clause_end() || l.peek() == Some(b'(') {
        l.i = save;
        return Ok(AmbassadorEffect::None);
    }
    let at = l.i;
    Ok(match l.ident() {
        Some("move") => {
            l.ws();
            let from = l.place()?;
            l.expect(b'>', "`>` and the destination")?;
            let to = l.place()?;
            l.ws();
            AmbassadorEffect::Move {
                from,
                to,
                forces: l.forces()?,
            }
        }
        Some("send") => {
            l.ws();
            let forces = l.forces()?;
            l.ws();
            AmbassadorEffect::Send {
                forces,
                to: l.place()?,
            }
        }
        Some("discard") => {
            let mut v = Vec::new();
            loop {
                l.ws();
                v.push(l.card()?);
                if !l.eat(b',') {
                    break;
                }
            }
            AmbassadorEffect::Discard(v)
        }
        Some("revive") => {
            l.ws();
            if l.eat_str("L:") {
                AmbassadorEffect::ReviveLeader(l.leader()?)
            } else {
                AmbassadorEffect::Revive(l.forces()?)
            }
        }
        Some("buy") => AmbassadorEffect::Buy,
        Some("vidal") => AmbassadorEffect::Vidal,
        Some("ally") => {
            let save = l.i;
            l.ws();
            let vidal = l.keyword("vidal");
            if !vidal {
                l.i = save;
            }
            AmbassadorEffect::Ally { vidal }
        }
        Some("leader") => {
            l.ws();
            AmbassadorEffect::Leader(l.leader()?)
        }
        Some("ask") => {
            let question = l.string()?;
            l.ws();
            l.expect(b'=', "`=` and the answer")?;
            AmbassadorEffect::Ask {
                question,
                answer: l.yes_no()?,
            }
        }
        Some("cross") => {
            l.ws();
            let to = l.place()?;
            l.ws();
            AmbassadorEffect::Cross {
                to,
                forces: l.forces()?,
            }
        }
        _ => {
            return Err(l.err_at(
                at,
                "an ambassador effect: move, send, discard, revive, buy, vidal, ally, leader, ask or cross",
                l.found(),
            ));
        }
    })
}

/// `LOYAL F leader`
pub(super) fn loyalty(l: &mut Line) -> R<Stmt> {
    let faction = l.faction()?;
    l.ws();
    Ok(Stmt::Loyalty {
        faction,
        leader: l.leader()?,
    })
}

/// `TERROR F verb …`
pub(super) fn terror(l: &mut Line) -> R<Stmt> {
    let faction = l.faction()?;
    l.ws();
    let at = l.i;
    let action = match l.ident() {
        Some("place" | "plot") => {
            l.ws();
            let to = l.place()?;
            TerrorAction::Place {
                to,
                token: l.sealed_one(Line::terror)?,
            }
        }
        Some("move" | "plan") => {
            l.ws();
            let from = l.territory()?;
            l.expect(b'>', "`>` and the destination")?;
            TerrorAction::Move {
                from,
                to: l.place()?,
            }
        }
        Some("scheme") => {
            l.ws();
            TerrorAction::Scheme(l.terror()?)
        }
        Some(verb @ ("trigger" | "strike")) => {
            let strike = verb == "strike";
            l.ws();
            let at = l.territory()?;
            l.ws();
            let token = l.terror()?;
            let (beneficiary, _) = for_and_as(l)?;
            TerrorAction::Trigger {
                at,
                token,
                strike,
                beneficiary,
                effect: terror_effect(l)?,
            }
        }
        Some("carry") => {
            l.ws();
            let first = l.territory()?;
            if l.eat(b'>') {
                let to = l.place()?;
                TerrorAction::Carry {
                    from: Some(first),
                    to,
                    token: Sealed::Absent,
                }
            } else {
                let start = l.i;
                let to = l.place_after(first, start)?;
                TerrorAction::Carry {
                    from: None,
                    to,
                    token: l.sealed_one(Line::terror)?,
                }
            }
        }
        Some("offer") => {
            l.ws();
            let to = l.faction()?;
            TerrorAction::Offer {
                to,
                accepted: l.yes_no()?,
            }
        }
        Some("pay") => {
            l.ws();
            TerrorAction::Pay { by: l.faction()? }
        }
        _ => {
            return Err(l.err_at(
                at,
                "place, plot, move, plan, scheme, trigger, strike, carry, offer or pay",
                l.found(),
            ));
        }
    };
    Ok(Stmt::Terror { faction, action })
}

fn terror_effect(l: &mut Line) -> R<TerrorEffect> {
    let save = l.i;
    l.ws();
    if l.clause_end() || l.peek() == Some(b'(') {
        l.i = save;
        return Ok(TerrorEffect::None);
    }
    if l.peek().is_some_and(|c| c.is_ascii_digit()) {
        return Ok(TerrorEffect::Forces(l.forces()?));
    }
    if l.keyword("spice") {
        return Ok(TerrorEffect::Spice);
    }
    if l.keyword("card") {
        return Ok(TerrorEffect::TopCard(l.sealed_one(Line::card)?));
    }
    if l.keyword("take") {
        l.ws();
        let taken = l.card_or_none()?;
        let save = l.i;
        l.ws();
        let given = if l.keyword("give") {
            l.ws();
            Some(l.card()?)
        } else {
            l.i = save;
            None
        };
        return Ok(TerrorEffect::Sabotage { taken, given });
    }
    if l.keyword("discard") {
        let mut v = Vec::new();
        loop {
            l.ws();
            let f = l.faction()?;
            l.expect(b':', "`:` and the card discarded")?;
            v.push((f, l.card()?));
            if !l.eat(b',') {
                break;
            }
        }
        return Ok(TerrorEffect::Discard(v));
    }
    Ok(TerrorEffect::Leader(l.leader().map_err(|_| {
        l.err("a terror effect: a leader, forces, `spice`, `card`, `take card [give card]` or `discard F:card`")
    })?))
}

/// `BOUNTY F{leaders}` or `BOUNTY F verb …`
pub(super) fn bounty(l: &mut Line) -> R<Stmt> {
    let faction = l.faction()?;
    if l.peek() == Some(b'{') {
        return Ok(Stmt::Bounty {
            faction,
            action: BountyAction::Board(l.sealed_list(Line::leader)?),
        });
    }
    l.ws();
    let at = l.i;
    let action = match l.ident() {
        Some("draw") => BountyAction::Draw(l.sealed_one(Line::leader)?),
        Some("alive") => {
            l.ws();
            BountyAction::Alive(l.leader()?)
        }
        Some("dead") => {
            l.ws();
            BountyAction::Dead(l.leader()?)
        }
        Some("assassinate") => {
            l.ws();
            BountyAction::Assassinate(l.leader()?)
        }
        Some("keep") => {
            l.ws();
            let ally = l.faction()?;
            l.ws();
            BountyAction::Keep {
                ally,
                card: l.card()?,
            }
        }
        _ => {
            return Err(l.err_at(
                at,
                "`{…}` (the bounty board), draw, alive, dead, assassinate or keep",
                l.found(),
            ));
        }
    };
    Ok(Stmt::Bounty { faction, action })
}

/// `JIHAD F G H … [discard card]`
pub(super) fn jihad(l: &mut Line) -> R<Stmt> {
    let faction = l.faction()?;
    let mut touching = Vec::new();
    let mut discard = None;
    loop {
        l.ws();
        if l.clause_end() || l.peek() == Some(b'(') {
            break;
        }
        if l.keyword("discard") {
            l.ws();
            discard = Some(l.card()?);
            continue;
        }
        touching.push(l.faction()?);
    }
    Ok(Stmt::ButlerianJihad {
        faction,
        touching,
        discard,
    })
}

#[cfg(test)]
mod tests {
    use crate::board::{Card, Leader, Territory};
    use crate::dgn::*;
    use crate::tokens::Terror;
    use dune::Faction;

    fn one(src: &str) -> Stmt {
        let g = parse(src).unwrap_or_else(|e| panic!("{e}"));
        g.events.into_iter().next().unwrap().stmt
    }

    #[test]
    fn ambassadors() {
        assert_eq!(
            one("AMB EC supply HK AT FR TL CH"),
            Stmt::Ambassador {
                faction: Faction::Ecaz,
                action: AmbassadorAction::Supply(vec![
                    Faction::Harkonnen,
                    Faction::Atreides,
                    Faction::Fremen,
                    Faction::Tleilaxu,
                    Faction::Choam
                ])
            }
        );
        assert!(matches!(
            one("AMB EC place HK ARK $1"),
            Stmt::Ambassador {
                action: AmbassadorAction::Place {
                    ambassador: Faction::Harkonnen,
                    payment: Some(_),
                    ..
                },
                ..
            }
        ));
        assert!(matches!(
            one("AMB EC trigger ARK for AT as SG send 4 SM/5"),
            Stmt::Ambassador {
                action: AmbassadorAction::Trigger {
                    at: Territory::Arrakeen,
                    beneficiary: Some(Faction::Atreides),
                    copy: Some(Faction::SpacingGuild),
                    effect: AmbassadorEffect::Send { .. },
                },
                ..
            }
        ));
        assert!(matches!(
            one("AMB EC trigger CAR discard Shield,Lasgun"),
            Stmt::Ambassador {
                action: AmbassadorAction::Trigger { effect: AmbassadorEffect::Discard(v), .. },
                ..
            } if v == vec![Card::Shield, Card::Lasgun]
        ));
        assert!(matches!(
            one("AMB EC trigger TUK ally vidal"),
            Stmt::Ambassador {
                action: AmbassadorAction::Trigger {
                    effect: AmbassadorEffect::Ally { vidal: true },
                    ..
                },
                ..
            }
        ));
        assert!(parse("AMB EC frobnicate").is_err());
    }

    #[test]
    fn terror_tokens_bounty_and_cards() {
        assert!(matches!(
            one("TERROR MO place ARK{Atomics}"),
            Stmt::Terror {
                action: TerrorAction::Place {
                    token: Sealed::Open(Some(Terror::Atomics)),
                    ..
                },
                ..
            }
        ));
        assert!(matches!(
            one("TERROR MO trigger CAR Assassination Feyd"),
            Stmt::Terror {
                action: TerrorAction::Trigger {
                    token: Terror::Assassination,
                    strike: false,
                    effect: TerrorEffect::Leader(Leader::Feyd),
                    ..
                },
                ..
            }
        ));
        assert!(matches!(
            one("TERROR MO strike ARK Ambush 5"),
            Stmt::Terror {
                action: TerrorAction::Trigger {
                    token: Terror::SneakAttack,
                    strike: true,
                    effect: TerrorEffect::Forces(_),
                    ..
                },
                ..
            }
        ));
        assert!(matches!(
            one("TERROR MO carry ARK>CAR"),
            Stmt::Terror {
                action: TerrorAction::Carry {
                    from: Some(Territory::Arrakeen),
                    ..
                },
                ..
            }
        ));
        assert!(matches!(
            one("BOUNTY MO{Feyd,?,Sanya}"),
            Stmt::Bounty {
                action: BountyAction::Board(Sealed::Open(v)),
                ..
            } if v.len() == 3
        ));
        assert!(matches!(
            one("BOUNTY MO assassinate Rabban"),
            Stmt::Bounty {
                action: BountyAction::Assassinate(Leader::Rabban),
                ..
            }
        ));
        assert!(matches!(
            one("LOYAL EC Sanya"),
            Stmt::Loyalty {
                leader: Leader::Sanya,
                ..
            }
        ));
        assert!(matches!(
            one("JIHAD AT HK EM discard Shield"),
            Stmt::ButlerianJihad { touching, discard: Some(Card::Shield), .. } if touching.len() == 2
        ));
        assert!(matches!(
            one("R EC Recruits"),
            Stmt::Recruits {
                faction: Faction::Ecaz
            }
        ));
        // Inside a battle.
        let g = parse("X ARK: HK v EC\n  AMB EC cooccupy\n  HK plan Feyd d1 W:- D:-").unwrap();
        assert_eq!(g.events.len(), 3);
    }
}
