//! Assertions `( … )` after a clause.

use super::*;

/// Zero or more `( … )` groups.
pub(super) fn assertions(l: &mut Line) -> R<Vec<Assertion>> {
    let mut v = Vec::new();
    loop {
        let save = l.i;
        l.ws();
        if l.peek() != Some(b'(') {
            l.i = save;
            return Ok(v);
        }
        let pos = l.pos();
        l.i += 1;
        l.ws();
        if l.peek() == Some(b'"') {
            v.push(Assertion::Note(l.string()?));
            l.ws();
            l.expect(b')', "`)`")?;
            continue;
        }
        let word_start = l.i;
        let word = l.ident();
        let a = match word {
            Some("spice") => Assertion::Spice {
                pos,
                values: faction_values(l, |l| l.spice("an amount of spice"))?,
            },
            Some("bribes") => Assertion::Bribes {
                pos,
                values: faction_values(l, |l| l.spice("an amount of spice"))?,
            },
            Some("hands") => Assertion::Hands {
                pos,
                values: faction_values(l, |l| l.small("a number of cards"))?,
            },
            Some("tanks") => Assertion::Tanks {
                pos,
                values: faction_values(l, Line::forces)?,
            },
            Some("reserves") => Assertion::Reserves {
                pos,
                values: faction_values(l, Line::forces)?,
            },
            Some("worms") => {
                l.ws();
                Assertion::Worms {
                    pos,
                    count: l.uint("the number of worms")?,
                }
            }
            Some("wheel") => {
                l.ws();
                let at = l.i;
                let text = l.decimal()?;
                let value = crate::battle::Halves::parse(&text).ok_or_else(|| {
                    l.err_at(at, "a strength such as 7 or 7.5", format!("`{text}`"))
                })?;
                Assertion::Wheel { pos, value }
            }
            Some("map") => {
                let mut values = Vec::new();
                l.ws();
                if !l.eat(b'-') {
                    loop {
                        l.ws();
                        let t = l.territory()?;
                        l.ws();
                        values.push((t, l.spice("the spice lying there")?));
                        l.ws();
                        if !l.eat(b',') {
                            break;
                        }
                    }
                }
                Assertion::Map { pos, values }
            }
            Some("KH") => {
                l.ws();
                let at = l.i;
                let state = match l.ident() {
                    Some("inactive") => KwisatzState::Inactive,
                    Some("active") => KwisatzState::Active,
                    Some("dead") => KwisatzState::Dead,
                    _ => return Err(l.err_at(at, "inactive, active or dead", l.found())),
                };
                let save = l.i;
                l.ws();
                let losses = if l.peek().is_some_and(|c| c.is_ascii_digit()) {
                    Some(l.uint("the Atreides' battle losses")?)
                } else {
                    l.i = save;
                    None
                };
                Assertion::Kwisatz { pos, state, losses }
            }
            Some("storm") => {
                l.ws();
                Assertion::Storm {
                    pos,
                    sector: l.sector()?,
                }
            }
            _ => {
                l.i = word_start;
                let territory = l.territory().map_err(|_| l.err("an assertion: spice, bribes, hands, tanks, reserves, worms, storm, wheel, map, KH, a territory with losses `SM: SG -3, -$4`, or a quoted note"))?;
                l.expect(b':', "`:` and the losses")?;
                let mut forces = Vec::new();
                let mut spice = None;
                loop {
                    l.ws();
                    if l.eat_str("-$") {
                        spice = Some(l.spice("the spice lost")?);
                    } else {
                        let f = l.faction()?;
                        l.ws();
                        l.expect(b'-', "`-` and the forces lost")?;
                        forces.push((f, l.forces()?));
                    }
                    l.ws();
                    if !l.eat(b',') {
                        break;
                    }
                }
                Assertion::Losses {
                    pos,
                    territory,
                    forces,
                    spice,
                }
            }
        };
        l.ws();
        l.expect(b')', "`)` closing the assertion")?;
        v.push(a);
    }
}
