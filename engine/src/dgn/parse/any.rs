//! Statements of any phase: bribes and gifts (`$`, `$$`), Karama, Ghola, Hajr, Truthtrance,
//! deals, rulings, the end of the game.

use super::*;
use crate::board::Card;

impl Parser {
    pub(super) fn money(&mut self, l: &mut Line) -> R<()> {
        let pos = l.pos();
        let gift = l.eat_str("$$");
        if !gift {
            l.expect(b'$', "`$`")?;
        }
        l.ws();
        let from = l.faction()?;
        l.expect(b'>', "`>` between payer and payee")?;
        let to = l.faction()?;
        l.ws();
        let amount = l.spice("an amount of spice")?;
        let stmt = if gift {
            Stmt::Gift { from, to, amount }
        } else {
            l.ws();
            let terms = if l.peek() == Some(b'"') {
                Some(l.string()?)
            } else {
                None
            };
            Stmt::Bribe {
                from,
                to,
                amount,
                terms,
            }
        };
        let asserts = assertions(l)?;
        self.push(pos, Section::Any, stmt, asserts);
        end_of_line(l)
    }

    pub(super) fn any(&mut self, l: &mut Line, kw: &str, pos: Pos) -> R<()> {
        l.ws();
        let stmt = match kw {
            "K" => {
                let faction = l.faction()?;
                l.ws();
                let save = l.i;
                let card = match l.ident() {
                    Some(w) if w.starts_with(|c: char| c.is_ascii_uppercase()) => {
                        Some(Card::from_code(w).ok_or_else(|| {
                            l.err_at(save, "a treachery card name", format!("`{w}`"))
                        })?)
                    }
                    _ => {
                        l.i = save;
                        None
                    }
                };
                l.ws();
                let at = l.i;
                let usage = match l.ident() {
                    Some("cancel") => KaramaUse::Cancel(l.ability_ref()?),
                    Some("prevent") => KaramaUse::Prevent(l.ability_ref()?),
                    Some("worm") => {
                        l.ws();
                        KaramaUse::Worm(l.place()?)
                    }
                    Some("revive") => {
                        l.ws();
                        if l.eat_str("L:") {
                            KaramaUse::ReviveLeader(l.leader()?)
                        } else {
                            KaramaUse::ReviveForces(l.forces()?)
                        }
                    }
                    Some("hand") => {
                        l.ws();
                        let target = l.faction()?;
                        let returned = l.sealed_list(Line::card)?;
                        KaramaUse::TakeHand { target, returned }
                    }
                    Some("cancelship") => {
                        l.ws();
                        KaramaUse::CancelShipment(l.faction()?)
                    }
                    Some("plan") => {
                        l.ws();
                        KaramaUse::SeePlan(l.faction()?)
                    }
                    Some("hms") => {
                        let (path, harvest) = super::hms_path(l)?;
                        KaramaUse::MoveHms { path, harvest }
                    }
                    Some("norevive") => {
                        l.ws();
                        KaramaUse::BlockRevival(l.faction()?)
                    }
                    other => match super::trade::karama(l, other.unwrap_or(""))? {
                        Some(u) => u,
                        None => {
                            return Err(l.err_at(
                                at,
                                "a Karama use: cancel, prevent, worm, revive, hand, cancelship, plan, hms, norevive, sell, flip or cache",
                                l.found(),
                            ));
                        }
                    },
                };
                Stmt::Karama {
                    faction,
                    card,
                    usage,
                }
            }
            "TT" => {
                let from = l.faction()?;
                l.expect(b'>', "`>` between asker and answerer")?;
                let to = l.faction()?;
                let question = l.string()?;
                l.ws();
                l.expect(b'=', "`=` and the answer")?;
                l.ws();
                let answer = if l.keyword("yes") {
                    true
                } else if l.keyword("no") {
                    false
                } else {
                    return Err(l.err("`yes` or `no`"));
                };
                Stmt::Truthtrance {
                    from,
                    to,
                    question,
                    answer,
                }
            }
            "GHOLA" => {
                let faction = l.faction()?;
                ghola(l, faction)?
            }
            "HAJR" => Stmt::Hajr {
                faction: l.faction()?,
            },
            "DEAL" => {
                let mut factions = vec![l.faction()?];
                while l.eat(b',') {
                    factions.push(l.faction()?);
                }
                let terms = l.string()?;
                Stmt::Deal { factions, terms }
            }
            "RULING" => Stmt::Ruling(l.string()?),
            "FD" => {
                let faction = l.faction()?;
                let leaders = l.sealed_list(Line::leader)?;
                if leaders == Sealed::Absent {
                    return Err(
                        l.err("the Face Dancers in braces, e.g. `TL{Duncan,Piter,Sook}` or `{#}`")
                    );
                }
                Stmt::FaceDancers { faction, leaders }
            }
            "AMAL" => {
                let faction = l.faction()?;
                l.ws();
                let at = l.i;
                let phase = l
                    .ident()
                    .and_then(Phase::from_letter)
                    .filter(|&p| p != Phase::Setup)
                    .ok_or_else(|| {
                        l.err_at(
                            at,
                            "the letter of the phase Amal begins (S B C A R M X H P)",
                            l.found(),
                        )
                    })?;
                Stmt::Amal { faction, phase }
            }
            _ => {
                // END
                let at = l.i;
                let word = l.ident().unwrap_or("");
                let turn = word
                    .strip_prefix('T')
                    .and_then(|n| n.parse::<u32>().ok())
                    .ok_or_else(|| {
                        l.err_at(at, "the last turn, e.g. `T10`", format!("`{word}`"))
                    })?;
                let reason = l.word_or_string("the reason (SH, BGP, FRS, GSV, EG, DEF, ADJ)")?;
                Stmt::End { turn, reason }
            }
        };
        let asserts = assertions(l)?;
        self.push(pos, Section::Any, stmt, asserts);
        end_of_line(l)
    }
}
